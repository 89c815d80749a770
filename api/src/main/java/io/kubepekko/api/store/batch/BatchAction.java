package io.kubepekko.api.store.batch;

import java.util.List;

/**
 * What a collection does after a {@link WriteBatch} transition. Exactly one per transition.
 *
 * @param <W> what the collection keeps of one write
 */
public sealed interface BatchAction<W> {

    /** Nothing: the message was stale or changes nothing. */
    record Nothing<W>() implements BatchAction<W> {}

    /** Send claim {@code claimId} of the writes' planned values to the allocator. */
    record ClaimValues<W>(String claimId, List<W> writes) implements BatchAction<W> {}

    /**
     * Ask Revisions for {@code count} versions for request {@code batchId}: of the last known instance
     * when {@code direct}, else through sharding. {@code startTimeout}: the batch fails if no answer
     * comes in time; {@code askAgainLater}: unless answered, the ask is repeated through sharding a
     * little later (an ask can be lost with a node).
     */
    record AskVersions<W>(long batchId, int count, boolean direct, boolean startTimeout, boolean askAgainLater)
            implements BatchAction<W> {}

    /** Give back versions from {@code first} that came for no batch in flight (gaps are fine). */
    record GiveBack<W>(long first) implements BatchAction<W> {}

    /** Tell the allocator claim {@code claimId} will not be stored. */
    record AbandonClaim<W>(String claimId) implements BatchAction<W> {}

    /** Write the batch's events, with versions from {@code first}, to the journal. */
    record Persist<W>(long first, List<W> writes) implements BatchAction<W> {}

    /**
     * The batch is stored: settle {@code claimId} (null when it claimed nothing), answer the writes
     * (versions from {@code first}), and start the next batch when {@code more} writes are queued.
     */
    record Finish<W>(long first, List<W> writes, String claimId, boolean more) implements BatchAction<W> {}

    /**
     * The writes cannot complete: refuse them with 503 and {@code message} (never a false success), abandon
     * {@code claimId} when not null, and start the next batch when {@code next}.
     */
    record Fail<W>(List<W> writes, String message, String claimId, boolean next) implements BatchAction<W> {}

    /** The batch ended with nothing to store (every claim refused): start the next one. */
    record Next<W>() implements BatchAction<W> {}
}
