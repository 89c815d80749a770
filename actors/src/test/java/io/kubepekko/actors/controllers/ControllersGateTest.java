package io.kubepekko.actors.controllers;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The controllers' parent spawns them only once the server it runs on is ready for them. */
class ControllersGateTest {

    private static final ActorTestKit kit = ActorTestKit.create();
    private static final Duration QUIET = Duration.ofMillis(200);

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    @Test
    void nothingIsSpawnedBeforeTheServerIsReadyAndThenOnce() {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        AtomicBoolean activeHere = new AtomicBoolean();
        TestProbe<String> spawned = kit.createTestProbe();
        ActorRef<Controllers.Command> parent =
                kit.spawn(
                        Controllers.gated(
                                ready, activeHere, ctx -> spawned.getRef().tell("spawned")));

        await().atMost(Duration.ofSeconds(5)).until(activeHere::get);
        spawned.expectNoMessage(QUIET);
        ready.complete(null);
        spawned.expectMessage("spawned");
        parent.tell(Controllers.Go.INSTANCE);
        spawned.expectNoMessage(QUIET);

        TestProbe<Done> stopped = kit.createTestProbe();
        parent.tell(new Controllers.Stop(stopped.getRef()));
        stopped.expectMessage(Done.getInstance());
        await().atMost(Duration.ofSeconds(5)).until(() -> !activeHere.get());
    }

    @Test
    void aParentStoppedBeforeTheServerIsReadySpawnsNothing() {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        AtomicBoolean activeHere = new AtomicBoolean();
        TestProbe<String> spawned = kit.createTestProbe();
        ActorRef<Controllers.Command> parent =
                kit.spawn(
                        Controllers.gated(
                                ready, activeHere, ctx -> spawned.getRef().tell("spawned")));

        TestProbe<Done> stopped = kit.createTestProbe();
        parent.tell(new Controllers.Stop(stopped.getRef()));
        stopped.expectMessage(Done.getInstance());
        ready.complete(null);
        spawned.expectNoMessage(QUIET);
        await().atMost(Duration.ofSeconds(5)).until(() -> !activeHere.get());
    }
}
