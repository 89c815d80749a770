package io.kubepekko.api.alloc;

import java.util.OptionalLong;
import java.util.function.LongPredicate;
import java.util.random.RandomGenerator;

/**
 * How Kubernetes picks a free value from a range without one being asked for (KEP-3070 for cluster
 * IPs, KEP-3668 for node ports): the range's first {@code offset} ordinals are kept for values
 * clients ask for by number, so a dynamic pick starts at a random ordinal of the upper part and
 * scans forward (wrapping) for a free one; only when the upper part is full does it do the same in
 * the lower part. Ordinals are 0-based positions in the range.
 */
public final class OffsetScan {
    private OffsetScan() {}

    /**
     * A free ordinal in {@code [0, size)}, or empty when every one is taken.
     *
     * @param offset how many low ordinals are kept for requested values (0: none)
     */
    public static OptionalLong pick(
            long size, long offset, LongPredicate taken, RandomGenerator random) {
        if (size <= 0) {
            return OptionalLong.empty();
        }
        long low = offset > 0 && offset < size ? offset : 0;
        OptionalLong upper = scan(low, size - low, taken, random);
        if (upper.isPresent() || low == 0) {
            return upper;
        }
        return scan(0, low, taken, random);
    }

    /**
     * Scans {@code [from, from + count)} from a random start, wrapping, for an ordinal not taken.
     */
    private static OptionalLong scan(
            long from, long count, LongPredicate taken, RandomGenerator random) {
        long start = random.nextLong(count);
        for (long i = 0; i < count; i++) {
            long ordinal = from + (start + i) % count;
            if (!taken.test(ordinal)) {
                return OptionalLong.of(ordinal);
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Kubernetes' split of a service IP range: {@code min(max(16, size / 16), 256)}, and none for
     * ranges of 16 addresses or fewer ({@code ipallocator.calculateRangeOffset}; {@code size}
     * counts the network and broadcast addresses).
     */
    public static long clusterIpOffset(long cidrSize) {
        return rangeOffset(cidrSize, 16, 256, 16);
    }

    /**
     * Kubernetes' split of a node port range: {@code min(max(16, size / 32), 128)} ({@code
     * portallocator}).
     */
    public static long nodePortOffset(long rangeSize) {
        return rangeOffset(rangeSize, 16, 128, 32);
    }

    private static long rangeOffset(long size, long min, long max, long step) {
        if (size <= min) {
            return 0;
        }
        return Math.min(Math.max(min, size / step), max);
    }
}
