package io.kubepekko.actors.watch;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.QueueOfferResult;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Runs asynchronous tasks at most {@code parallelism} at a time, in the order submitted: a Pekko
 * Streams queue drained by {@code mapAsyncUnordered}. At most {@code maxQueued} tasks wait; a task
 * submitted beyond that fails at once.
 */
final class AsyncLimiter {

    private final BoundedSourceQueue<Supplier<CompletionStage<?>>> queue;

    AsyncLimiter(int parallelism, int maxQueued, Materializer materializer) {
        this.queue =
                Source.<Supplier<CompletionStage<?>>>queue(maxQueued)
                        .mapAsyncUnordered(
                                parallelism,
                                task -> task.get().handle((v, e) -> NotUsed.getInstance()))
                        .to(Sink.ignore())
                        .run(materializer);
    }

    /**
     * Starts {@code task} once fewer than {@code parallelism} submitted tasks are running;
     * completes as it does.
     */
    <T> CompletionStage<T> submit(Supplier<? extends CompletionStage<T>> task) {
        CompletableFuture<T> done = new CompletableFuture<>();
        QueueOfferResult offered =
                queue.offer(
                        () -> {
                            CompletionStage<T> running;
                            try {
                                running = task.get();
                            } catch (RuntimeException e) {
                                done.completeExceptionally(e);
                                return done;
                            }
                            running.whenComplete(
                                    (v, e) -> {
                                        if (e != null) {
                                            done.completeExceptionally(e);
                                        } else {
                                            done.complete(v);
                                        }
                                    });
                            return running;
                        });
        if (offered != QueueOfferResult.enqueued()) {
            done.completeExceptionally(
                    new IllegalStateException("too many tasks are waiting: " + offered));
        }
        return done;
    }
}
