package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.WatchEvent.Type;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The read decisions of the watch cache, without an actor: {@link CacheRead} (which snapshot a list
 * or get is served from), {@link WatchStart} (initial events, replay, live tail) and {@link
 * ListChunk} (a page, its continue token and remaining count).
 */
class ReadResolutionTest {

    private static final ResourceType PODS =
            Registry.builtin().find(GroupResource.parse("pods")).orElseThrow();
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final Duration TTL = Duration.ofMinutes(5);

    private static byte[] pod(String ns, String name, long rv, String app) {
        ObjectNode o = Json.MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta =
                o.putObject("metadata")
                        .put("name", name)
                        .put("namespace", ns)
                        .put("resourceVersion", Long.toString(rv));
        meta.putObject("labels").put("app", app);
        return Json.bytes(o);
    }

    private static WatchEvent added(long rv, String ns, String name, String app) {
        return new WatchEvent(
                Type.ADDED, rv, new ObjectKey(ns, name), pod(ns, name, rv, app), null);
    }

    private static WatchEvent modified(long rv, String ns, String name, String app) {
        return new WatchEvent(
                Type.MODIFIED, rv, new ObjectKey(ns, name), pod(ns, name, rv, app), null);
    }

    /**
     * Known from 1; a/p1@10 (web), a/p2@11 (db), b/p3@12 (web), a/p1@13 (db), applied a minute
     * apart from T0, with a window of {@code maxEvents}.
     */
    private static CacheState state(int maxEvents) {
        CacheState s = CacheState.empty(PODS, new Retention(Duration.ofHours(1), maxEvents), 1);
        List<WatchEvent> events =
                List.of(
                        added(10, "a", "p1", "web"),
                        added(11, "a", "p2", "db"),
                        added(12, "b", "p3", "web"),
                        modified(13, "a", "p1", "db"));
        Instant at = T0;
        for (WatchEvent e : events) {
            s = s.apply(e, at);
            at = at.plus(Duration.ofMinutes(1));
        }
        return s;
    }

    private static List<String> keys(Iterable<? extends StreamEvent> events) {
        List<String> out = new ArrayList<>();
        for (StreamEvent e : events) {
            Delivery d = (Delivery) e;
            out.add(d.type() + " " + d.object().key() + "@" + d.resourceVersion());
        }
        return out;
    }

    private static ReadOptions list(Map<String, List<String>> query) {
        return ReadOptions.parse("list", query, FeatureGates.defaults());
    }

    @Nested
    class CacheReads {

        static Stream<Arguments> modes() {
            ContinueToken token = new ContinueToken(12, "a/p1\0");
            return Stream.of(
                    arguments(
                            "mostRecentWaitsForTheLatestCommitted",
                            ReadOptions.MOST_RECENT,
                            new CacheRead(CacheRead.Target.LATEST, 42)),
                    arguments(
                            "anyTakesWhatever",
                            ReadOptions.ANY,
                            new CacheRead(CacheRead.Target.LATEST, 0)),
                    arguments(
                            "notOlderThan",
                            new ReadOptions.Mode.NotOlderThan(7),
                            new CacheRead(CacheRead.Target.LATEST, 7)),
                    arguments(
                            "exact",
                            new ReadOptions.Mode.Exact(7),
                            new CacheRead(CacheRead.Target.EXACT, 7)),
                    arguments(
                            "continueAtTheTokensSnapshot",
                            new ReadOptions.Mode.Continue(token),
                            new CacheRead(CacheRead.Target.CONTINUE, 12, "a/p1\0")),
                    arguments(
                            "aLatestTokenIsAConsistentRead",
                            new ReadOptions.Mode.Continue(new ContinueToken(-1, "a/p1\0")),
                            new CacheRead(CacheRead.Target.LATEST, 42)));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("modes")
        void aModeAsksForAVersion(String name, ReadOptions.Mode mode, CacheRead expected) {
            assertEquals(expected, CacheRead.of(mode, 42));
        }

        @Test
        void aVersionNotReachedWaitsAndTimesOutAs504() {
            CacheState s = state(10);
            CacheRead read = new CacheRead(CacheRead.Target.LATEST, 20);
            assertInstanceOf(CacheRead.Outcome.Wait.class, read.resolve(s, T0, TTL));
            ApiStatus timeout = read.timedOut(s);
            assertEquals(504, timeout.code());
            assertEquals("Timeout: Too large resource version: 20, current: 13", timeout.message());
        }

        @Test
        void aLoadingCacheServesNothing() {
            CacheState loading =
                    CacheState.warmStart(
                            PODS,
                            new Retention(Duration.ofMinutes(5), 10_000),
                            List.of(pod("a", "x", 9, "web")),
                            5);
            assertFalse(loading.ready());
            assertInstanceOf(
                    CacheRead.Outcome.Wait.class,
                    new CacheRead(CacheRead.Target.LATEST, 0).resolve(loading, T0, TTL));
        }

        @Test
        void anExactReadServesTheStateAtThatVersion() {
            CacheState s = state(10);
            Snapshot at11 =
                    assertInstanceOf(
                                    CacheRead.Outcome.Ready.class,
                                    new CacheRead(CacheRead.Target.EXACT, 11).resolve(s, T0, TTL))
                            .snapshot();
            assertEquals(11, at11.resourceVersion());
            assertEquals(2, at11.size());
        }

        @Test
        void anExactReadOlderThanTheWindowIsExpired() {
            CacheState s = state(2);
            CacheRead.Outcome.Failed failed =
                    assertInstanceOf(
                            CacheRead.Outcome.Failed.class,
                            new CacheRead(CacheRead.Target.EXACT, 10).resolve(s, T0, TTL));
            assertEquals(410, failed.status().code());
            assertEquals(
                    "The resourceVersion for the provided list is too old.",
                    failed.status().message());
        }

        @Test
        void aContinueSnapshotExpiresOnceSupersededLongerThanTheTtl() {
            CacheState s = state(10);
            CacheRead read = new CacheRead(CacheRead.Target.CONTINUE, 11, "a/p1\0");
            // Version 11 was superseded at T0+2m (version 12).
            assertInstanceOf(
                    CacheRead.Outcome.Ready.class,
                    read.resolve(s, T0.plus(Duration.ofMinutes(6)), TTL));
            CacheRead.Outcome.Failed failed =
                    assertInstanceOf(
                            CacheRead.Outcome.Failed.class,
                            read.resolve(s, T0.plus(Duration.ofMinutes(7)), TTL));
            assertEquals(410, failed.status().code());
            assertTrue(
                    failed.status()
                            .message()
                            .startsWith(
                                    "The provided continue parameter is too old to display a consistent list result."));
            ContinueToken offered = ContinueToken.decode(failed.status().listContinue());
            assertTrue(offered.latest(), "the offered token reads the latest version");
            assertEquals(
                    "a/p1\0", offered.startKey(), "from where the expired one would have gone on");
        }

        @Test
        void theLatestVersionNeverExpires() {
            CacheState s = state(10);
            assertInstanceOf(
                    CacheRead.Outcome.Ready.class,
                    new CacheRead(CacheRead.Target.CONTINUE, 13, "a/p1\0")
                            .resolve(s, T0.plus(Duration.ofDays(1)), TTL));
        }
    }

    @Nested
    class WatchStarts {

        @Test
        void optionsChooseTheStart() {
            assertEquals(
                    new WatchStart(WatchStart.Target.LATEST, 42, true),
                    WatchStart.of(
                            ReadOptions.parse("watch", Map.of(), FeatureGates.defaults()), 42));
            assertEquals(
                    new WatchStart(WatchStart.Target.LATEST, 0, true),
                    WatchStart.of(
                            ReadOptions.parse(
                                    "watch",
                                    Map.of("resourceVersion", List.of("0")),
                                    FeatureGates.defaults()),
                            42));
            assertEquals(
                    new WatchStart(WatchStart.Target.AFTER, 12, false),
                    WatchStart.of(
                            ReadOptions.parse(
                                    "watch",
                                    Map.of("resourceVersion", List.of("12")),
                                    FeatureGates.defaults()),
                            42));
            assertEquals(
                    new WatchStart(WatchStart.Target.LATEST, 12, true),
                    WatchStart.of(
                            ReadOptions.parse(
                                    "watch",
                                    Map.of(
                                            "resourceVersion",
                                            List.of("12"),
                                            "sendInitialEvents",
                                            List.of("true"),
                                            "resourceVersionMatch",
                                            List.of("NotOlderThan")),
                                    FeatureGates.defaults()),
                            42));
        }

        @Test
        void fromTheLatestStateTheInitialEventsAreTheSelectedObjects() {
            WatchFilter webInA = new WatchFilter("a", Selection.parse(PODS, "app=db", null));
            WatchStart.Outcome.Ready ready =
                    assertInstanceOf(
                            WatchStart.Outcome.Ready.class,
                            new WatchStart(WatchStart.Target.LATEST, 13, true)
                                    .resolve(state(10), webInA));
            assertEquals(List.of("ADDED a/p1@13", "ADDED a/p2@11"), keys(ready.initial()));
            assertEquals(13, ready.startVersion());
            assertEquals(List.of(), ready.replay());
            assertEquals(13, ready.liveAfter());
        }

        @Test
        void withoutInitialEventsOnlyLiveOnesFollow() {
            WatchStart.Outcome.Ready ready =
                    assertInstanceOf(
                            WatchStart.Outcome.Ready.class,
                            new WatchStart(WatchStart.Target.LATEST, 0, false)
                                    .resolve(
                                            state(10),
                                            new WatchFilter(null, Selection.everything())));
            assertFalse(ready.initial().iterator().hasNext());
        }

        @Test
        void afterAVersionTheRetainedEventsReplayAsTheSelectionSeesThem() {
            WatchFilter web = new WatchFilter(null, Selection.parse(PODS, "app=web", null));
            WatchStart.Outcome.Ready ready =
                    assertInstanceOf(
                            WatchStart.Outcome.Ready.class,
                            new WatchStart(WatchStart.Target.AFTER, 10, false)
                                    .resolve(state(10), web));
            assertEquals(
                    List.of("ADDED b/p3@12", "DELETED a/p1@13"),
                    keys(ready.replay()),
                    "p1 stopped matching at 13");
            assertEquals(13, ready.liveAfter());
        }

        @Test
        void aWatchFromAVersionNotReachedWaitsForLiveEventsAfterIt() {
            WatchStart.Outcome.Ready ready =
                    assertInstanceOf(
                            WatchStart.Outcome.Ready.class,
                            new WatchStart(WatchStart.Target.AFTER, 20, false)
                                    .resolve(
                                            state(10),
                                            new WatchFilter(null, Selection.everything())));
            assertEquals(List.of(), ready.replay());
            assertEquals(20, ready.liveAfter(), "live events up to 20 are not for it");
        }

        @Test
        void aWatchFromBeforeTheWindowIsTooOld() {
            WatchStart.Outcome.TooOld tooOld =
                    assertInstanceOf(
                            WatchStart.Outcome.TooOld.class,
                            new WatchStart(WatchStart.Target.AFTER, 10, false)
                                    .resolve(
                                            state(2),
                                            new WatchFilter(null, Selection.everything())));
            assertEquals(410, tooOld.status().code());
            assertEquals("too old resource version: 10 (11)", tooOld.status().message());
            assertEquals(11, tooOld.oldestRetained());
        }

        @Test
        void aWatchListAtAVersionNotReachedWaitsThenFailsWith504() {
            WatchStart start = new WatchStart(WatchStart.Target.LATEST, 20, true);
            CacheState s = state(10);
            assertInstanceOf(
                    WatchStart.Outcome.Wait.class,
                    start.resolve(s, new WatchFilter(null, Selection.everything())));
            assertEquals(504, start.timedOut(s).code());
        }
    }

    @Nested
    class ListChunks {

        private Snapshot latest() {
            return state(10).snapshotLatest();
        }

        @Test
        void anUnpagedListIsWholeWithoutAToken() {
            ListChunk chunk = ListChunk.of(latest(), null, Selection.everything(), list(Map.of()));
            assertEquals(3, chunk.items().size());
            assertEquals(13, chunk.resourceVersion());
            assertNull(chunk.continueToken());
            assertNull(chunk.remainingItemCount());
        }

        @Test
        void aPageCarriesKubesTokenAndTheRemainingCount() {
            ListChunk first =
                    ListChunk.of(
                            latest(),
                            null,
                            Selection.everything(),
                            list(Map.of("limit", List.of("2"))));
            assertEquals(2, first.items().size());
            assertEquals(1L, first.remainingItemCount());
            ContinueToken token = ContinueToken.decode(first.continueToken());
            assertEquals(13, token.resourceVersion());
            assertEquals(
                    "a/p2\0",
                    token.startKey(),
                    "the last key with NUL appended, as kube-apiserver writes it");

            ListChunk second =
                    ListChunk.of(
                            latest(),
                            null,
                            Selection.everything(),
                            list(
                                    Map.of(
                                            "limit",
                                            List.of("2"),
                                            "continue",
                                            List.of(first.continueToken()))));
            assertEquals(1, second.items().size());
            assertNull(second.continueToken());
            assertNull(second.remainingItemCount());
        }

        @Test
        void aSelectorHidesTheRemainingCount() {
            Map<String, List<String>> paged = Map.of("limit", List.of("1"));
            assertNull(
                    ListChunk.of(latest(), null, Selection.parse(PODS, "app=db", null), list(paged))
                            .remainingItemCount());
        }

        @Test
        void resourceVersionZeroIgnoresTheLimit() {
            ListChunk chunk =
                    ListChunk.of(
                            latest(),
                            null,
                            Selection.everything(),
                            list(Map.of("limit", List.of("1"), "resourceVersion", List.of("0"))));
            assertEquals(3, chunk.items().size());
            assertNull(chunk.continueToken());
        }
    }
}
