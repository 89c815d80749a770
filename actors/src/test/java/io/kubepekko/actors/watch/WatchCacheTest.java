package io.kubepekko.actors.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.CacheRead;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.Retention;
import io.kubepekko.api.watch.Selection;
import io.kubepekko.api.watch.Snapshot;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.api.watch.WatchFilter;
import io.kubepekko.api.watch.WatchStart;
import io.kubepekko.testsupport.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.LoggingTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.SinkQueueWithCancel;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link WatchCache}: warm start from objects newer than the stream's start, catching up in order,
 * reads and watches that wait for the version they need, bookmarks, slow watchers, re-subscription
 * and rebuilding on a new epoch.
 */
class WatchCacheTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final Materializer materializer = Materializer.matFromSystem(testKit.system());
    private static final ResourceType CONFIGMAPS =
            Registry.builtin().find("", "v1", "configmaps").orElseThrow();
    private static final WatchFilter ALL = new WatchFilter(null, Selection.everything());

    @AfterAll
    static void stop() {
        testKit.shutdownTestKit();
    }

    private static byte[] cm(String name, long rv) {
        return cm(name, rv, "a");
    }

    private static byte[] cm(String name, long rv, String app) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                        + name
                        + "\",\"namespace\":\"default\",\"resourceVersion\":\""
                        + rv
                        + "\",\"labels\":{\"app\":\""
                        + app
                        + "\"}}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static PublishedEvent event(WatchEvent.Type type, String name, long rv) {
        return new PublishedEvent(rv, "default", name, type, cm(name, rv), null);
    }

    /** Sources backed by probes: the test plays Revisions and decides what each load returns. */
    private record Fake(
            TestProbe<RevisionsProtocol.Command> probe,
            List<CompletableFuture<WatchCache.Contents>> loads)
            implements WatchCache.Sources {
        Fake(TestProbe<RevisionsProtocol.Command> probe, WatchCache.Contents... contents) {
            this(probe, new ArrayList<>());
            for (WatchCache.Contents c : contents) {
                loads.add(CompletableFuture.completedFuture(c));
            }
        }

        @Override
        public RecipientRef<RevisionsProtocol.Command> revisions() {
            return probe.ref();
        }

        @Override
        public synchronized CompletionStage<WatchCache.Contents> load() {
            return loads.size() > 1 ? loads.remove(0) : loads.get(0);
        }
    }

    private record Started(
            ActorRef<WatchCache.Command> cache,
            ActorRef<RevisionsProtocol.Published> stream,
            TestProbe<RevisionsProtocol.Command> revisions,
            AtomicBoolean ready) {}

    private static Started start(
            WatchCache.Settings settings, Clock clock, WatchCache.Contents... contents) {
        TestProbe<RevisionsProtocol.Command> revisions = testKit.createTestProbe();
        AtomicBoolean ready = new AtomicBoolean();
        ActorRef<WatchCache.Command> cache =
                testKit.spawn(
                        WatchCache.create(
                                CONFIGMAPS, new Fake(revisions, contents), settings, clock, ready));
        ActorRef<RevisionsProtocol.Published> stream = subscribed(revisions);
        return new Started(cache, stream, revisions, ready);
    }

    private static ActorRef<RevisionsProtocol.Published> subscribed(
            TestProbe<RevisionsProtocol.Command> revisions) {
        return assertInstanceOf(RevisionsProtocol.Subscribe.class, revisions.receiveMessage())
                .subscriber();
    }

    private static WatchCache.Settings settings() {
        return WatchCache.Settings.fromConfig(
                ConfigFactory.defaultReference(),
                Duration.ofMinutes(5),
                Duration.ofMinutes(5),
                Duration.ofMinutes(5),
                true);
    }

    private static WatchCache.Contents contents(long readVersion, byte[]... objects) {
        return new WatchCache.Contents(List.of(objects), readVersion);
    }

    private static WatchCache.ReadReply read(
            ActorRef<WatchCache.Command> cache, CacheRead read, Duration wait) {
        TestProbe<WatchCache.ReadReply> reader = testKit.createTestProbe();
        cache.tell(new WatchCache.Read(read, wait, reader.ref()));
        return reader.receiveMessage(Duration.ofSeconds(10));
    }

    private static List<String> names(WatchCache.ReadReply reply) {
        Snapshot s = assertInstanceOf(WatchCache.Snapshotted.class, reply).snapshot();
        return s.list(null, Selection.everything(), 0, null).items().stream()
                .map(
                        b ->
                                new String(b, StandardCharsets.UTF_8)
                                        .replaceAll(".*\"name\":\"([^\"]+)\".*", "$1"))
                .toList();
    }

    private static Source<StreamEvent, ?> watch(
            ActorRef<WatchCache.Command> cache,
            WatchStart start,
            boolean bookmarks,
            boolean initialEnd) {
        TestProbe<WatchCache.WatchReply> watcher = testKit.createTestProbe();
        cache.tell(
                new WatchCache.Watch(
                        start, ALL, bookmarks, initialEnd, Duration.ofSeconds(5), watcher.ref()));
        return assertInstanceOf(
                        WatchCache.Watching.class, watcher.receiveMessage(Duration.ofSeconds(10)))
                .events();
    }

    private static String describe(StreamEvent e) {
        if (e instanceof Delivery d) {
            return d.type() + " " + d.object().key().name() + "@" + d.resourceVersion();
        }
        if (e instanceof StreamEvent.Bookmark b) {
            return "BOOKMARK@" + b.resourceVersion() + (b.initialEventsEnd() ? " end" : "");
        }
        return "ERROR " + ((StreamEvent.Failure) e).status().code();
    }

    /** A running watch the test pulls events from. */
    private record Watched(SinkQueueWithCancel<StreamEvent> queue) {
        Optional<StreamEvent> pull(Duration within) {
            try {
                return queue.pull()
                        .toCompletableFuture()
                        .get(within.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new AssertionError("no event within " + within, e);
            }
        }

        StreamEvent next() {
            return pull(Duration.ofSeconds(10))
                    .orElseThrow(() -> new AssertionError("the stream ended"));
        }

        void expectComplete() {
            assertEquals(Optional.empty(), pull(Duration.ofSeconds(10)));
        }

        /**
         * Nothing arrives within {@code d} (the pending pull is then abandoned with the stream).
         */
        void expectNothingFor(Duration d) {
            CompletableFuture<Optional<StreamEvent>> f = queue.pull().toCompletableFuture();
            try {
                Optional<StreamEvent> got = f.get(d.toMillis(), TimeUnit.MILLISECONDS);
                throw new AssertionError("unexpected " + got.map(WatchCacheTest::describe));
            } catch (TimeoutException expected) {
                queue.cancel();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }

        void cancel() {
            queue.cancel();
        }
    }

    private static void assertNothingWithin(
            CompletableFuture<Optional<StreamEvent>> pending, Duration d) {
        try {
            Optional<StreamEvent> got = pending.get(d.toMillis(), TimeUnit.MILLISECONDS);
            throw new AssertionError("unexpected " + got.map(WatchCacheTest::describe));
        } catch (TimeoutException expected) {
            // still pending, as it should be
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Watched run(Source<StreamEvent, ?> events) {
        return new Watched(events.runWith(Sink.queue(), materializer));
    }

    private static List<String> next(Watched w, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(describe(w.next()));
        }
        return out;
    }

    /**
     * The storage quota counts the objects the caches hold: after a load, after each change, after
     * a restart.
     */
    @Test
    void theCacheReportsTheBytesOfItsObjectsToTheStorageQuota() {
        StorageQuota quota = StorageQuota.of(1_000_000);
        WatchCache.Contents held = contents(11, cm("a", 11), cm("b", 5));
        TestProbe<RevisionsProtocol.Command> revisions = testKit.createTestProbe();
        ActorRef<WatchCache.Command> cache =
                testKit.spawn(
                        WatchCache.create(
                                CONFIGMAPS,
                                new Fake(revisions, held),
                                settings(),
                                Clock.systemUTC(),
                                new AtomicBoolean(),
                                quota));
        ActorRef<RevisionsProtocol.Published> stream = subscribed(revisions);
        stream.tell(new RevisionsProtocol.Published("e1", 10, List.of()));
        long loaded = cm("a", 11).length + cm("b", 5).length;
        testKit.createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(10),
                        () -> {
                            assertEquals(loaded, quota.used());
                            return null;
                        });

        stream.tell(
                new RevisionsProtocol.Published(
                        "e1", 11, List.of(event(WatchEvent.Type.MODIFIED, "a", 11))));
        stream.tell(
                new RevisionsProtocol.Published(
                        "e1",
                        11,
                        13,
                        List.of(
                                new PublishedEvent(
                                        12,
                                        "default",
                                        "c",
                                        WatchEvent.Type.ADDED,
                                        cm("c", 12, "a-longer-label"),
                                        null),
                                new PublishedEvent(
                                        13,
                                        "default",
                                        "b",
                                        WatchEvent.Type.DELETED,
                                        cm("b", 13),
                                        cm("b", 5)))));
        long changed = cm("a", 11).length + cm("c", 12, "a-longer-label").length;
        testKit.createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(10),
                        () -> {
                            assertEquals(changed, quota.used());
                            return null;
                        });

        // a cache started again (on another node, or after a restart) counts the same objects once
        testKit.stop(cache);
        TestProbe<RevisionsProtocol.Command> again = testKit.createTestProbe();
        testKit.spawn(
                WatchCache.create(
                        CONFIGMAPS,
                        new Fake(again, contents(13, cm("a", 11), cm("c", 12, "a-longer-label"))),
                        settings(),
                        Clock.systemUTC(),
                        new AtomicBoolean(),
                        quota));
        subscribed(again).tell(new RevisionsProtocol.Published("e2", 13, List.of()));
        testKit.createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(10),
                        () -> {
                            assertEquals(changed, quota.used());
                            return null;
                        });
    }

    @Test
    void readsWaitUntilTheCacheHasCaughtUpWithTheVersionTheyNeed() {
        Started s = start(settings(), Clock.systemUTC(), contents(11, cm("a", 11)));
        // Released up to 10 when subscribed; "a" was changed at 11 before the collections were
        // read.
        s.stream().tell(new RevisionsProtocol.Published("e1", 10, List.of()));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 11, List.of(event(WatchEvent.Type.MODIFIED, "a", 11))));

        TestProbe<WatchCache.ReadReply> reader = testKit.createTestProbe();
        s.cache()
                .tell(
                        new WatchCache.Read(
                                new CacheRead(CacheRead.Target.LATEST, 12),
                                Duration.ofSeconds(10),
                                reader.ref()));
        reader.expectNoMessage(Duration.ofMillis(100));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 12, List.of(event(WatchEvent.Type.ADDED, "b", 12))));
        assertEquals(List.of("a", "b"), names(reader.receiveMessage()));
        assertEquals(
                12,
                ((WatchCache.Snapshotted)
                                read(
                                        s.cache(),
                                        new CacheRead(CacheRead.Target.LATEST, 0),
                                        Duration.ofSeconds(1)))
                        .snapshot()
                        .resourceVersion());
        assertTrue(s.ready().get());
    }

    @Test
    void aRemovalBeforeTheLoadIsNotServedAsIfTheObjectStillExisted() {
        // The collection deleted "gone" at 12 before it was read: nothing is left to show 12 but
        // the
        // collection's reported version, so the cache waits for the stream to pass 12.
        Started s = start(settings(), Clock.systemUTC(), contents(12, cm("a", 5)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 10, List.of()));
        TestProbe<WatchCache.ReadReply> reader = testKit.createTestProbe();
        s.cache()
                .tell(
                        new WatchCache.Read(
                                new CacheRead(CacheRead.Target.EXACT, 10),
                                Duration.ofSeconds(10),
                                reader.ref()));
        reader.expectNoMessage(Duration.ofMillis(100));
        assertFalse(s.ready().get());
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1",
                                12,
                                List.of(
                                        event(WatchEvent.Type.ADDED, "gone", 11),
                                        new PublishedEvent(
                                                12,
                                                "default",
                                                "gone",
                                                WatchEvent.Type.DELETED,
                                                cm("gone", 12),
                                                cm("gone", 11)))));
        WatchCache.ReadFailed before =
                assertInstanceOf(WatchCache.ReadFailed.class, reader.receiveMessage());
        assertEquals(
                410, before.status().code(), "history starts where the load is known to be exact");
        assertEquals(
                List.of("a"),
                names(
                        read(
                                s.cache(),
                                new CacheRead(CacheRead.Target.EXACT, 12),
                                Duration.ofSeconds(1))));
    }

    @Test
    void aReadAtAVersionTheCacheDoesNotReachAnswers504() {
        Started s = start(settings(), Clock.systemUTC(), contents(5, cm("a", 5)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 5, List.of()));
        WatchCache.ReadFailed failed =
                assertInstanceOf(
                        WatchCache.ReadFailed.class,
                        read(
                                s.cache(),
                                new CacheRead(CacheRead.Target.LATEST, 9),
                                Duration.ofMillis(300)));
        assertEquals(504, failed.status().code());
        assertEquals(
                "Timeout: Too large resource version: 9, current: 5", failed.status().message());
    }

    @Test
    void aLostBatchEndsEveryWatchWith410AndLoadsAgain() {
        Started s =
                start(
                        settings(),
                        Clock.systemUTC(),
                        contents(5, cm("a", 5)),
                        contents(9, cm("a", 5), cm("b", 6), cm("x", 8), cm("c", 9)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 5, List.of()));
        Watched w =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.AFTER, 5, false),
                                false,
                                false));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 5, 6, List.of(event(WatchEvent.Type.ADDED, "b", 6))));
        assertEquals(List.of("ADDED b@6"), next(w, 1));

        // The batch (6, 8] never arrived (a message between nodes was dropped): this one follows on
        // from 8.
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 8, 9, List.of(event(WatchEvent.Type.ADDED, "c", 9))));
        assertEquals(
                List.of("ERROR 410"),
                next(w, 1),
                "x@8 is missing: the watch must not go on past it");
        w.expectComplete();
        assertEquals(
                List.of("a", "b", "c", "x"),
                names(
                        read(
                                s.cache(),
                                new CacheRead(CacheRead.Target.LATEST, 9),
                                Duration.ofSeconds(5))),
                "rebuilt from the collections");
    }

    @Test
    void aNewEpochEndsEveryWatchWith410AndLoadsAgain() {
        Started s =
                start(
                        settings(),
                        Clock.systemUTC(),
                        contents(5, cm("a", 5)),
                        contents(1500, cm("a", 5), cm("z", 1500)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 5, List.of()));
        Watched w =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.AFTER, 5, false),
                                false,
                                false));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 6, List.of(event(WatchEvent.Type.ADDED, "b", 6))));
        assertEquals(List.of("ADDED b@6"), next(w, 1));

        s.stream().tell(new RevisionsProtocol.Published("e2", 2000, List.of()));
        assertEquals(List.of("ERROR 410"), next(w, 1));
        w.expectComplete();

        WatchCache.ReadReply after =
                read(
                        s.cache(),
                        new CacheRead(CacheRead.Target.LATEST, 2000),
                        Duration.ofSeconds(5));
        assertEquals(List.of("a", "z"), names(after), "rebuilt from the collections, not patched");
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e2", 2001, List.of(event(WatchEvent.Type.ADDED, "c", 2001))));
        assertEquals(
                List.of("a", "c", "z"),
                names(
                        read(
                                s.cache(),
                                new CacheRead(CacheRead.Target.LATEST, 2001),
                                Duration.ofSeconds(5))));
    }

    @Test
    void aWatchListSendsTheStateThenTheEndBookmarkThenLiveEvents() {
        Started s = start(settings(), Clock.systemUTC(), contents(7, cm("a", 3), cm("b", 7)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 7, List.of()));
        Watched w =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.LATEST, 7, true),
                                true,
                                true));
        assertEquals(List.of("ADDED a@3", "ADDED b@7", "BOOKMARK@7 end"), next(w, 3));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1",
                                9,
                                List.of(
                                        event(WatchEvent.Type.MODIFIED, "a", 8),
                                        new PublishedEvent(
                                                9,
                                                "default",
                                                "b",
                                                WatchEvent.Type.DELETED,
                                                cm("b", 9),
                                                cm("b", 7)))));
        assertEquals(List.of("MODIFIED a@8", "DELETED b@9"), next(w, 2));
        w.cancel();
    }

    @Test
    void aWatchFromAVersionReplaysTheRetainedEventsAfterIt() {
        Started s = start(settings(), Clock.systemUTC(), contents(2, cm("a", 2)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 2, List.of()));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1",
                                5,
                                List.of(
                                        event(WatchEvent.Type.ADDED, "b", 3),
                                        event(WatchEvent.Type.ADDED, "c", 4),
                                        event(WatchEvent.Type.MODIFIED, "a", 5))));
        read(s.cache(), new CacheRead(CacheRead.Target.LATEST, 5), Duration.ofSeconds(5));
        Watched w =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.AFTER, 3, false),
                                false,
                                false));
        assertEquals(List.of("ADDED c@4", "MODIFIED a@5"), next(w, 2));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 6, List.of(event(WatchEvent.Type.ADDED, "d", 6))));
        assertEquals(List.of("ADDED d@6"), next(w, 1));
        w.cancel();
    }

    @Test
    void aWatchFromBeforeTheWindowGetsOne410Event() {
        Started s =
                start(
                        settings().withRetention(new Retention(Duration.ofMinutes(5), 2)),
                        Clock.systemUTC(),
                        contents(2, cm("a", 2)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 2, List.of()));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1",
                                5,
                                List.of(
                                        event(WatchEvent.Type.ADDED, "b", 3),
                                        event(WatchEvent.Type.ADDED, "c", 4),
                                        event(WatchEvent.Type.ADDED, "d", 5))));
        read(s.cache(), new CacheRead(CacheRead.Target.LATEST, 5), Duration.ofSeconds(5));
        Watched w =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.AFTER, 2, false),
                                false,
                                false));
        StreamEvent.Failure f = assertInstanceOf(StreamEvent.Failure.class, w.next());
        assertEquals(410, f.status().code());
        assertEquals("Expired", f.status().reason().toString());
        w.expectComplete();
    }

    @Test
    void aWatcherThatCannotKeepUpIsCutOffWith410() {
        Started s =
                start(settings().withWatcherBuffer(2), Clock.systemUTC(), contents(1, cm("a", 1)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 1, List.of()));
        Source<StreamEvent, ?> events =
                watch(s.cache(), new WatchStart(WatchStart.Target.AFTER, 1, false), false, false);
        // Nobody reads the stream yet: its queue (plus the stream's own small buffers) overflows.
        List<PublishedEvent> many = new ArrayList<>();
        for (long rv = 2; rv <= 101; rv++) {
            many.add(event(WatchEvent.Type.ADDED, "x" + rv, rv));
        }
        s.stream().tell(new RevisionsProtocol.Published("e1", 101, many));
        read(s.cache(), new CacheRead(CacheRead.Target.LATEST, 101), Duration.ofSeconds(5));
        Watched w = run(events);
        StreamEvent last = w.next();
        int delivered = 0;
        while (last instanceof Delivery) {
            delivered++;
            last = w.next();
        }
        assertEquals(410, assertInstanceOf(StreamEvent.Failure.class, last).status().code());
        assertTrue(delivered < 100, "cut off, not buffered without limit: " + delivered);
        w.expectComplete();
    }

    @Test
    void quietWatchersThatAcceptBookmarksGetThemPeriodically() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T00:00:00Z"));
        Started s =
                start(
                        settings().withBookmarkInterval(Duration.ofSeconds(30)),
                        clock,
                        contents(4, cm("a", 4)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 4, List.of()));
        Watched withBookmarks =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.AFTER, 4, false),
                                true,
                                false));
        Watched without =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.AFTER, 4, false),
                                false,
                                false));
        // Progress without changes of this group-resource: the bookmark carries it.
        s.stream().tell(new RevisionsProtocol.Published("e1", 4, 9, List.of()));
        read(s.cache(), new CacheRead(CacheRead.Target.LATEST, 9), Duration.ofSeconds(5));
        clock.advance(Duration.ofSeconds(31));
        assertEquals(List.of("BOOKMARK@9"), next(withBookmarks, 1));
        without.expectNothingFor(Duration.ofMillis(600));
        withBookmarks.cancel();
    }

    @Test
    void aWatcherWithADeadlineGetsABookmarkTwoSecondsBeforeIt() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T00:00:00Z"));
        Started s = start(settings(), clock, contents(4, cm("a", 4)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 4, List.of()));
        TestProbe<WatchCache.WatchReply> replies = testKit.createTestProbe();
        s.cache()
                .tell(
                        new WatchCache.Watch(
                                new WatchStart(WatchStart.Target.AFTER, 4, false),
                                ALL,
                                true,
                                false,
                                Duration.ofSeconds(5),
                                Duration.ofSeconds(10),
                                replies.ref()));
        Watched w =
                run(
                        assertInstanceOf(
                                        WatchCache.Watching.class,
                                        replies.receiveMessage(Duration.ofSeconds(10)))
                                .events());
        s.stream().tell(new RevisionsProtocol.Published("e1", 4, 9, List.of()));
        read(s.cache(), new CacheRead(CacheRead.Target.LATEST, 9), Duration.ofSeconds(5));
        clock.advance(Duration.ofSeconds(7));
        CompletableFuture<Optional<StreamEvent>> first = w.queue().pull().toCompletableFuture();
        assertNothingWithin(first, Duration.ofMillis(600));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(
                "BOOKMARK@9",
                describe(first.get(10, TimeUnit.SECONDS).orElseThrow()),
                "2 s before the 10 s deadline, long before the minute");
        clock.advance(Duration.ofMillis(1500));
        w.expectNothingFor(Duration.ofMillis(600));
        w.cancel();
    }

    @Test
    void withoutProgressBookmarksABookmarkCarriesTheLastChange() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T00:00:00Z"));
        Started s =
                start(
                        settings()
                                .withBookmarkInterval(Duration.ofSeconds(30))
                                .withProgressBookmarks(false),
                        clock,
                        contents(4, cm("a", 4)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 4, List.of()));
        Watched w =
                run(
                        watch(
                                s.cache(),
                                new WatchStart(WatchStart.Target.AFTER, 4, false),
                                true,
                                false));
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 6, List.of(event(WatchEvent.Type.ADDED, "b", 5))));
        assertEquals(List.of("ADDED b@5"), next(w, 1));
        clock.advance(Duration.ofSeconds(31));
        assertEquals(List.of("BOOKMARK@5"), next(w, 1));
        w.cancel();
    }

    @Test
    void aCacheThatHearsNothingSubscribesAgain() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T00:00:00Z"));
        Started s = start(settings(), clock, contents(4, cm("a", 4)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 4, List.of()));
        read(
                s.cache(),
                new CacheRead(CacheRead.Target.LATEST, 4),
                Duration.ofSeconds(5)); // it heard the batch
        clock.advance(Duration.ofSeconds(6));
        assertInstanceOf(
                RevisionsProtocol.Subscribe.class,
                s.revisions().receiveMessage(Duration.ofSeconds(5)));
    }

    // ---- a storage outage: loads that fail, a stream that does not reach what was loaded ----

    /**
     * Sources whose loads answer the given outcomes in turn (the last one again and again),
     * counted.
     */
    private record Flaky(
            TestProbe<RevisionsProtocol.Command> probe,
            Deque<CompletableFuture<WatchCache.Contents>> outcomes,
            AtomicInteger loads)
            implements WatchCache.Sources {
        @Override
        public RecipientRef<RevisionsProtocol.Command> revisions() {
            return probe.ref();
        }

        @Override
        public synchronized CompletionStage<WatchCache.Contents> load() {
            loads.incrementAndGet();
            return outcomes.size() > 1 ? outcomes.poll() : outcomes.peek();
        }
    }

    private static void awaitLoads(AtomicInteger loads, int n) {
        testKit.createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(10),
                        () -> {
                            assertEquals(n, loads.get());
                            return null;
                        });
    }

    /**
     * Returns once the cache has handled what it was sent before and one tick after (a read it
     * cannot serve at once answers at the next tick): a failed load's answer, queued as the load
     * started, is handled.
     */
    private static void settled(ActorRef<WatchCache.Command> cache) {
        read(cache, new CacheRead(CacheRead.Target.LATEST, 0), Duration.ZERO);
    }

    @Test
    void aFailedLoadIsTriedAgainWithBackOffUntilItSucceedsAndWarnedAboutOnce() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T00:00:00Z"));
        CompletableFuture<WatchCache.Contents> timedOut =
                CompletableFuture.failedFuture(
                        new TimeoutException(
                                "Ask timed out on [Collection|configmaps/default] after [30000 ms]"));
        Deque<CompletableFuture<WatchCache.Contents>> outcomes =
                new ArrayDeque<>(
                        List.of(
                                timedOut,
                                timedOut,
                                timedOut,
                                CompletableFuture.completedFuture(contents(5, cm("a", 5)))));
        AtomicInteger loads = new AtomicInteger();
        TestProbe<RevisionsProtocol.Command> revisions = testKit.createTestProbe();
        AtomicBoolean ready = new AtomicBoolean();
        ActorRef<WatchCache.Command> cache =
                testKit.spawn(
                        WatchCache.create(
                                CONFIGMAPS,
                                new Flaky(revisions, outcomes, loads),
                                settings(),
                                clock,
                                ready));

        LoggingTestKit.warn("cannot load its collections")
                .withMessageRegex("Ask timed out")
                .expect(
                        testKit.system(),
                        () -> {
                            subscribed(revisions)
                                    .tell(new RevisionsProtocol.Published("e1", 5, List.of()));
                            awaitLoads(loads, 1);
                            // No batch comes from the stream (its sequencer may be as stuck as the
                            // storage): the cache
                            // tries again on its own, after 1 s, 2 s, 4 s.
                            settled(cache);
                            clock.advance(Duration.ofSeconds(1));
                            awaitLoads(loads, 2);
                            settled(cache);
                            clock.advance(Duration.ofSeconds(1));
                            settled(cache);
                            assertEquals(2, loads.get(), "the second wait is longer");
                            clock.advance(Duration.ofSeconds(1));
                            awaitLoads(loads, 3);
                            settled(cache);
                            clock.advance(Duration.ofSeconds(4));
                            awaitLoads(loads, 4);
                            return null;
                        });
        assertEquals(
                List.of("a"),
                names(
                        read(
                                cache,
                                new CacheRead(CacheRead.Target.LATEST, 0),
                                Duration.ofSeconds(5))));
        assertTrue(ready.get());
    }

    @Test
    void aCacheThatCannotCatchUpSaysWhyAndSubscribesAgainAlthoughItsStreamHeartbeats() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-22T00:00:00Z"));
        // Its collections hold 2027, but the stream stays at 2004: its sequencer never resolves
        // 2005.
        Started s = start(settings(), clock, contents(2027, cm("a", 2027)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 2004, List.of()));

        LoggingTestKit.warn("resourceVersion 2027")
                .withMessageRegex("is at 2004")
                .expect(
                        testKit.system(),
                        () -> {
                            for (int i = 0; i < 25; i++) {
                                clock.advance(Duration.ofSeconds(2));
                                s.stream()
                                        .tell(
                                                new RevisionsProtocol.Published(
                                                        "e1", 2004, List.of())); // a heartbeat
                            }
                            assertInstanceOf(
                                    RevisionsProtocol.Subscribe.class,
                                    s.revisions().receiveMessage(Duration.ofSeconds(10)));
                            return null;
                        });
        assertFalse(s.ready().get());

        // Whoever sequences the group-resource now answers: a new epoch, and the cache serves
        // again.
        s.stream().tell(new RevisionsProtocol.Published("e2", 2030, List.of()));
        assertEquals(
                List.of("a"),
                names(
                        read(
                                s.cache(),
                                new CacheRead(CacheRead.Target.LATEST, 0),
                                Duration.ofSeconds(5))));
        assertTrue(s.ready().get());
    }

    @Test
    void aStoppedWatchIsForgotten() throws Exception {
        Started s = start(settings(), Clock.systemUTC(), contents(4, cm("a", 4)));
        s.stream().tell(new RevisionsProtocol.Published("e1", 4, List.of()));
        Source<StreamEvent, ?> events =
                watch(s.cache(), new WatchStart(WatchStart.Target.AFTER, 4, false), false, false);
        events.take(1).runWith(Sink.ignore(), materializer);
        s.stream()
                .tell(
                        new RevisionsProtocol.Published(
                                "e1", 5, List.of(event(WatchEvent.Type.ADDED, "b", 5))));
        // Many more events than the buffer holds: a forgotten watcher no longer queues anything.
        for (long rv = 6; rv < 3000; rv++) {
            s.stream()
                    .tell(
                            new RevisionsProtocol.Published(
                                    "e1", rv, List.of(event(WatchEvent.Type.ADDED, "x" + rv, rv))));
        }
        assertEquals(
                2999,
                ((WatchCache.Snapshotted)
                                read(
                                        s.cache(),
                                        new CacheRead(CacheRead.Target.LATEST, 2999),
                                        Duration.ofSeconds(10)))
                        .snapshot()
                        .resourceVersion());
    }
}
