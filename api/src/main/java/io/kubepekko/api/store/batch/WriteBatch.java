package io.kubepekko.api.store.batch;

import io.kubepekko.api.store.batch.BatchAction.AbandonClaim;
import io.kubepekko.api.store.batch.BatchAction.AskVersions;
import io.kubepekko.api.store.batch.BatchAction.ClaimValues;
import io.kubepekko.api.store.batch.BatchAction.Fail;
import io.kubepekko.api.store.batch.BatchAction.Finish;
import io.kubepekko.api.store.batch.BatchAction.GiveBack;
import io.kubepekko.api.store.batch.BatchAction.Next;
import io.kubepekko.api.store.batch.BatchAction.Nothing;
import io.kubepekko.api.store.batch.BatchAction.Persist;
import io.kubepekko.api.store.batch.BatchPhase.Allocating;
import io.kubepekko.api.store.batch.BatchPhase.Claiming;
import io.kubepekko.api.store.batch.BatchPhase.Idle;
import io.kubepekko.api.store.batch.BatchPhase.Persisting;
import java.util.List;
import org.pcollections.PVector;
import org.pcollections.TreePVector;

/**
 * The write batching of one collection as a value: the writes queued for the next batch, the {@link
 * BatchPhase} of the batch in flight, and the id of the last batch (each batch's request to
 * Revisions carries its id, so a late answer or question about another batch never matches).
 *
 * <p>A batch goes Idle → (Claiming →) Allocating → Persisting → Idle; a failure or a claim that
 * granted nothing returns it to Idle early. Each transition is a pure function returning the next
 * value and the one {@link BatchAction} the collection performs. Messages about another batch, or
 * arriving in another phase, leave the value as it is: the late answer is given back or ignored.
 *
 * @param <Q> what the collection keeps of a queued write
 * @param <W> what the collection keeps of a write of the batch in flight
 */
public record WriteBatch<Q, W>(PVector<Q> queued, BatchPhase<W> phase, long lastBatchId) {

    /** A value and what to do. */
    public record Step<Q, W>(WriteBatch<Q, W> batch, BatchAction<Q, W> action) {}

    /**
     * No batch and no queue. {@code firstBatchId} should be drawn at random, so that an answer or a
     * question about a request of an earlier incarnation of the collection never matches this
     * one's.
     */
    public static <Q, W> WriteBatch<Q, W> idle(long firstBatchId) {
        return new WriteBatch<>(TreePVector.empty(), new Idle<>(), firstBatchId);
    }

    /** Whether a batch is in flight (the next starts when it ends). */
    public boolean inFlight() {
        return !(phase instanceof Idle);
    }

    public WriteBatch<Q, W> enqueue(Q write) {
        return new WriteBatch<>(queued.plus(write), phase, lastBatchId);
    }

    /** Removes the first {@code count} queued writes (taken into a batch, or answered at once). */
    public WriteBatch<Q, W> dequeue(int count) {
        return new WriteBatch<>(queued.subList(count, queued.size()), phase, lastBatchId);
    }

    /**
     * Starts a batch of {@code writes} (already off the queue): claiming {@code claimId} first when
     * not null, else asking for versions, {@code direct}ly when an instance of Revisions is known.
     * No writes: nothing starts.
     */
    public Step<Q, W> start(List<W> writes, String claimId, boolean direct) {
        requireIdle();
        if (writes.isEmpty()) {
            return stay();
        }
        long batchId = lastBatchId + 1;
        if (claimId != null) {
            return step(
                    new Claiming<>(batchId, writes, claimId),
                    batchId,
                    new ClaimValues<>(claimId, List.copyOf(writes)));
        }
        return askFirst(batchId, writes, null, direct);
    }

    /** Whether the batch in flight waits for the answer to claim {@code claimId}. */
    public boolean awaitsClaim(String claimId) {
        return phase instanceof Claiming<W> c && c.claimId().equals(claimId);
    }

    /** An answer to a claim no batch waits for: whatever it granted is not going to be stored. */
    public Step<Q, W> lateClaim(String claimId) {
        return new Step<>(this, new AbandonClaim<>(claimId));
    }

    /**
     * The claim was answered; {@code kept} are the writes whose values were granted (or that
     * claimed none). They ask for their versions; when none is left, nothing is held and the next
     * batch starts.
     */
    public Step<Q, W> granted(List<W> kept, boolean direct) {
        Claiming<W> c = (Claiming<W>) phase;
        if (kept.isEmpty()) {
            return step(new Idle<>(), lastBatchId, new Next<>());
        }
        return askFirst(c.batchId(), kept, c.claimId(), direct);
    }

    /**
     * The claim {@code claimId} failed (no answer in time, or the allocator unavailable): the batch
     * fails with {@code message}; queued writes go on.
     */
    public Step<Q, W> claimFailed(String claimId, String message) {
        if (!awaitsClaim(claimId)) {
            return stay();
        }
        Claiming<W> c = (Claiming<W>) phase;
        return step(
                new Idle<>(),
                lastBatchId,
                new Fail<>(c.writes(), List.of(), message, c.claimId(), true));
    }

    /**
     * Versions from {@code first} came for request {@code batchId}: persist, or give them back when
     * late.
     */
    public Step<Q, W> allocated(long batchId, long first) {
        if (!(phase instanceof Allocating<W> a) || a.batchId() != batchId) {
            return new Step<>(this, new GiveBack<>(first));
        }
        return step(
                new Persisting<>(batchId, a.writes(), a.claimId(), first),
                lastBatchId,
                new Persist<>(first, a.writes()));
    }

    /**
     * The instance asked for request {@code batchId} is handing over: ask its successor through
     * sharding.
     */
    public Step<Q, W> moving(long batchId) {
        return allocating(batchId) ? reask(false) : stay();
    }

    /**
     * The instance last asked directly stopped: when the pending ask went to it, ask through
     * sharding.
     */
    public Step<Q, W> revisionsStopped() {
        return phase instanceof Allocating<W> a && a.askedDirectly() ? reask(false) : stay();
    }

    /**
     * Request {@code batchId} is still unanswered after a while: ask again through sharding, and
     * later again.
     */
    public Step<Q, W> askAgain(long batchId) {
        return allocating(batchId) ? reask(true) : stay();
    }

    /** Request {@code batchId} got no versions in time: every write in flight or queued fails. */
    public Step<Q, W> allocationFailed(long batchId, String message) {
        return allocating(batchId) ? failAll(message) : stay();
    }

    /** The batch's events are in the journal: it ends. */
    public Step<Q, W> persisted() {
        Persisting<W> p = (Persisting<W>) phase;
        return step(
                new Idle<>(),
                lastBatchId,
                new Finish<>(p.first(), p.writes(), p.claimId(), !queued.isEmpty()));
    }

    /**
     * Nothing can complete (the journal failed, the collection stops): the batch in flight and
     * every queued write fail, and the queue empties. A batch whose journal write failed is not
     * given back: it may be stored all the same, which Revisions learns by asking ({@link
     * #awaitsReport}).
     */
    public Step<Q, W> failAll(String message) {
        return new Step<>(
                new WriteBatch<>(TreePVector.empty(), new Idle<>(), lastBatchId),
                new Fail<>(writes(), List.copyOf(queued), message, claimInFlight(), false));
    }

    /**
     * Whether the collection's own report (a commit or an abandonment) about versions from {@code
     * first}, allocated to request {@code requestId}, is still to come: Revisions then gets no
     * other answer.
     */
    public boolean awaitsReport(long first, long requestId) {
        if (phase instanceof Persisting<W> p) {
            return p.first() == first;
        }
        return phase instanceof Allocating<W> a
                ? a.batchId() == requestId
                : phase instanceof Claiming<W> c && c.batchId() == requestId;
    }

    /**
     * The claim of the batch in flight, from its sending until it is settled or abandoned; else
     * null.
     */
    public String claimInFlight() {
        return phase instanceof Claiming<W> c
                ? c.claimId()
                : phase instanceof Allocating<W> a
                        ? a.claimId()
                        : phase instanceof Persisting<W> p ? p.claimId() : null;
    }

    /** The writes of the batch in flight. */
    public List<W> writes() {
        return phase instanceof Claiming<W> c
                ? c.writes()
                : phase instanceof Allocating<W> a
                        ? a.writes()
                        : phase instanceof Persisting<W> p ? p.writes() : List.of();
    }

    private Step<Q, W> askFirst(long batchId, List<W> writes, String claimId, boolean direct) {
        return step(
                new Allocating<>(batchId, writes, claimId, direct),
                batchId,
                new AskVersions<>(batchId, writes.size(), direct, true, true));
    }

    private Step<Q, W> reask(boolean askAgainLater) {
        Allocating<W> a = (Allocating<W>) phase;
        return step(
                new Allocating<>(a.batchId(), a.writes(), a.claimId(), false),
                lastBatchId,
                new AskVersions<>(a.batchId(), a.writes().size(), false, false, askAgainLater));
    }

    private boolean allocating(long batchId) {
        return phase instanceof Allocating<W> a && a.batchId() == batchId;
    }

    private Step<Q, W> step(BatchPhase<W> next, long batchId, BatchAction<Q, W> action) {
        return new Step<>(new WriteBatch<>(queued, next, batchId), action);
    }

    private Step<Q, W> stay() {
        return new Step<>(this, new Nothing<>());
    }

    private void requireIdle() {
        if (inFlight()) {
            throw new IllegalStateException("a batch is in flight: " + phase);
        }
    }
}
