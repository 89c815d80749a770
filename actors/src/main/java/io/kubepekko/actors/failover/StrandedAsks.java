package io.kubepekko.actors.failover;

import io.kubepekko.api.status.ApiStatus;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The asks a request made of an entity that may run on another server, so that those stranded on a
 * server that failed are answered when it is removed, not when the ask times out (30 s; a client
 * without a time-out of its own waits all of it).
 *
 * <p>Sharding sends a message for an entity to the server its shard lives on; from the moment that
 * server dies until the cluster removes it, those messages are lost. Which asks went there is not
 * known here, but an ask to a live server is answered within milliseconds: every ask sent before
 * the removal and still open a grace period after it (see {@link RemovedMembers}) is taken as
 * stranded. A read is then asked again (the shard now has a new home); a write is answered with 504
 * {@code Timeout}, as kube-apiserver answers a write whose outcome it cannot know: the dead server
 * may have stored it before it died.
 */
public final class StrandedAsks {

    /**
     * An open ask: when it was sent, and what to do if it is stranded (given the failed member).
     */
    private record Open(long sentAt, Consumer<String> strand) {}

    private final LongSupplier nanoClock;
    private final Map<Long, Open> open = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    /**
     * @param nanoClock monotonic time in nanoseconds ({@code System::nanoTime})
     */
    public StrandedAsks(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /**
     * Asks through {@code ask}; if stranded, asks once more (a read changes nothing, so it may be
     * repeated).
     */
    public <T> CompletableFuture<T> read(Supplier<? extends CompletionStage<T>> ask) {
        CompletableFuture<T> out = new CompletableFuture<>();
        track(ask, out, () -> track(ask, out, null));
        return out;
    }

    /**
     * Asks through {@code ask}; if stranded, fails with a 504 {@code Timeout} status naming {@code
     * member}.
     */
    public <T> CompletableFuture<T> write(Supplier<? extends CompletionStage<T>> ask) {
        CompletableFuture<T> out = new CompletableFuture<>();
        track(ask, out, null);
        return out;
    }

    /** The asks open now. */
    public int open() {
        return open.size();
    }

    /**
     * Takes every ask sent before {@code removedAt} (this clock) that is still open as stranded on
     * {@code member}, which failed and was removed from the cluster.
     *
     * @return how many were stranded
     */
    public int strandSentBefore(long removedAt, String member) {
        int stranded = 0;
        for (Iterator<Map.Entry<Long, Open>> it = open.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Open> e = it.next();
            if (e.getValue().sentAt() - removedAt < 0 && open.remove(e.getKey()) != null) {
                stranded++;
                e.getValue().strand().accept(member);
            }
        }
        return stranded;
    }

    private <T> void track(
            Supplier<? extends CompletionStage<T>> ask, CompletableFuture<T> out, Runnable again) {
        long id = ids.incrementAndGet();
        open.put(
                id,
                new Open(
                        nanoClock.getAsLong(),
                        member -> {
                            if (again != null) {
                                again.run();
                            } else {
                                out.completeExceptionally(stranded(member).exception());
                            }
                        }));
        CompletionStage<T> asked;
        try {
            asked = ask.get();
        } catch (RuntimeException e) {
            open.remove(id);
            out.completeExceptionally(e);
            return;
        }
        // Completed on the completing thread, as Futures.plain does (not through the common pool).
        asked.whenCompleteAsync(
                (value, error) -> {
                    open.remove(id);
                    if (error != null) {
                        out.completeExceptionally(error);
                    } else {
                        out.complete(value);
                    }
                },
                Runnable::run);
    }

    /** What a stranded write answers. */
    static ApiStatus stranded(String member) {
        return ApiStatus.timeout(
                "Timeout: the request was in flight when server "
                        + member
                        + " failed and was removed from the cluster; it may or may not have been applied",
                1);
    }
}
