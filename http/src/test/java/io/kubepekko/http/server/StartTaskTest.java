package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A start step run beside the others fails the start as if it had run in place. */
class StartTaskTest {

    @Test
    void joinGivesTheStepsResult() throws Exception {
        assertEquals("keys", StartTask.start("t", () -> "keys").join());
    }

    @Test
    void joinThrowsWhatTheStepThrewItself() {
        IOException refused = new IOException("the data directory cannot be written");
        IOException thrown =
                assertThrows(
                        IOException.class,
                        () ->
                                StartTask.start(
                                                "t",
                                                () -> {
                                                    throw refused;
                                                })
                                        .join());
        assertSame(refused, thrown);

        StackOverflowError error = new StackOverflowError();
        assertSame(
                error,
                assertThrows(
                        StackOverflowError.class,
                        () ->
                                StartTask.start(
                                                "t",
                                                () -> {
                                                    throw error;
                                                })
                                        .join()));
    }

    @Test
    void awaitEndReturnsOnlyOnceTheStepHasEndedWhateverItsOutcome() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        StartTask<Void> task =
                StartTask.start(
                        "t",
                        () -> {
                            release.await(10, TimeUnit.SECONDS);
                            ended.set(true);
                            throw new IOException("failed late");
                        });
        Thread releaser = new Thread(release::countDown);
        releaser.start();
        task.awaitEnd();
        assertTrue(ended.get());
        releaser.join();
    }

    @Test
    void theStepRunsOnItsOwnNamedDaemonThread() throws Exception {
        Thread step = StartTask.start("kubepekko-pki", Thread::currentThread).join();
        assertEquals("kubepekko-pki", step.getName());
        assertTrue(step.isDaemon());
    }
}
