package io.kubepekko.agent.api;

import java.time.Duration;

/**
 * An exponential back-off for a streak of failures (doubling from {@code initial} up to {@code
 * max}), and whether a failure is the first of its streak: the agent logs a failing call once per
 * streak, not on every retry. Immutable: each step returns the next value.
 *
 * @param failures failures since the last success
 */
public record Backoff(Duration initial, Duration max, int failures) {

    /** The kubelet's registration back-off: 100 ms doubling to 7 s. */
    public static Backoff kubelet() {
        return new Backoff(Duration.ofMillis(100), Duration.ofSeconds(7), 0);
    }

    public Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("bad back-off " + initial + " .. " + max);
        }
    }

    /** After one more failure. */
    public Backoff failed() {
        return new Backoff(initial, max, failures + 1);
    }

    /** After a success: the next failure starts a new streak. */
    public Backoff succeeded() {
        return new Backoff(initial, max, 0);
    }

    /** Whether the last failure started a streak (so it is the one to log). */
    public boolean firstOfStreak() {
        return failures == 1;
    }

    /**
     * How long to wait before the next attempt: {@code initial × 2^(failures-1)}, at most {@code
     * max}.
     */
    public Duration delay() {
        if (failures <= 0) {
            return Duration.ZERO;
        }
        int shift = Math.min(failures - 1, 30);
        long nanos = initial.toNanos();
        long scaled = nanos > (Long.MAX_VALUE >> shift) ? Long.MAX_VALUE : nanos << shift;
        return scaled >= max.toNanos() ? max : Duration.ofNanos(scaled);
    }
}
