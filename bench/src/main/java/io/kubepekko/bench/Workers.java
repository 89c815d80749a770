package io.kubepekko.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Runs one operation in a closed loop on N threads, each with its own keep-alive connection, and
 * times every call. All connections are open before the clock starts.
 */
final class Workers {

    /** One call of the operation; {@code seq} counts this worker's calls from 0. */
    @FunctionalInterface
    interface Op {
        boolean call(HttpConn conn, int worker, long seq) throws IOException;
    }

    /** How much work one run does: a wall-clock budget, or a total number of calls. */
    record Budget(Duration duration, long count) {
        static Budget of(Duration duration) {
            return new Budget(duration, 0);
        }

        static Budget ofCount(long count) {
            return new Budget(Duration.ZERO, count);
        }

        boolean counted() {
            return count > 0;
        }
    }

    /** Successful calls (timed in {@code latency}), failed calls, and the run's wall time. */
    record Result(long ops, long errors, long elapsedNanos, Histogram latency) {
        double throughput() {
            return elapsedNanos == 0 ? 0 : ops * 1e9 / elapsedNanos;
        }

        double p50Millis() {
            return latency.percentile(0.50) / 1e6;
        }

        double p99Millis() {
            return latency.percentile(0.99) / 1e6;
        }
    }

    private Workers() {}

    static Result run(int concurrency, Budget budget, Supplier<HttpConn> connections, Op op)
            throws InterruptedException {
        AtomicLong startNanos = new AtomicLong();
        CyclicBarrier start =
                new CyclicBarrier(concurrency, () -> startNanos.set(System.nanoTime()));
        AtomicLong remaining = new AtomicLong(budget.count());
        long durationNanos = budget.duration().toNanos();
        Histogram[] latencies = new Histogram[concurrency];
        long[] errors = new long[concurrency];
        List<Thread> threads = new ArrayList<>(concurrency);
        for (int w = 0; w < concurrency; w++) {
            int worker = w;
            latencies[w] = new Histogram();
            Thread thread =
                    new Thread(
                            () -> {
                                try (HttpConn conn = connections.get()) {
                                    try {
                                        conn.connect();
                                    } catch (IOException e) {
                                        // Let the calls fail and be counted; the barrier must still
                                        // see every worker.
                                    }
                                    start.await();
                                    long deadline = startNanos.get() + durationNanos;
                                    for (long seq = 0; ; seq++) {
                                        if (budget.counted()
                                                ? remaining.getAndDecrement() <= 0
                                                : System.nanoTime() >= deadline) {
                                            break;
                                        }
                                        long t0 = System.nanoTime();
                                        boolean ok;
                                        try {
                                            ok = op.call(conn, worker, seq);
                                        } catch (IOException e) {
                                            ok = false;
                                        }
                                        if (ok) {
                                            latencies[worker].record(System.nanoTime() - t0);
                                        } else {
                                            errors[worker]++;
                                        }
                                    }
                                } catch (InterruptedException | BrokenBarrierException e) {
                                    Thread.currentThread().interrupt();
                                }
                            },
                            "bench-worker-" + w);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long elapsed = System.nanoTime() - startNanos.get();
        Histogram all = new Histogram();
        long failed = 0;
        for (int w = 0; w < concurrency; w++) {
            all.add(latencies[w]);
            failed += errors[w];
        }
        return new Result(all.count(), failed, elapsed, all);
    }
}
