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

    /** A parent whose children are a message to {@code spawned}, waiting for {@code ready}. */
    private static final class Gate {
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        final AtomicBoolean activeHere = new AtomicBoolean();
        final TestProbe<String> spawned = kit.createTestProbe();
        final ActorRef<Controllers.Command> parent =
                kit.spawn(
                        Controllers.gated(
                                ready, activeHere, ctx -> spawned.getRef().tell("spawned")));
    }

    @Test
    void nothingIsSpawnedBeforeTheServerIsReadyAndThenOnce() {
        Gate g = new Gate();

        await().atMost(Duration.ofSeconds(5)).until(g.activeHere::get);
        g.spawned.expectNoMessage(QUIET);
        g.ready.complete(null);
        g.spawned.expectMessage("spawned");
        g.parent.tell(Controllers.Go.INSTANCE);
        g.spawned.expectNoMessage(QUIET);

        TestProbe<Done> stopped = kit.createTestProbe();
        g.parent.tell(new Controllers.Stop(stopped.getRef()));
        stopped.expectMessage(Done.getInstance());
        await().atMost(Duration.ofSeconds(5)).until(() -> !g.activeHere.get());
    }

    @Test
    void aParentStoppedBeforeTheServerIsReadySpawnsNothing() {
        Gate g = new Gate();

        TestProbe<Done> stopped = kit.createTestProbe();
        g.parent.tell(new Controllers.Stop(stopped.getRef()));
        stopped.expectMessage(Done.getInstance());
        g.ready.complete(null);
        g.spawned.expectNoMessage(QUIET);
        await().atMost(Duration.ofSeconds(5)).until(() -> !g.activeHere.get());
    }
}
