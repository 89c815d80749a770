package io.kubepekko.api.watch;

/**
 * Where a cache is in its ordered change stream: the epoch it follows and the version the stream
 * has reached. Each batch covers the versions ({@code after}, {@code upTo}] of one epoch; the first
 * batch of an epoch acknowledges a subscription and names the version released so far. A batch that
 * does not follow on from the last one means changes were lost; a batch of another epoch means the
 * sequencer started over. Either way the cache cannot trust what it holds and loads again.
 */
public final class StreamFollower {

    /** What a batch is to the cache. */
    public enum Batch {
        /**
         * Of another epoch (or the first one heard): it acknowledges the subscription; load from
         * its version.
         */
        NEW_EPOCH,
        /** It starts after the version the stream had reached: some batch was lost. */
        GAP,
        /** It follows on from the last one. */
        FOLLOWS
    }

    private String epoch;
    private long upTo;
    private long startVersion;

    /** What a batch of {@code epoch} covering ({@code after}, ...] is. */
    public Batch classify(String epoch, long after) {
        if (this.epoch == null || !this.epoch.equals(epoch)) {
            return Batch.NEW_EPOCH;
        }
        return after > upTo ? Batch.GAP : Batch.FOLLOWS;
    }

    /**
     * The stream of {@code epoch} starts at {@code upTo}, the version its acknowledgement names.
     */
    public void acknowledged(String epoch, long upTo) {
        this.epoch = epoch;
        this.startVersion = upTo;
        this.upTo = upTo;
    }

    /** A batch up to {@code upTo} followed on. */
    public void followed(long upTo) {
        this.upTo = Math.max(this.upTo, upTo);
    }

    /** Subscribing again: the next batch names the epoch. */
    public void forget() {
        epoch = null;
    }

    /** The epoch followed; null until a subscription is acknowledged. */
    public String epoch() {
        return epoch;
    }

    /** The version the stream has reached in this epoch. */
    public long upTo() {
        return upTo;
    }

    /** The version the acknowledgement named: the cache loads from it. */
    public long startVersion() {
        return startVersion;
    }
}
