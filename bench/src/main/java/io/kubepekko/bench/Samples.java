package io.kubepekko.bench;

import java.util.Arrays;

/**
 * A few hundred timings kept whole, for exact nearest-rank percentiles. The read benchmark takes 5
 * to 1,000 samples per figure, where {@link Histogram}'s fixed buckets would be needlessly
 * approximate; with 20 samples, p99 is simply the slowest.
 */
final class Samples {

    private long[] values = new long[16];
    private int count;

    void add(long nanos) {
        if (count == values.length) {
            values = Arrays.copyOf(values, count * 2);
        }
        values[count++] = nanos;
    }

    int count() {
        return count;
    }

    /** The nearest-rank value at quantile {@code q} in milliseconds; NaN when empty. */
    double millis(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * count);
        return sorted[Math.max(0, Math.min(count, rank) - 1)] / 1e6;
    }

    double p50() {
        return millis(0.50);
    }

    double p99() {
        return millis(0.99);
    }

    double min() {
        return millis(0);
    }

    double max() {
        return millis(1);
    }

    /** The median of a set of values, in nanoseconds; used across watchers of one write. */
    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }
}
