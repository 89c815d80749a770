package io.kubepekko.actors.fencing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.persistence.fencing.WritePermit;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class GenerationWatchTest {
    private static final ActorTestKit kit = ActorTestKit.create();

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    private static final class FakeStore implements GenerationWatch.Store {
        final AtomicReference<Optional<Long>> generation = new AtomicReference<>(Optional.of(2L));
        final AtomicBoolean beatsFail = new AtomicBoolean();
        final List<String> beats = new CopyOnWriteArrayList<>();

        @Override
        public CompletionStage<Void> beat(String member, long generation, long beat) {
            if (beatsFail.get()) {
                return CompletableFuture.failedFuture(new RuntimeException("write timed out"));
            }
            beats.add(member + "/" + generation + "/" + beat);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Optional<Long>> generation() {
            return CompletableFuture.completedFuture(generation.get());
        }
    }

    @Test
    void aMemberBeatsUnderItsGenerationAndMayWriteWhileTheStorageConfirmsIt() {
        FakeStore store = new FakeStore();
        WritePermit permit = new WritePermit();
        kit.spawn(
                GenerationWatch.create(
                        store,
                        permit,
                        "a#1",
                        Optional.of(2L),
                        Duration.ofMillis(20),
                        Duration.ofHours(1),
                        () -> {}));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.beats.size() >= 3);
        assertEquals("a#1/2/1", store.beats.get(0));
        assertEquals("a#1/2/2", store.beats.get(1));
        assertEquals(Optional.empty(), permit.refusal());
    }

    @Test
    void aNewerGenerationEndsThePermitForGoodAndStopsTheServer() {
        FakeStore store = new FakeStore();
        WritePermit permit = new WritePermit();
        AtomicBoolean stopped = new AtomicBoolean();
        TestProbe<Object> probe = kit.createTestProbe();
        ActorRef<GenerationWatch.Command> watch =
                kit.spawn(
                        GenerationWatch.create(
                                store,
                                permit,
                                "a#1",
                                Optional.of(2L),
                                Duration.ofMillis(20),
                                Duration.ofHours(1),
                                () -> stopped.set(true)));
        await().atMost(Duration.ofSeconds(10)).until(() -> store.beats.size() >= 2);
        store.generation.set(Optional.of(3L));
        await().atMost(Duration.ofSeconds(10)).until(stopped::get);
        probe.expectTerminated(watch, Duration.ofSeconds(10));
        assertTrue(
                permit.refusal().orElseThrow().contains("a newer cluster (generation 3)"),
                permit.refusal().get());
        permit.grantGenerationUntil(Long.MAX_VALUE, "x");
        assertTrue(permit.refusal().isPresent(), "for good");
    }

    @Test
    void aServerThatJoinedBeforeAGenerationWasRecordedTakesTheFirstItReads() {
        FakeStore store = new FakeStore();
        store.generation.set(Optional.of(5L));
        WritePermit permit = new WritePermit();
        AtomicBoolean stopped = new AtomicBoolean();
        kit.spawn(
                GenerationWatch.create(
                        store,
                        permit,
                        "c#1",
                        Optional.empty(),
                        Duration.ofMillis(20),
                        Duration.ofHours(1),
                        () -> stopped.set(true)));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> store.beats.stream().anyMatch(b -> b.equals("c#1/5/2")));
        assertEquals(Optional.empty(), permit.refusal());
        assertEquals(false, stopped.get());
    }

    @Test
    void roundsWhoseBeatFailsRenewNothing() {
        FakeStore store = new FakeStore();
        store.beatsFail.set(true);
        WritePermit permit = new WritePermit();
        permit.grantGenerationUntil(
                System.nanoTime() + Duration.ofMillis(200).toNanos(), "unconfirmed");
        kit.spawn(
                GenerationWatch.create(
                        store,
                        permit,
                        "a#1",
                        Optional.of(2L),
                        Duration.ofMillis(20),
                        Duration.ofHours(1),
                        () -> {}));
        await().atMost(Duration.ofSeconds(10)).until(() -> permit.refusal().isPresent());
        assertEquals(Optional.of("unconfirmed"), permit.refusal());
    }
}
