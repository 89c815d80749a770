package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A condition polled on the scheduler: what the controllers' start and the ready line wait on. */
class ConditionPollTest {

    private static final ActorTestKit kit = ActorTestKit.create();
    private static final Duration MS = Duration.ofMillis(1);

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    @Test
    void completesOnceTheConditionHoldsAndAThrowingCheckCountsAsNotYet() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        boolean held =
                ConditionPoll.until(
                                kit.system(),
                                () -> {
                                    int n = checks.incrementAndGet();
                                    if (n == 2) {
                                        throw new IllegalStateException("not ready to say");
                                    }
                                    return n >= 4;
                                },
                                MS,
                                MS.multipliedBy(4))
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
        assertTrue(held);
        assertEquals(4, checks.get());
    }

    @Test
    void givesUpWithFalseAfterItsDeadline() throws Exception {
        boolean held =
                ConditionPoll.until(kit.system(), () -> false, MS, MS, Duration.ofMillis(50))
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
        assertFalse(held);
    }
}
