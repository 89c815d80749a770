package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The start's bootstrap writes, begun before they are awaited: a first attempt that failed is made
 * again until one succeeds, within the deadline.
 */
class BootstrapRetryTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void aFirstAttemptThatSucceededIsNotMadeAgain() throws Exception {
        AtomicInteger again = new AtomicInteger();
        BootSteps.bootstrapWithRetry(
                CompletableFuture.completedFuture(null),
                () -> {
                    again.incrementAndGet();
                    return CompletableFuture.completedFuture(null);
                },
                MINUTE);
        assertEquals(0, again.get());
    }

    @Test
    void aFailedAttemptIsMadeAgainUntilOneSucceeds() throws Exception {
        AtomicInteger again = new AtomicInteger();
        BootSteps.bootstrapWithRetry(
                failed(new IllegalStateException("no shard home yet")),
                () ->
                        again.incrementAndGet() < 3
                                ? failed(new IllegalStateException("ask timed out"))
                                : CompletableFuture.completedFuture(null),
                MINUTE);
        assertEquals(3, again.get());
    }

    @Test
    void pastTheDeadlineTheFailureIsThrown() {
        IllegalStateException refused = new IllegalStateException("storage down");
        ExecutionException thrown =
                assertThrows(
                        ExecutionException.class,
                        () ->
                                BootSteps.bootstrapWithRetry(
                                        failed(refused), () -> failed(refused), Duration.ZERO));
        assertSame(refused, thrown.getCause());
    }

    private static CompletionStage<Void> failed(Throwable cause) {
        return CompletableFuture.failedFuture(cause);
    }
}
