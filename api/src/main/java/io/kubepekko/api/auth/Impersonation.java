package io.kubepekko.api.auth;

import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.auth.authorizer.ForbiddenMessage;
import io.kubepekko.api.status.ApiStatus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Acting as another user through kube's {@code Impersonate-*} headers (kube-apiserver's
 * impersonation filter). Each thing asked for is authorized for the requester with the verb {@code
 * impersonate}: the user (resource {@code users}, or {@code serviceaccounts} in its namespace for a
 * {@code system:serviceaccount:ns:name} user), each group ({@code groups}), the uid ({@code uids}
 * in {@code authentication.k8s.io}) and each extra value ({@code userextras/<key>} there). The
 * first refusal answers 403 with kube's message for that check.
 *
 * <p>kube answers 500 when groups, a uid or extras are asked for without a user; a malformed
 * request is the client's error, so this answers 400 with kube's text instead.
 */
public final class Impersonation {

    /** The header naming the user to act as. */
    public static final String USER = "Impersonate-User";

    /** The header naming a group to act in (repeatable). */
    public static final String GROUP = "Impersonate-Group";

    /** The header naming the uid to act with. */
    public static final String UID = "Impersonate-Uid";

    /** The prefix of the headers carrying extra attributes; the rest of the name is the key. */
    public static final String EXTRA_PREFIX = "Impersonate-Extra-";

    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
    private static final String AUTHENTICATION_GROUP = "authentication.k8s.io";

    private Impersonation() {}

    /** What the request's impersonation headers ask for. */
    public record Requested(
            Optional<String> user,
            List<String> groups,
            Optional<String> uid,
            Map<String, List<String>> extra) {

        public Requested {
            groups = List.copyOf(groups);
            // In the order the headers came: the checks run (and the first refusal answers) so.
            Map<String, List<String>> ordered = new LinkedHashMap<>();
            extra.forEach((k, v) -> ordered.put(k, List.copyOf(v)));
            extra = Collections.unmodifiableMap(ordered);
        }

        /** Whether any impersonation header was sent. */
        public boolean any() {
            return user.isPresent() || !groups.isEmpty() || uid.isPresent() || !extra.isEmpty();
        }
    }

    /** The outcome: the user to act as, or the Status that refuses the request. */
    public sealed interface Outcome {
        /** Act as {@code user}; it is the requester itself when nothing was asked for. */
        record ActAs(UserInfo user) implements Outcome {}

        /** Refused with {@code status} (400 or 403). */
        record Refused(ApiStatus status) implements Outcome {}
    }

    /**
     * Reads the impersonation headers. Header names are matched case-insensitively, as HTTP
     * requires; an extra's key is the rest of the header name, lower-cased and percent-decoded as
     * kube does (so keys with characters a header name cannot hold can be sent).
     *
     * @param headers every request header as (name, value) pairs in arrival order
     */
    public static Requested read(List<Map.Entry<String, String>> headers) {
        Optional<String> user = Optional.empty();
        Optional<String> uid = Optional.empty();
        List<String> groups = new ArrayList<>();
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : headers) {
            String name = h.getKey();
            if (name.equalsIgnoreCase(USER)) {
                if (user.isEmpty() && !h.getValue().isEmpty()) {
                    user = Optional.of(h.getValue());
                }
            } else if (name.equalsIgnoreCase(GROUP)) {
                groups.add(h.getValue());
            } else if (name.equalsIgnoreCase(UID)) {
                if (uid.isEmpty() && !h.getValue().isEmpty()) {
                    uid = Optional.of(h.getValue());
                }
            } else if (name.regionMatches(true, 0, EXTRA_PREFIX, 0, EXTRA_PREFIX.length())) {
                String key = extraKey(name.substring(EXTRA_PREFIX.length()));
                extra.computeIfAbsent(key, k -> new ArrayList<>()).add(h.getValue());
            }
        }
        return new Requested(user, groups, uid, extra);
    }

    /**
     * Decides whether {@code requester} may act as what {@code requested} names, and as whom.
     *
     * @param authorizer the server's authorizer chain
     */
    public static Outcome decide(UserInfo requester, Requested requested, Authorizer authorizer) {
        if (!requested.any()) {
            return new Outcome.ActAs(requester);
        }
        if (requested.user().isEmpty()) {
            return new Outcome.Refused(
                    ApiStatus.badRequest(
                            "requesting uid, groups or user-extra for "
                                    + describe(requested)
                                    + " without impersonating a user"));
        }
        String name = requested.user().get();
        List<String> groups = new ArrayList<>();
        Optional<ServiceAccountName> serviceAccount = ServiceAccountName.parse(name);
        AuthorizationAttributes userCheck =
                serviceAccount
                        .map(
                                sa ->
                                        AuthorizationAttributes.resource(
                                                requester,
                                                "impersonate",
                                                sa.namespace(),
                                                "",
                                                "",
                                                "serviceaccounts",
                                                "",
                                                sa.name()))
                        .orElseGet(
                                () ->
                                        AuthorizationAttributes.resource(
                                                requester,
                                                "impersonate",
                                                "",
                                                "",
                                                "",
                                                "users",
                                                "",
                                                name));
        Optional<ApiStatus> refused = refusal(userCheck, authorizer);
        if (refused.isPresent()) {
            return new Outcome.Refused(refused.get());
        }
        boolean groupsSpecified = !requested.groups().isEmpty();
        if (serviceAccount.isPresent() && !groupsSpecified) {
            groups.addAll(serviceAccount.get().groups());
        }
        for (String group : requested.groups()) {
            refused =
                    refusal(
                            AuthorizationAttributes.resource(
                                    requester, "impersonate", "", "", "", "groups", "", group),
                            authorizer);
            if (refused.isPresent()) {
                return new Outcome.Refused(refused.get());
            }
            groups.add(group);
        }
        if (requested.uid().isPresent()) {
            refused =
                    refusal(
                            AuthorizationAttributes.resource(
                                    requester,
                                    "impersonate",
                                    "",
                                    AUTHENTICATION_GROUP,
                                    "",
                                    "uids",
                                    "",
                                    requested.uid().get()),
                            authorizer);
            if (refused.isPresent()) {
                return new Outcome.Refused(refused.get());
            }
        }
        for (Map.Entry<String, List<String>> e : requested.extra().entrySet()) {
            for (String value : e.getValue()) {
                refused =
                        refusal(
                                AuthorizationAttributes.resource(
                                        requester,
                                        "impersonate",
                                        "",
                                        AUTHENTICATION_GROUP,
                                        "",
                                        "userextras",
                                        e.getKey(),
                                        value),
                                authorizer);
                if (refused.isPresent()) {
                    return new Outcome.Refused(refused.get());
                }
            }
        }
        addImplicitGroup(name, groups);
        return new Outcome.ActAs(
                new UserInfo(name, requested.uid().orElse(""), groups, requested.extra()));
    }

    /**
     * kube adds {@code system:authenticated} to an impersonated user that names neither it nor
     * {@code system:unauthenticated}, and {@code system:unauthenticated} to an impersonated
     * anonymous user that lacks it.
     */
    private static void addImplicitGroup(String name, List<String> groups) {
        if (name.equals(UserInfo.ANONYMOUS)) {
            if (!groups.contains(UserInfo.UNAUTHENTICATED)) {
                groups.add(UserInfo.UNAUTHENTICATED);
            }
        } else if (!groups.contains(UserInfo.AUTHENTICATED)
                && !groups.contains(UserInfo.UNAUTHENTICATED)) {
            groups.add(UserInfo.AUTHENTICATED);
        }
    }

    private static Optional<ApiStatus> refusal(
            AuthorizationAttributes check, Authorizer authorizer) {
        Decision decision = authorizer.authorize(check);
        if (decision.allowed()) {
            return Optional.empty();
        }
        return Optional.of(ForbiddenMessage.status(check, decision.reason()));
    }

    /**
     * The extra's key: lower-cased, then percent-decoded as Go's {@code url.PathUnescape}; a
     * malformed escape keeps the key as sent, as kube does.
     */
    static String extraKey(String raw) {
        String lower = raw.toLowerCase(Locale.ROOT);
        if (lower.indexOf('%') < 0) {
            return lower;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(lower.length());
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            if (i + 2 >= lower.length()) {
                return lower;
            }
            int hi = Character.digit(lower.charAt(i + 1), 16);
            int lo = Character.digit(lower.charAt(i + 2), 16);
            if (hi < 0 || lo < 0) {
                return lower;
            }
            bytes.write(hi * 16 + lo);
            i += 2;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String describe(Requested r) {
        List<String> parts = new ArrayList<>();
        r.groups().forEach(g -> parts.add("Group " + g));
        r.uid().ifPresent(u -> parts.add("UID " + u));
        r.extra().forEach((k, vs) -> vs.forEach(v -> parts.add("UserExtra " + k + "=" + v)));
        return parts.toString();
    }

    /** A service account's user name, {@code system:serviceaccount:<namespace>:<name>}. */
    record ServiceAccountName(String namespace, String name) {
        static Optional<ServiceAccountName> parse(String user) {
            if (!user.startsWith(SERVICE_ACCOUNT_PREFIX)) {
                return Optional.empty();
            }
            String rest = user.substring(SERVICE_ACCOUNT_PREFIX.length());
            int colon = rest.indexOf(':');
            if (colon <= 0 || colon == rest.length() - 1 || rest.indexOf(':', colon + 1) >= 0) {
                return Optional.empty();
            }
            return Optional.of(
                    new ServiceAccountName(rest.substring(0, colon), rest.substring(colon + 1)));
        }

        List<String> groups() {
            return List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace);
        }
    }
}
