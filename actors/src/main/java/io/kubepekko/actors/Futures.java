package io.kubepekko.actors;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Bridges the CompletionStages Pekko returns (Scala futures converted to Java) into plain
 * CompletableFutures.
 *
 * <p>Why: Scala's converted stage runs even its non-async continuations ({@code thenApply}, {@code
 * thenCompose}) through the default async executor. On a machine with two cores the common pool's
 * parallelism is 1, and the JDK then starts a new thread per continuation — measured here as most
 * of the cost of a request. A plain future completed inline keeps continuations on the completing
 * thread.
 */
public final class Futures {
    private Futures() {}

    public static <T> CompletableFuture<T> plain(CompletionStage<T> stage) {
        CompletableFuture<T> out = new CompletableFuture<>();
        stage.whenCompleteAsync(
                (value, error) -> {
                    if (error != null) {
                        out.completeExceptionally(error);
                    } else {
                        out.complete(value);
                    }
                },
                Runnable::run);
        return out;
    }
}
