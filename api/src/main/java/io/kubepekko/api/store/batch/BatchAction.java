package io.kubepekko.api.store.batch;

import java.util.List;

/**
 * What a collection does after a {@link WriteBatch} transition. Exactly one per transition.
 *
 * @param <Q> what the collection keeps of a queued write
 * @param <W> what the collection keeps of a write of the batch in flight
 */
public sealed interface BatchAction<Q, W> {

    /** Nothing: the message was stale or changes nothing. */
    record Nothing<Q, W>() implements BatchAction<Q, W> {}

    /** Send claim {@code claimId} of the writes' planned values to the allocator. */
    record ClaimValues<Q, W>(String claimId, List<W> writes) implements BatchAction<Q, W> {}

    /**
     * Ask Revisions for {@code count} versions for request {@code batchId}: of the last known
     * instance when {@code direct}, else through sharding. {@code startTimeout}: the batch fails if
     * no answer comes in time; {@code askAgainLater}: unless answered, the ask is repeated through
     * sharding a little later (an ask can be lost with a node).
     */
    record AskVersions<Q, W>(
            long batchId, int count, boolean direct, boolean startTimeout, boolean askAgainLater)
            implements BatchAction<Q, W> {}

    /** Give back versions from {@code first} that came for no batch in flight (gaps are fine). */
    record GiveBack<Q, W>(long first) implements BatchAction<Q, W> {}

    /** Tell the allocator claim {@code claimId} will not be stored. */
    record AbandonClaim<Q, W>(String claimId) implements BatchAction<Q, W> {}

    /** Write the batch's events, with versions from {@code first}, to the journal. */
    record Persist<Q, W>(long first, List<W> writes) implements BatchAction<Q, W> {}

    /**
     * The batch is stored: settle {@code claimId} (null when it claimed nothing), answer the writes
     * (versions from {@code first}), and start the next batch when {@code more} writes are queued.
     */
    record Finish<Q, W>(long first, List<W> writes, String claimId, boolean more)
            implements BatchAction<Q, W> {}

    /**
     * The writes (of the batch, and {@code queued} ones) cannot complete: refuse them with 503 and
     * {@code message} (never a false success), abandon {@code claimId} when not null, and start the
     * next batch when {@code next}.
     */
    record Fail<Q, W>(List<W> writes, List<Q> queued, String message, String claimId, boolean next)
            implements BatchAction<Q, W> {}

    /** The batch ended with nothing to store (every claim refused): start the next one. */
    record Next<Q, W>() implements BatchAction<Q, W> {}
}
