package io.kubepekko.bench;

/**
 * Latency histogram in nanoseconds with log-linear buckets: exact below 128 ns, then 64 buckets per
 * power of two, so any percentile is within 1% of the true value while memory stays fixed no matter
 * how long a cell runs. Not thread-safe: one per worker, merged at the end.
 */
final class Histogram {

    private static final int EXACT = 128;
    private static final int PER_OCTAVE = 64;

    /** Octaves above the exact range that a positive long can reach (shift 1..56). */
    private static final int OCTAVES = 56;

    private final long[] counts = new long[EXACT + OCTAVES * PER_OCTAVE];
    private long count;
    private long max;

    void record(long nanos) {
        long v = Math.max(0, nanos);
        counts[index(v)]++;
        count++;
        max = Math.max(max, v);
    }

    void add(Histogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        max = Math.max(max, other.max);
    }

    long count() {
        return count;
    }

    /** The value at quantile {@code q} (0 &lt; q &le; 1) in nanoseconds, or 0 when empty. */
    long percentile(double q) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * count));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(max, midpoint(i));
            }
        }
        return max;
    }

    static int index(long v) {
        if (v < EXACT) {
            return (int) v;
        }
        int shift = 63 - Long.numberOfLeadingZeros(v) - 6; // keeps the top 7 bits: 64..127
        return EXACT + (shift - 1) * PER_OCTAVE + (int) ((v >>> shift) - PER_OCTAVE);
    }

    static long midpoint(int index) {
        if (index < EXACT) {
            return index;
        }
        int shift = (index - EXACT) / PER_OCTAVE + 1;
        long lower = (long) ((index - EXACT) % PER_OCTAVE + PER_OCTAVE) << shift;
        return lower + (1L << shift) / 2;
    }
}
