package io.kubepekko.actors.controllers;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.kubepekko.actors.Backoff;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.CachedObject;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The informer's list-then-watch cycle against a scripted source. */
class InformerTest {

    private static final ActorTestKit kit = ActorTestKit.create();
    private static final ResourceType CONFIGMAPS =
            Registry.builtin().find("", "v1", "configmaps").orElseThrow();
    private static final Backoff FAST = new Backoff(Duration.ofMillis(10), Duration.ofMillis(50));

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    private static byte[] cm(String name) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                        + name
                        + "\",\"namespace\":\"ns\",\"uid\":\""
                        + name
                        + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static Delivery added(String name, long rv) {
        return new Delivery(
                WatchEvent.Type.ADDED,
                rv,
                new CachedObject(new ObjectKey("ns", name), rv, cm(name), Map.of(), Map.of()));
    }

    /** Answers lists and watches from scripts, and records the version each watch started after. */
    private static final class Scripted implements Informer.ListWatch {
        final ConcurrentLinkedQueue<CompletionStage<ListChunk>> lists =
                new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Source<StreamEvent, NotUsed>> watches =
                new ConcurrentLinkedQueue<>();
        final List<Long> watchedFrom = Collections.synchronizedList(new ArrayList<>());

        @Override
        public CompletionStage<ListChunk> list(ResourceType type) {
            CompletionStage<ListChunk> next = lists.poll();
            return next != null
                    ? next
                    : CompletableFuture.failedFuture(new IllegalStateException("no list scripted"));
        }

        @Override
        public CompletionStage<Source<StreamEvent, NotUsed>> watch(
                ResourceType type, long resourceVersion) {
            watchedFrom.add(resourceVersion);
            Source<StreamEvent, NotUsed> next = watches.poll();
            return CompletableFuture.completedFuture(next != null ? next : Source.never());
        }

        void list(long rv, String... names) {
            List<byte[]> items = new ArrayList<>();
            for (String n : names) {
                items.add(cm(n));
            }
            lists.add(CompletableFuture.completedFuture(new ListChunk(items, rv, null, null)));
        }
    }

    private static List<String> names(Informer.Synced synced) {
        return synced.objects().stream().map(o -> o.at("/metadata/name").asText()).toList();
    }

    @Test
    void listsThenWatchesFromTheListsVersionAndRelistsAfter410() {
        Scripted source = new Scripted();
        source.list(10, "a", "b");
        source.watches.add(
                Source.from(
                        List.<StreamEvent>of(
                                added("c", 11),
                                new StreamEvent.Bookmark(15, false),
                                new StreamEvent.Failure(
                                        ApiStatus.badRequest("too old resource version")))));
        source.list(20, "a", "c", "d");
        TestProbe<Informer.Event> consumer = kit.createTestProbe();

        kit.spawn(Informer.create(source, CONFIGMAPS, consumer.getRef(), FAST));

        assertEquals(List.of("a", "b"), names(consumer.expectMessageClass(Informer.Synced.class)));
        Informer.Changed c = consumer.expectMessageClass(Informer.Changed.class);
        assertEquals(WatchEvent.Type.ADDED, c.change());
        assertEquals("c", c.object().at("/metadata/name").asText());
        assertEquals(
                List.of("a", "c", "d"), names(consumer.expectMessageClass(Informer.Synced.class)));
        await().atMost(Duration.ofSeconds(5)).until(() -> source.watchedFrom.size() >= 2);
        assertEquals(List.of(10L, 20L), source.watchedFrom.subList(0, 2));
    }

    @Test
    void anEndedWatchResumesFromTheLastVersionSeenWithoutRelisting() {
        Scripted source = new Scripted();
        source.list(10, "a");
        source.watches.add(
                Source.from(
                        List.<StreamEvent>of(added("b", 12), new StreamEvent.Bookmark(17, false))));
        source.watches.add(Source.from(List.<StreamEvent>of(added("c", 18))));
        TestProbe<Informer.Event> consumer = kit.createTestProbe();

        kit.spawn(Informer.create(source, CONFIGMAPS, consumer.getRef(), FAST));

        consumer.expectMessageClass(Informer.Synced.class);
        consumer.expectMessageClass(Informer.Changed.class);
        assertEquals(
                "c",
                consumer.expectMessageClass(Informer.Changed.class)
                        .object()
                        .at("/metadata/name")
                        .asText());
        await().atMost(Duration.ofSeconds(5)).until(() -> source.watchedFrom.size() >= 3);
        assertEquals(List.of(10L, 17L, 18L), source.watchedFrom.subList(0, 3));
    }

    @Test
    void aFailedListIsRetriedWithBackoff() {
        Scripted source = new Scripted();
        source.lists.add(
                CompletableFuture.failedFuture(new RuntimeException("storage unavailable")));
        source.list(5, "x");
        TestProbe<Informer.Event> consumer = kit.createTestProbe();

        kit.spawn(Informer.create(source, CONFIGMAPS, consumer.getRef(), FAST));

        Informer.Synced synced =
                assertInstanceOf(
                        Informer.Synced.class, consumer.receiveMessage(Duration.ofSeconds(5)));
        assertEquals(List.of("x"), names(synced));
    }

    @Test
    void aListsObjectsAreParsedWhenReadNotAllAtOnceBeforeTheConsumerSeesThem() {
        Scripted source = new Scripted();
        source.list(10, "a", "b", "c");
        TestProbe<Informer.Event> consumer = kit.createTestProbe();
        AtomicInteger parses = new AtomicInteger();

        kit.spawn(
                Informer.create(
                        source,
                        CONFIGMAPS,
                        consumer.getRef(),
                        FAST,
                        json -> {
                            parses.incrementAndGet();
                            return Json.parseTrusted(json);
                        }));

        Informer.Synced synced = consumer.expectMessageClass(Informer.Synced.class);
        assertEquals(0, parses.get());
        assertEquals(3, synced.objects().size());
        assertEquals("b", synced.objects().get(1).at("/metadata/name").asText());
        assertEquals(1, parses.get());
        assertEquals(List.of("a", "b", "c"), names(synced));
        assertEquals(4, parses.get());
    }
}
