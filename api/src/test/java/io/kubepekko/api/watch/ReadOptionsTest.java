package io.kubepekko.api.watch;

import static io.kubepekko.api.watch.ReadOptions.ANY;
import static io.kubepekko.api.watch.ReadOptions.MOST_RECENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import io.kubepekko.api.watch.ReadOptions.Mode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReadOptionsTest {

    private static final FeatureGates GATES = FeatureGates.defaults();
    private static final FeatureGates NO_WATCH_LIST = FeatureGates.parse("WatchList=false");
    private static final String TOKEN = new ContinueToken(40, "default/cm7").encode();
    private static final Mode CONTINUE = new Mode.Continue(new ContinueToken(40, "default/cm7"));

    /** A query from alternating names and values. */
    private static Map<String, List<String>> q(String... nameValues) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            m.computeIfAbsent(nameValues[i], k -> new ArrayList<>()).add(nameValues[i + 1]);
        }
        return m;
    }

    private static Mode notOlderThan(long rv) {
        return new Mode.NotOlderThan(rv);
    }

    private static Mode exact(long rv) {
        return new Mode.Exact(rv);
    }

    private static ApiStatus failure(String verb, Map<String, List<String>> query) {
        return assertThrows(ApiException.class, () -> ReadOptions.parse(verb, query, GATES))
                .status();
    }

    // SPEC "Resource version semantics", list table: every cell that is not Invalid.
    static Stream<Arguments> listTable() {
        return Stream.of(
                arguments("no match, no limit, unset", q(), MOST_RECENT),
                arguments("no match, no limit, 0", q("resourceVersion", "0"), ANY),
                arguments("no match, no limit, other", q("resourceVersion", "5"), notOlderThan(5)),
                arguments("no match, limit, unset", q("limit", "10"), MOST_RECENT),
                arguments("no match, limit, 0", q("limit", "10", "resourceVersion", "0"), ANY),
                arguments(
                        "no match, limit, other",
                        q("limit", "10", "resourceVersion", "5"),
                        exact(5)),
                arguments(
                        "no match, continue, unset", q("limit", "10", "continue", TOKEN), CONTINUE),
                arguments(
                        "no match, continue, 0",
                        q("limit", "10", "continue", TOKEN, "resourceVersion", "0"),
                        CONTINUE),
                arguments(
                        "Exact, no limit, other",
                        q("resourceVersionMatch", "Exact", "resourceVersion", "5"),
                        exact(5)),
                arguments(
                        "Exact, limit, other",
                        q("resourceVersionMatch", "Exact", "resourceVersion", "5", "limit", "3"),
                        exact(5)),
                arguments(
                        "NotOlderThan, no limit, 0",
                        q("resourceVersionMatch", "NotOlderThan", "resourceVersion", "0"),
                        ANY),
                arguments(
                        "NotOlderThan, no limit, other",
                        q("resourceVersionMatch", "NotOlderThan", "resourceVersion", "5"),
                        notOlderThan(5)),
                arguments(
                        "NotOlderThan, limit, 0",
                        q(
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "resourceVersion",
                                "0",
                                "limit",
                                "3"),
                        ANY),
                arguments(
                        "NotOlderThan, limit, other",
                        q(
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "resourceVersion",
                                "5",
                                "limit",
                                "3"),
                        notOlderThan(5)),
                arguments("continue without limit still continues", q("continue", TOKEN), CONTINUE),
                arguments(
                        "zero limit is unpaged",
                        q("limit", "0", "resourceVersion", "5"),
                        notOlderThan(5)),
                arguments(
                        "negative limit is unpaged",
                        q("limit", "-1", "resourceVersion", "5"),
                        notOlderThan(5)),
                arguments("empty resourceVersion is unset", q("resourceVersion", ""), MOST_RECENT),
                arguments(
                        "first value counts",
                        q("resourceVersion", "0", "resourceVersion", "9"),
                        ANY),
                arguments(
                        "watch=false is a list",
                        q("watch", "false", "resourceVersion", "5"),
                        notOlderThan(5)),
                arguments("watch=0 is a list", q("watch", "0"), MOST_RECENT),
                arguments(
                        "largest uint64 is kept as the largest long",
                        q("resourceVersion", "18446744073709551615"),
                        notOlderThan(Long.MAX_VALUE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("listTable")
    void resolvesListModePerSpecTable(String name, Map<String, List<String>> query, Mode expected) {
        ReadOptions o = ReadOptions.parse("list", query, GATES);
        assertEquals(ReadOptions.Verb.LIST, o.verb());
        assertEquals(expected, o.mode());
        assertFalse(o.sendInitialEvents());
    }

    @Test
    void keepsListParameters() {
        ReadOptions o =
                ReadOptions.parse(
                        "list",
                        q(
                                "limit",
                                "+500",
                                "labelSelector",
                                "app=web",
                                "fieldSelector",
                                "metadata.name=x",
                                "timeoutSeconds",
                                "30"),
                        GATES);
        assertEquals(
                new ReadOptions(
                        ReadOptions.Verb.LIST,
                        MOST_RECENT,
                        500,
                        false,
                        false,
                        30L,
                        "app=web",
                        "metadata.name=x"),
                o);
        assertTrue(o.paged());
        assertFalse(ReadOptions.parse("list", q("limit", "-3"), GATES).paged());
    }

    /**
     * WatchList off (a beta gate, on by default in kube 1.35): a watch may not ask for its initial
     * events, in kube's words after the match errors, and a legacy watch from "" or "0" is not
     * turned into a WatchList request.
     */
    @Test
    void withWatchListOffAWatchMayNotAskForItsInitialEvents() {
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () ->
                                ReadOptions.parse(
                                        "watch",
                                        q(
                                                "sendInitialEvents",
                                                "true",
                                                "allowWatchBookmarks",
                                                "true"),
                                        NO_WATCH_LIST));
        assertEquals(422, e.status().code());
        assertEquals(
                "ListOptions.meta.k8s.io \"\" is invalid: [resourceVersionMatch: Forbidden: "
                        + "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, "
                        + "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch "
                        + "unless the WatchList feature gate is enabled]",
                e.status().message());
        ReadOptions legacy =
                ReadOptions.parse(
                        "watch",
                        q("resourceVersion", "0", "allowWatchBookmarks", "true"),
                        NO_WATCH_LIST);
        assertFalse(legacy.sendInitialEvents());
        assertFalse(legacy.initialEventsEndBookmark());
        assertTrue(
                ReadOptions.parse(
                                "watch",
                                q("resourceVersion", "0", "allowWatchBookmarks", "true"),
                                GATES)
                        .initialEventsEndBookmark(),
                "with the gate on, the same watch is a WatchList request");
    }

    static Stream<Arguments> getTable() {
        return Stream.of(
                arguments("unset", q(), MOST_RECENT),
                arguments("0", q("resourceVersion", "0"), ANY),
                arguments("other", q("resourceVersion", "17"), notOlderThan(17)),
                arguments(
                        "list-only parameters are ignored",
                        q(
                                "limit",
                                "abc",
                                "resourceVersionMatch",
                                "Bogus",
                                "sendInitialEvents",
                                "true"),
                        MOST_RECENT));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("getTable")
    void resolvesGetModePerSpecTable(String name, Map<String, List<String>> query, Mode expected) {
        ReadOptions o = ReadOptions.parse("get", query, GATES);
        assertEquals(ReadOptions.Verb.GET, o.verb());
        assertEquals(expected, o.mode());
    }

    /**
     * mode, whether synthetic ADDED events come first, whether the initial-events-end bookmark
     * follows.
     */
    static Stream<Arguments> watchTable() {
        return Stream.of(
                arguments(
                        "unset: state, then most recent",
                        q("watch", "true"),
                        MOST_RECENT,
                        true,
                        false),
                arguments(
                        "0: state, then any",
                        q("watch", "1", "resourceVersion", "0"),
                        ANY,
                        true,
                        false),
                arguments(
                        "other: events after it",
                        q("watch", "true", "resourceVersion", "5"),
                        exact(5),
                        false,
                        false),
                arguments(
                        "any value but false or 0 is a watch",
                        q("watch", "", "resourceVersion", "5"),
                        exact(5),
                        false,
                        false),
                arguments(
                        "legacy state watch with bookmarks gets the end bookmark",
                        q("watch", "true", "allowWatchBookmarks", "true"),
                        MOST_RECENT,
                        true,
                        true),
                arguments(
                        "legacy resume with bookmarks has no initial events",
                        q("watch", "true", "allowWatchBookmarks", "true", "resourceVersion", "5"),
                        exact(5),
                        false,
                        false),
                arguments(
                        "WatchList without version (kubectl wait, helm --wait)",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "true",
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "allowWatchBookmarks",
                                "true",
                                "timeoutSeconds",
                                "300"),
                        MOST_RECENT,
                        true,
                        true),
                arguments(
                        "WatchList at 0",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "true",
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "resourceVersion",
                                "0",
                                "allowWatchBookmarks",
                                "true"),
                        ANY,
                        true,
                        true),
                arguments(
                        "WatchList at a version",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "true",
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "resourceVersion",
                                "5",
                                "allowWatchBookmarks",
                                "true"),
                        notOlderThan(5),
                        true,
                        true),
                arguments(
                        "WatchList without bookmarks sends no end bookmark",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "true",
                                "resourceVersionMatch",
                                "NotOlderThan"),
                        MOST_RECENT,
                        true,
                        false),
                arguments(
                        "no initial events, unset: from most recent",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "false",
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "allowWatchBookmarks",
                                "true"),
                        MOST_RECENT,
                        false,
                        false),
                arguments(
                        "no initial events, 0: from any",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "false",
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "resourceVersion",
                                "0"),
                        ANY,
                        false,
                        false),
                arguments(
                        "no initial events, other: after it",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "false",
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "resourceVersion",
                                "5"),
                        exact(5),
                        false,
                        false),
                arguments(
                        "limit and continue mean nothing to a watch",
                        q("watch", "true", "resourceVersion", "5", "limit", "5", "continue", "!!"),
                        exact(5),
                        false,
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("watchTable")
    void resolvesWatchModePerSpecTable(
            String name,
            Map<String, List<String>> query,
            Mode expected,
            boolean initialEvents,
            boolean endBookmark) {
        ReadOptions o = ReadOptions.parse("list", query, GATES);
        assertEquals(ReadOptions.Verb.WATCH, o.verb());
        assertEquals(expected, o.mode());
        assertEquals(initialEvents, o.sendInitialEvents());
        assertEquals(endBookmark, o.initialEventsEndBookmark());
        assertEquals(0, o.limit());
    }

    @Test
    void watchVerbNeedsNoWatchParameter() {
        ReadOptions o =
                ReadOptions.parse(
                        "watch", q("resourceVersion", "8", "timeoutSeconds", "60"), GATES);
        assertEquals(ReadOptions.Verb.WATCH, o.verb());
        assertEquals(exact(8), o.mode());
        assertEquals(60L, o.timeoutSeconds());
        assertNull(ReadOptions.parse("watch", q(), GATES).timeoutSeconds());
    }

    static Stream<Arguments> invalidCombinations() {
        String prefix = "ListOptions.meta.k8s.io \"\" is invalid: ";
        return Stream.of(
                arguments(
                        "list: Exact without version",
                        "list",
                        q("resourceVersionMatch", "Exact"),
                        prefix
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"),
                arguments(
                        "list: NotOlderThan without version",
                        "list",
                        q("resourceVersionMatch", "NotOlderThan", "limit", "5"),
                        prefix
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"),
                arguments(
                        "list: Exact at 0",
                        "list",
                        q("resourceVersionMatch", "Exact", "resourceVersion", "0"),
                        prefix
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""),
                arguments(
                        "list: Exact at 0, paged",
                        "list",
                        q("resourceVersionMatch", "Exact", "resourceVersion", "0", "limit", "5"),
                        prefix
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""),
                arguments(
                        "list: match with continue",
                        "list",
                        q(
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "resourceVersion",
                                "5",
                                "continue",
                                TOKEN),
                        prefix
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided"),
                arguments(
                        "list: unknown match",
                        "list",
                        q("resourceVersionMatch", "exact", "resourceVersion", "5"),
                        prefix
                                + "resourceVersionMatch: Unsupported value: \"exact\": supported values: \"Exact\", \"NotOlderThan\", \"\""),
                arguments(
                        "list: several errors at once",
                        "list",
                        q("resourceVersionMatch", "Newest", "continue", TOKEN),
                        prefix
                                + "[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, "
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, "
                                + "resourceVersionMatch: Unsupported value: \"Newest\": supported values: \"Exact\", \"NotOlderThan\", \"\"]"),
                arguments(
                        "list: sendInitialEvents",
                        "list",
                        q("sendInitialEvents", "false"),
                        prefix
                                + "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"),
                arguments(
                        "watch: match without sendInitialEvents",
                        "list",
                        q("watch", "true", "resourceVersionMatch", "NotOlderThan"),
                        prefix
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"),
                arguments(
                        "watch: sendInitialEvents without match",
                        "list",
                        q("watch", "true", "sendInitialEvents", "true"),
                        prefix
                                + "resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"),
                arguments(
                        "watch: sendInitialEvents with Exact",
                        "list",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "true",
                                "resourceVersionMatch",
                                "Exact",
                                "allowWatchBookmarks",
                                "true"),
                        prefix
                                + "[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, "
                                + "resourceVersionMatch: Unsupported value: \"Exact\": supported values: \"NotOlderThan\"]"),
                arguments(
                        "watch: Exact alone",
                        "watch",
                        q("resourceVersionMatch", "Exact", "resourceVersion", "5"),
                        prefix
                                + "[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, "
                                + "resourceVersionMatch: Unsupported value: \"Exact\": supported values: \"NotOlderThan\"]"),
                arguments(
                        "watch: WatchList with continue",
                        "list",
                        q(
                                "watch",
                                "true",
                                "sendInitialEvents",
                                "true",
                                "resourceVersionMatch",
                                "NotOlderThan",
                                "continue",
                                TOKEN),
                        prefix
                                + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidCombinations")
    void rejectsInvalidCombinationAsKubeApiserverDoes(
            String name, String verb, Map<String, List<String>> query, String message) {
        ApiStatus s = failure(verb, query);
        assertEquals(422, s.code());
        assertEquals("Invalid", s.reason());
        assertEquals(message, s.message());
        assertEquals("ListOptions", s.details().kind());
        assertEquals("meta.k8s.io", s.details().group());
        assertNull(s.details().name());
    }

    @Test
    void invalidListOptionsCarryFieldCauses() {
        ApiStatus s = failure("list", q("resourceVersionMatch", "Exact"));
        assertEquals(
                List.of(
                        new StatusCause(
                                "FieldValueForbidden",
                                "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
                                "resourceVersionMatch")),
                s.details().causes());
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                arguments(
                        "non-numeric limit",
                        "list",
                        q("limit", "abc"),
                        "strconv.ParseInt: parsing \"abc\": invalid syntax"),
                arguments(
                        "empty limit",
                        "list",
                        q("limit", ""),
                        "strconv.ParseInt: parsing \"\": invalid syntax"),
                arguments(
                        "non-ASCII digits in limit",
                        "list",
                        q("limit", "\u0665"),
                        "strconv.ParseInt: parsing \"\u0665\": invalid syntax"),
                arguments(
                        "limit beyond int64",
                        "list",
                        q("limit", "9223372036854775808"),
                        "strconv.ParseInt: parsing \"9223372036854775808\": value out of range"),
                arguments(
                        "timeoutSeconds reported before limit",
                        "list",
                        q("limit", "x", "timeoutSeconds", "1.5", "watch", "true"),
                        "strconv.ParseInt: parsing \"1.5\": invalid syntax"),
                arguments(
                        "malformed number before invalid combination",
                        "list",
                        q("resourceVersionMatch", "Bogus", "limit", "ten"),
                        "strconv.ParseInt: parsing \"ten\": invalid syntax"),
                arguments(
                        "list: version not a number",
                        "list",
                        q("resourceVersion", "abc"),
                        "invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax"),
                arguments(
                        "list: negative version",
                        "list",
                        q("resourceVersion", "-1", "limit", "5"),
                        "invalid resource version: resourceVersion: Invalid value: \"-1\": strconv.ParseUint: parsing \"-1\": invalid syntax"),
                arguments(
                        "list: signed version",
                        "list",
                        q("resourceVersionMatch", "Exact", "resourceVersion", "+5"),
                        "invalid resource version: resourceVersion: Invalid value: \"+5\": strconv.ParseUint: parsing \"+5\": invalid syntax"),
                arguments(
                        "list: version beyond uint64",
                        "list",
                        q("resourceVersion", "18446744073709551616"),
                        "invalid resource version: resourceVersion: Invalid value: \"18446744073709551616\": "
                                + "strconv.ParseUint: parsing \"18446744073709551616\": value out of range"),
                arguments(
                        "list: other version with continue",
                        "list",
                        q("limit", "10", "continue", TOKEN, "resourceVersion", "5"),
                        "specifying resource version is not allowed when using continue"),
                arguments(
                        "list: continue token read before the version",
                        "list",
                        q("continue", "!!", "resourceVersion", "5"),
                        "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"),
                arguments(
                        "get: version not a number",
                        "get",
                        q("resourceVersion", "1e3"),
                        "invalid resource version: resourceVersion: Invalid value: \"1e3\": strconv.ParseUint: parsing \"1e3\": invalid syntax"),
                arguments(
                        "watch: version not a number",
                        "list",
                        q("watch", "true", "resourceVersion", "x"),
                        "invalid resource version: resourceVersion: Invalid value: \"x\": strconv.ParseUint: parsing \"x\": invalid syntax"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void rejectsMalformedParameterAsBadRequest(
            String name, String verb, Map<String, List<String>> query, String message) {
        ApiStatus s = failure(verb, query);
        assertEquals(400, s.code());
        assertEquals("BadRequest", s.reason());
        assertEquals(message, s.message());
    }

    @Test
    void rejectsUnknownVerb() {
        assertThrows(IllegalArgumentException.class, () -> ReadOptions.parse("create", q(), GATES));
    }
}
