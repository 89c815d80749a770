package io.kubepekko.actors.failover;

import io.kubepekko.api.status.ApiStatus;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The asks a request made of an entity through sharding, so that those sharding lost are answered
 * when the loss is likely, not when the ask times out (30 s; a client without a time-out of its own
 * waits all of it).
 *
 * <p>Sharding loses messages in two ways. From the moment a server dies until the cluster removes
 * it, messages for its shards are sent to it. Which asks went there is not known here, but an ask
 * to a live server is answered within milliseconds: every ask sent before the removal and still
 * open a grace period after it (see {@link RemovedMembers}) is taken as stranded. A read is then
 * asked again (the shard now has a new home); a write is answered with 504 {@code Timeout}, as
 * kube-apiserver answers a write whose outcome it cannot know: the dead server may have stored it
 * before it died. And when a shard is handed off between live servers (a rebalance as members join
 * or leave), the server it leaves drops the messages it buffered for it since the hand-off began
 * ("Dropping [n] buffered messages to shard ... during hand off"): nothing tells the asker. So a
 * read still unanswered {@link ReAsking#first()} after it was sent is asked again, and again after
 * twice as long, and so on while the ask time-out has not passed; the first answer of any of its
 * asks answers it. A write is never sent twice: its outcome is unknown.
 */
public final class StrandedAsks {

    /** Runs a task later; what unanswered reads are asked again with. */
    @FunctionalInterface
    public interface Timer {
        /**
         * Runs {@code task} once, {@code delay} from now.
         *
         * @return cancels the task if it has not run yet
         */
        Runnable after(Duration delay, Runnable task);
    }

    /**
     * When an unanswered read is asked again.
     *
     * @param first how long after its first ask a read still unanswered is asked again; each
     *     further ask waits twice as long as the one before
     * @param until the ask time-out: no read is asked again this long after its first ask, which
     *     has timed out by then and answered the read with its failure
     */
    public record ReAsking(Duration first, Duration until) {
        public ReAsking {
            if (first.isNegative() || first.isZero()) {
                throw new IllegalArgumentException(
                        "the re-ask interval must be positive: " + first);
            }
        }
    }

    /**
     * An open ask: when it was sent, and what to do if it is stranded (given the failed member).
     */
    private record Open(long sentAt, Consumer<String> strand) {}

    private final LongSupplier nanoClock;
    private final Timer timer;
    private final ReAsking reAsking;
    private final Map<Long, Open> open = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    /**
     * @param nanoClock monotonic time in nanoseconds ({@code System::nanoTime})
     * @param timer runs the re-asks of unanswered reads
     */
    public StrandedAsks(LongSupplier nanoClock, Timer timer, ReAsking reAsking) {
        this.nanoClock = nanoClock;
        this.timer = timer;
        this.reAsking = reAsking;
    }

    /** Asks tracked on the system's clock, reads asked again through its scheduler. */
    public static StrandedAsks on(ActorSystem<?> system, ReAsking reAsking) {
        return new StrandedAsks(
                System::nanoTime,
                (delay, task) -> {
                    Cancellable scheduled =
                            system.scheduler().scheduleOnce(delay, task, system.executionContext());
                    return scheduled::cancel;
                },
                reAsking);
    }

    /**
     * Asks through {@code ask}, which must change nothing (a read), so it may be sent again: when
     * stranded, and while unanswered after {@link ReAsking#first()}, doubling, until {@link
     * ReAsking#until()}. The first answer (or failure) of any ask answers the read.
     */
    public <T> CompletableFuture<T> read(Supplier<? extends CompletionStage<T>> ask) {
        Read<T> read = new Read<>(ask);
        read.ask();
        read.askAgainAfter(reAsking.first());
        return read.out;
    }

    /**
     * Asks through {@code ask} once; if stranded, fails with a 504 {@code Timeout} status naming
     * the failed member.
     */
    public <T> CompletableFuture<T> write(Supplier<? extends CompletionStage<T>> ask) {
        CompletableFuture<T> out = new CompletableFuture<>();
        track(ask, out, member -> out.completeExceptionally(stranded(member).exception()));
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

    /** One read: its asks so far, the pending re-ask. */
    private final class Read<T> {
        private final Supplier<? extends CompletionStage<T>> asker;
        private final CompletableFuture<T> out = new CompletableFuture<>();
        private final long firstSentAt = nanoClock.getAsLong();
        private final AtomicInteger sent = new AtomicInteger();

        Read(Supplier<? extends CompletionStage<T>> asker) {
            this.asker = asker;
        }

        void ask() {
            int number = sent.incrementAndGet();
            // Stranded: asked again at once, unless a later ask (not stranded) is on its way.
            track(
                    asker,
                    out,
                    member -> {
                        if (sent.get() == number && !out.isDone() && !pastDeadline(0)) {
                            ask();
                        }
                    });
        }

        void askAgainAfter(Duration delay) {
            if (out.isDone() || pastDeadline(delay.toNanos())) {
                return;
            }
            Runnable cancel =
                    timer.after(
                            delay,
                            () -> {
                                if (!out.isDone()) {
                                    ask();
                                    askAgainAfter(delay.multipliedBy(2));
                                }
                            });
            out.whenComplete((value, error) -> cancel.run());
        }

        /** Whether {@code inNanos} from now is past the ask time-out of the first ask. */
        private boolean pastDeadline(long inNanos) {
            return nanoClock.getAsLong() + inNanos - firstSentAt >= reAsking.until().toNanos();
        }
    }

    private <T> void track(
            Supplier<? extends CompletionStage<T>> ask,
            CompletableFuture<T> out,
            Consumer<String> strand) {
        long id = ids.incrementAndGet();
        open.put(id, new Open(nanoClock.getAsLong(), strand));
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
