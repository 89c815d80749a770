package io.kubepekko.api.watch;

import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The read parameters of a get, list or watch, resolved to what the server must serve. It applies
 * kube-apiserver's rules in its order: query decoding (400 for malformed numbers), then {@code
 * ListOptions} validation (422 Invalid on {@code ListOptions.meta.k8s.io}), then the storage checks
 * (400 for a bad continue token or resource version).
 *
 * @param verb what the request does
 * @param mode which version the data is read at
 * @param limit maximum items in a list page; 0 means unpaged
 * @param allowWatchBookmarks whether the watcher accepts BOOKMARK events
 * @param sendInitialEvents whether a watch starts with synthetic ADDED events for the current state
 * @param timeoutSeconds the watch duration the client asked for; null when it did not ask
 * @param labelSelector the label selector text, empty for everything
 * @param fieldSelector the field selector text, empty for everything
 */
public record ReadOptions(
        Verb verb,
        Mode mode,
        long limit,
        boolean allowWatchBookmarks,
        boolean sendInitialEvents,
        Long timeoutSeconds,
        String labelSelector,
        String fieldSelector) {

    /** The reading verbs. */
    public enum Verb {
        GET,
        LIST,
        WATCH
    }

    /** {@code resourceVersionMatch} values. */
    public static final String MATCH_EXACT = "Exact";

    public static final String MATCH_NOT_OLDER_THAN = "NotOlderThan";

    /** How fresh the data must be; the rows of SPEC's resource-version tables. */
    public sealed interface Mode {
        /** Consistent data at the latest version (a quorum read). */
        record MostRecent() implements Mode {}

        /** Data at any version the server has; no freshness guarantee. */
        record Any() implements Mode {}

        /** Data at a version no older than the given one; the server may wait for it. */
        record NotOlderThan(long resourceVersion) implements Mode {}

        /**
         * For a list, data at exactly this version (410 if gone). For a watch, the events strictly
         * after it, with no initial state.
         */
        record Exact(long resourceVersion) implements Mode {}

        /** The next page of a paged list, at the token's snapshot. */
        record Continue(ContinueToken token) implements Mode {}
    }

    public static final Mode MOST_RECENT = new Mode.MostRecent();
    public static final Mode ANY = new Mode.Any();

    /** The same options with another field selector. */
    public ReadOptions withFieldSelector(String selector) {
        return new ReadOptions(
                verb,
                mode,
                limit,
                allowWatchBookmarks,
                sendInitialEvents,
                timeoutSeconds,
                labelSelector,
                selector);
    }

    /**
     * The field selector of a get-style read of the object {@code name} ({@code GET
     * .../name?watch}): kube-apiserver selects {@code metadata.name=<name>}, and a field selector
     * the client gave must already require exactly that name.
     *
     * @throws io.kubepekko.api.status.ApiException 400 when the given selector names another object
     */
    public static String namedSelector(String fieldSelector, String name) {
        if (fieldSelector == null || fieldSelector.isEmpty()) {
            return "metadata.name=" + FieldSelector.escape(name);
        }
        String selected = FieldSelector.parse(fieldSelector).exactName().orElse(null);
        if (!name.equals(selected)) {
            throw ApiStatus.badRequest("fieldSelector metadata.name doesn't match requested name")
                    .exception();
        }
        return fieldSelector;
    }

    /** Whether a list is paged. */
    public boolean paged() {
        return limit > 0;
    }

    /**
     * Whether a watch ends its initial events with the BOOKMARK annotated {@code
     * k8s.io/initial-events-end: "true"}: only when both were asked for.
     */
    public boolean initialEventsEndBookmark() {
        return verb == Verb.WATCH && sendInitialEvents && allowWatchBookmarks;
    }

    /**
     * Parses the query of a read.
     *
     * @param verb {@code get}, {@code list} or {@code watch}; a list with {@code watch=true} (any
     *     value but {@code false} and {@code 0}, as kube-apiserver reads it) is a watch
     * @param query the decoded query parameters; only the first value of each counts
     * @param gates the server's feature gates; with {@code WatchList} off, a watch may not ask for
     *     its initial events
     * @throws io.kubepekko.api.status.ApiException with Kubernetes' status for an invalid request
     */
    public static ReadOptions parse(
            Verb verb, Map<String, List<String>> query, FeatureGates gates) {
        Query q = new Query(query);
        return switch (verb) {
            case GET -> get(q);
            case LIST -> listOrWatch(q, false, gates);
            case WATCH -> listOrWatch(q, true, gates);
        };
    }

    /**
     * {@link #parse(Verb, Map, FeatureGates)} with the verb by its wire name ({@code get}, {@code
     * list}, {@code watch}).
     */
    public static ReadOptions parse(
            String verb, Map<String, List<String>> query, FeatureGates gates) {
        return switch (verb) {
            case "get" -> parse(Verb.GET, query, gates);
            case "list" -> parse(Verb.LIST, query, gates);
            case "watch" -> parse(Verb.WATCH, query, gates);
            default -> throw new IllegalArgumentException("not a read verb: " + verb);
        };
    }

    /**
     * The options a collection delete lists its objects with: only the selectors of these list
     * options count; the objects are read at the latest version, unpaged, as kube-apiserver's
     * {@code DeleteCollection} does.
     */
    public ReadOptions forDeleteCollection() {
        return new ReadOptions(
                Verb.LIST, MOST_RECENT, 0, false, false, null, labelSelector, fieldSelector);
    }

    private static ReadOptions get(Query q) {
        // GetOptions carries only resourceVersion; everything else on a get is ignored.
        String rv = q.string("resourceVersion");
        Mode mode =
                rv.isEmpty()
                        ? MOST_RECENT
                        : rv.equals("0") ? ANY : new Mode.NotOlderThan(resourceVersion(rv));
        return new ReadOptions(Verb.GET, mode, 0, false, false, null, "", "");
    }

    private static ReadOptions listOrWatch(Query q, boolean forceWatch, FeatureGates gates) {
        // Decoded in the field order of metav1.ListOptions, so the first malformed number reported
        // is the one kube-apiserver reports.
        String labelSelector = q.string("labelSelector");
        String fieldSelector = q.string("fieldSelector");
        boolean watch = forceWatch || q.bool("watch");
        boolean bookmarks = q.bool("allowWatchBookmarks");
        String rv = q.string("resourceVersion");
        String match = q.string("resourceVersionMatch");
        Long timeoutSeconds = q.int64("timeoutSeconds");
        Long rawLimit = q.int64("limit");
        String continueToken = q.string("continue");
        Boolean sendInitialEvents = q.optionalBool("sendInitialEvents");

        boolean watchList = gates.enabled(FeatureGates.WATCH_LIST);
        if (watch
                && watchList
                && sendInitialEvents == null
                && match.isEmpty()
                && (rv.isEmpty() || rv.equals("0"))) {
            // kube-apiserver (with WatchList on) defaults a legacy "get state, then watch" request
            // into its WatchList form: the same events, and the initial-events-end bookmark if the
            // client allows bookmarks.
            sendInitialEvents = Boolean.TRUE;
            match = MATCH_NOT_OLDER_THAN;
        }
        List<FieldError> errors =
                watch
                        ? watchErrors(match, sendInitialEvents, continueToken, watchList)
                        : listErrors(rv, match, sendInitialEvents, continueToken);
        if (!errors.isEmpty()) {
            throw ApiStatus.invalid("meta.k8s.io", "ListOptions", null, errors).exception();
        }

        long limit = rawLimit != null && rawLimit > 0 ? rawLimit : 0;
        if (watch) {
            return new ReadOptions(
                    Verb.WATCH,
                    watchMode(rv, sendInitialEvents),
                    0,
                    bookmarks,
                    Boolean.TRUE.equals(sendInitialEvents),
                    timeoutSeconds,
                    labelSelector,
                    fieldSelector);
        }
        Mode mode;
        if (!continueToken.isEmpty()) {
            ContinueToken token = ContinueToken.decode(continueToken);
            if (!rv.isEmpty() && !rv.equals("0")) {
                throw ReadErrors.resourceVersionWithContinue().exception();
            }
            mode = new Mode.Continue(token);
        } else {
            mode = listMode(rv, match, limit > 0);
        }
        return new ReadOptions(
                Verb.LIST,
                mode,
                limit,
                bookmarks,
                false,
                timeoutSeconds,
                labelSelector,
                fieldSelector);
    }

    /** SPEC's list table, for requests that passed validation and carry no continue token. */
    private static Mode listMode(String rv, String match, boolean paged) {
        if (rv.isEmpty()) {
            return MOST_RECENT;
        }
        if (match.equals(MATCH_EXACT)) {
            return new Mode.Exact(resourceVersion(rv));
        }
        if (rv.equals("0")) {
            return ANY;
        }
        long n = resourceVersion(rv);
        // Without resourceVersionMatch, a paged list at a version is exact: its pages must agree.
        return match.isEmpty() && paged ? new Mode.Exact(n) : new Mode.NotOlderThan(n);
    }

    /** SPEC's watch table, extended with WatchList (sendInitialEvents) requests. */
    private static Mode watchMode(String rv, Boolean sendInitialEvents) {
        if (rv.isEmpty()) {
            return MOST_RECENT;
        }
        if (rv.equals("0")) {
            return ANY;
        }
        long n = resourceVersion(rv);
        return Boolean.TRUE.equals(sendInitialEvents)
                ? new Mode.NotOlderThan(n)
                : new Mode.Exact(n);
    }

    private static List<FieldError> listErrors(
            String rv, String match, Boolean sendInitialEvents, String continueToken) {
        List<FieldError> errors = new ArrayList<>();
        if (!match.isEmpty()) {
            if (rv.isEmpty()) {
                errors.add(
                        FieldError.forbidden(
                                "resourceVersionMatch",
                                "resourceVersionMatch is forbidden unless resourceVersion is provided"));
            }
            if (!continueToken.isEmpty()) {
                errors.add(
                        FieldError.forbidden(
                                "resourceVersionMatch",
                                "resourceVersionMatch is forbidden when continue is provided"));
            }
            if (!match.equals(MATCH_EXACT) && !match.equals(MATCH_NOT_OLDER_THAN)) {
                errors.add(
                        FieldError.notSupported(
                                "resourceVersionMatch",
                                match,
                                List.of(MATCH_EXACT, MATCH_NOT_OLDER_THAN, "")));
            }
            if (match.equals(MATCH_EXACT) && rv.equals("0")) {
                errors.add(
                        FieldError.forbidden(
                                "resourceVersionMatch",
                                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""));
            }
        }
        if (sendInitialEvents != null) {
            errors.add(
                    FieldError.forbidden(
                            "sendInitialEvents", "sendInitialEvents is forbidden for list"));
        }
        return errors;
    }

    private static List<FieldError> watchErrors(
            String match, Boolean sendInitialEvents, String continueToken, boolean watchList) {
        List<FieldError> errors = new ArrayList<>();
        if (sendInitialEvents != null && !match.equals(MATCH_NOT_OLDER_THAN)) {
            errors.add(
                    FieldError.forbidden(
                            "resourceVersionMatch",
                            "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
        }
        if (sendInitialEvents != null && !watchList) {
            errors.add(
                    FieldError.forbidden(
                            "sendInitialEvents",
                            "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"));
        }
        if (!match.isEmpty()) {
            if (sendInitialEvents == null) {
                errors.add(
                        FieldError.forbidden(
                                "resourceVersionMatch",
                                "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
            }
            if (!match.equals(MATCH_NOT_OLDER_THAN)) {
                errors.add(
                        FieldError.notSupported(
                                "resourceVersionMatch", match, List.of(MATCH_NOT_OLDER_THAN)));
            }
            if (!continueToken.isEmpty()) {
                errors.add(
                        FieldError.forbidden(
                                "resourceVersionMatch",
                                "resourceVersionMatch is forbidden when continue is provided"));
            }
        }
        return errors;
    }

    /**
     * A resource version as kube's versioner reads it: an unsigned decimal. Values above {@link
     * Long#MAX_VALUE} are kept as that maximum, which no server reaches, so they still read as "too
     * large".
     */
    private static long resourceVersion(String rv) {
        String problem = GoNumbers.unsignedProblem(rv);
        if (problem != null) {
            throw ReadErrors.invalidResourceVersion(
                            rv,
                            "strconv.ParseUint: parsing " + FieldError.quote(rv) + ": " + problem)
                    .exception();
        }
        try {
            return Long.parseLong(rv);
        } catch (NumberFormatException tooBig) {
            return Long.MAX_VALUE;
        }
    }

    /** First-value access to the query with Go's parameter conversions. */
    private record Query(Map<String, List<String>> values) {
        private String first(String name) {
            List<String> v = values.get(name);
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        String string(String name) {
            String v = first(name);
            return v == null ? "" : v;
        }

        /** Absent, "0" and any case of "false" are false; anything else, even empty, is true. */
        boolean bool(String name) {
            Boolean b = optionalBool(name);
            return b != null && b;
        }

        Boolean optionalBool(String name) {
            String v = first(name);
            if (v == null) {
                return null;
            }
            return !(v.equals("0") || v.toLowerCase(Locale.ROOT).equals("false"));
        }

        /** A present but malformed integer is a 400 with Go's parse error as the message. */
        Long int64(String name) {
            String v = first(name);
            if (v == null) {
                return null;
            }
            String problem = GoNumbers.signedProblem(v);
            if (problem != null) {
                throw ApiStatus.badRequest(
                                "strconv.ParseInt: parsing " + FieldError.quote(v) + ": " + problem)
                        .exception();
            }
            return Long.parseLong(v);
        }
    }

    /**
     * Go's {@code strconv} base-10 syntax: ASCII digits only, and a sign only where Go allows one.
     */
    private static final class GoNumbers {
        private GoNumbers() {}

        static String unsignedProblem(String s) {
            if (!allAsciiDigits(s, 0)) {
                return "invalid syntax";
            }
            return exceeds(s, 0, "18446744073709551615") ? "value out of range" : null;
        }

        static String signedProblem(String s) {
            int start = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
            if (!allAsciiDigits(s, start)) {
                return "invalid syntax";
            }
            String max = s.charAt(0) == '-' ? "9223372036854775808" : "9223372036854775807";
            return exceeds(s, start, max) ? "value out of range" : null;
        }

        private static boolean allAsciiDigits(String s, int from) {
            if (s.length() <= from) {
                return false;
            }
            for (int i = from; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9') {
                    return false;
                }
            }
            return true;
        }

        private static boolean exceeds(String s, int from, String max) {
            String digits = s.substring(from).replaceFirst("^0+(?=.)", "");
            return digits.length() > max.length()
                    || digits.length() == max.length() && digits.compareTo(max) > 0;
        }
    }
}
