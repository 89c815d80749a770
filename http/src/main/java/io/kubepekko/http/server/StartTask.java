package io.kubepekko.http.server;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * A step of the start that needs nothing the steps before it make, run on its own thread beside
 * them: on a first start, the keys and certificates (an RSA key among them) and the OpenAPI
 * documents took about a fifth of the time to ready, while the main thread otherwise waited for the
 * actor system, the cluster and the bootstrap writes.
 *
 * <p>{@link #join()} gives its result or throws what the step threw, as if it had run in place, so
 * a start fails with the same error as before.
 */
final class StartTask<T> {

    private final CompletableFuture<T> result = new CompletableFuture<>();

    private StartTask() {}

    /** Starts {@code step} on a new daemon thread named {@code name}. */
    static <T> StartTask<T> start(String name, Callable<T> step) {
        StartTask<T> task = new StartTask<>();
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                task.result.complete(step.call());
                            } catch (Throwable t) {
                                task.result.completeExceptionally(t);
                            }
                        },
                        name);
        thread.setDaemon(true);
        thread.start();
        return task;
    }

    /** Waits for the step: its result, or what it threw. */
    T join() throws Exception {
        try {
            return result.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception x) {
                throw x;
            }
            if (cause instanceof Error x) {
                throw x;
            }
            throw e;
        }
    }

    /** Waits for the step to end, whatever its outcome (a failed start leaves nothing running). */
    void awaitEnd() {
        try {
            result.handle((r, t) -> null).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // handle() never fails
        }
    }

    /** The step's outcome as a stage, for what may be asked before the step has ended. */
    CompletionStage<T> stage() {
        return result.minimalCompletionStage();
    }
}
