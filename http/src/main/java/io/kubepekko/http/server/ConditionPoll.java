package io.kubepekko.http.server;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Checks a condition nothing signals (the server's readiness, its informers having synced) on the
 * actor system's scheduler until it holds, without a thread blocked on it: at once, then after a
 * wait that doubles from {@code first} up to {@code most}. A check that throws counts as not
 * holding yet; the polling ends with the actor system.
 */
final class ConditionPoll {

    private ConditionPoll() {}

    /** True once {@code condition} holds; never false (it may stay incomplete). */
    static CompletionStage<Boolean> until(
            ActorSystem<?> system, BooleanSupplier condition, Duration first, Duration most) {
        return until(system, condition, first, most, Long.MAX_VALUE);
    }

    /** True once {@code condition} holds; false if it did not within {@code giveUpAfter}. */
    static CompletionStage<Boolean> until(
            ActorSystem<?> system,
            BooleanSupplier condition,
            Duration first,
            Duration most,
            Duration giveUpAfter) {
        return until(system, condition, first, most, System.nanoTime() + giveUpAfter.toNanos());
    }

    private static CompletionStage<Boolean> until(
            ActorSystem<?> system,
            BooleanSupplier condition,
            Duration first,
            Duration most,
            long deadline) {
        CompletableFuture<Boolean> held = new CompletableFuture<>();
        check(system, condition, first, most, deadline, held);
        return held;
    }

    private static void check(
            ActorSystem<?> system,
            BooleanSupplier condition,
            Duration wait,
            Duration most,
            long deadline,
            CompletableFuture<Boolean> held) {
        if (system.whenTerminated().isCompleted()) {
            return;
        }
        if (holds(condition)) {
            held.complete(true);
            return;
        }
        if (System.nanoTime() - deadline >= 0) {
            held.complete(false);
            return;
        }
        Duration next = wait.multipliedBy(2).compareTo(most) > 0 ? most : wait.multipliedBy(2);
        system.scheduler()
                .scheduleOnce(
                        wait,
                        () -> check(system, condition, next, most, deadline, held),
                        system.executionContext());
    }

    private static boolean holds(BooleanSupplier condition) {
        try {
            return condition.getAsBoolean();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
