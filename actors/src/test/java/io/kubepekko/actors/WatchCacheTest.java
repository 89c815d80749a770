package io.kubepekko.actors;

import io.kubepekko.api.registry.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.Retention;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.RecipientRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WatchCache}: warm start from objects newer than the stream's start, catching up in order,
 * parking reads until the cache reflects the version they need, and rebuilding on a new epoch.
 */
class WatchCacheTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final ResourceType CONFIGMAPS = Registry.builtin().find("", "v1", "configmaps").orElseThrow();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-22T00:00:00Z"), ZoneOffset.UTC);

    @AfterAll
    static void stop() {
        testKit.shutdownTestKit();
    }

    private static byte[] cm(String name, long rv) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"default\",\"resourceVersion\":\"" + rv + "\"}}").getBytes(StandardCharsets.UTF_8);
    }

    private static PublishedEvent event(String type, String name, long rv) {
        return new PublishedEvent(rv, "default", name, type, cm(name, rv), null);
    }

    /** Sources backed by probes: the test plays Revisions and decides what a load returns. */
    private static final class Fake implements WatchCache.Sources {
        private final TestProbe<Revisions.Command> probe;
        private final CompletableFuture<WatchCache.Loaded> loaded;

        Fake(TestProbe<Revisions.Command> probe, CompletableFuture<WatchCache.Loaded> loaded) {
            this.probe = probe;
            this.loaded = loaded;
        }

        @Override
        public RecipientRef<Revisions.Command> revisions() {
            return probe.ref();
        }

        @Override
        public CompletionStage<WatchCache.Loaded> load() {
            return loaded;
        }
    }

    private static ActorRef<Revisions.Published> subscribed(TestProbe<Revisions.Command> revisions) {
        return assertInstanceOf(Revisions.Subscribe.class, revisions.receiveMessage()).subscriber();
    }

    private static List<String> names(WatchCache.ReadReply reply) {
        return assertInstanceOf(WatchCache.Listed.class, reply).items().stream()
                .map(b -> new String(b, StandardCharsets.UTF_8).replaceAll(".*\"name\":\"([^\"]+)\".*", "$1")).toList();
    }

    @Test
    void readsWaitUntilTheCacheHasCaughtUpWithTheVersionTheyNeed() {
        TestProbe<Revisions.Command> revisions = testKit.createTestProbe();
        CompletableFuture<WatchCache.Loaded> load = new CompletableFuture<>();
        ActorRef<WatchCache.Command> cache = testKit.spawn(WatchCache.create(CONFIGMAPS, new Fake(revisions, load),
                Retention.DEFAULT, CLOCK));
        ActorRef<Revisions.Published> stream = subscribed(revisions);
        TestProbe<WatchCache.ReadReply> reader = testKit.createTestProbe();

        // Released up to 10 when the objects were read; "a" was already changed at 12 by then.
        stream.tell(new Revisions.Published("e1", 11, List.of(event("MODIFIED", "a", 11))));
        load.complete(new WatchCache.Loaded(10, List.of(cm("a", 12))));
        cache.tell(new WatchCache.ReadLatest(12, null, null, null, reader.ref()));
        reader.expectNoMessage(Duration.ofMillis(100));

        stream.tell(new Revisions.Published("e1", 12, List.of(event("MODIFIED", "a", 12))));
        WatchCache.ReadReply first = reader.receiveMessage();
        assertEquals(12, ((WatchCache.Listed) first).resourceVersion());
        assertEquals(List.of("a"), names(first));

        cache.tell(new WatchCache.ReadLatest(13, null, null, null, reader.ref()));
        reader.expectNoMessage(Duration.ofMillis(100));
        stream.tell(new Revisions.Published("e1", 13, List.of(event("ADDED", "b", 13))));
        assertEquals(List.of("a", "b"), names(reader.receiveMessage()));
    }

    @Test
    void aBadSelectorIsRefusedWithoutStoppingTheCache() {
        TestProbe<Revisions.Command> revisions = testKit.createTestProbe();
        ActorRef<WatchCache.Command> cache = testKit.spawn(WatchCache.create(CONFIGMAPS,
                new Fake(revisions, CompletableFuture.completedFuture(new WatchCache.Loaded(5, List.of(cm("a", 5))))),
                Retention.DEFAULT, CLOCK));
        subscribed(revisions);
        TestProbe<WatchCache.ReadReply> reader = testKit.createTestProbe();
        cache.tell(new WatchCache.ReadLatest(5, null, "a in (", null, reader.ref()));
        WatchCache.ReadFailed failed = assertInstanceOf(WatchCache.ReadFailed.class, reader.receiveMessage());
        assertEquals(400, failed.status().code());
        cache.tell(new WatchCache.ReadLatest(5, "default", null, null, reader.ref()));
        assertEquals(List.of("a"), names(reader.receiveMessage()));
    }

    @Test
    void aNewEpochMakesTheCacheLoadAgain() {
        TestProbe<Revisions.Command> revisions = testKit.createTestProbe();
        java.util.concurrent.atomic.AtomicInteger loads = new java.util.concurrent.atomic.AtomicInteger();
        WatchCache.Sources sources = new WatchCache.Sources() {
            @Override
            public RecipientRef<Revisions.Command> revisions() {
                return revisions.ref();
            }

            @Override
            public CompletionStage<WatchCache.Loaded> load() {
                int n = loads.incrementAndGet();
                return CompletableFuture.completedFuture(n == 1
                        ? new WatchCache.Loaded(5, List.of(cm("a", 5)))
                        : new WatchCache.Loaded(2000, List.of(cm("a", 5), cm("z", 1500))));
            }
        };
        ActorRef<WatchCache.Command> cache = testKit.spawn(WatchCache.create(CONFIGMAPS, sources, Retention.DEFAULT, CLOCK));
        ActorRef<Revisions.Published> stream = subscribed(revisions);
        TestProbe<WatchCache.ReadReply> reader = testKit.createTestProbe();
        stream.tell(new Revisions.Published("e1", 6, List.of(event("ADDED", "b", 6))));
        cache.tell(new WatchCache.ReadLatest(6, null, null, null, reader.ref()));
        assertEquals(List.of("a", "b"), names(reader.receiveMessage()));

        stream.tell(new Revisions.Published("e2", 2000, List.of()));
        cache.tell(new WatchCache.ReadLatest(2000, null, null, null, reader.ref()));
        WatchCache.ReadReply after = reader.receiveMessage();
        assertEquals(List.of("a", "z"), names(after), "rebuilt from the collections, not patched");
        assertTrue(loads.get() >= 2);

        stream.tell(new Revisions.Published("e2", 2001, List.of(event("ADDED", "c", 2001))));
        cache.tell(new WatchCache.ReadLatest(2001, null, null, null, reader.ref()));
        assertEquals(List.of("a", "c", "z"), names(reader.receiveMessage()), "the new epoch's stream is followed");
    }
}
