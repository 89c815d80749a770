package io.kubepekko.actors.entity;

import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.allocation.AllocatorProtocol;
import io.kubepekko.actors.entity.CollectionProtocol.Write;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.store.WriteResult.Refused;
import io.kubepekko.api.store.batch.BatchAction;
import io.kubepekko.api.store.batch.BatchAction.Persist;
import io.kubepekko.api.store.batch.WriteBatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Drives a collection's {@link WriteBatch}: feeds it the collection's messages, and performs the
 * action each transition returns (claiming values, asking {@link Revisions} for versions, answering
 * writers), except the journal write, which it hands back to the {@link CollectionEntity} as a
 * {@link BatchAction.Persist} (every method that may start one returns it, or null).
 *
 * <p>Replies to writes that joined the queue are deferred: recorded in the batch value, they are
 * sent when the write's batch ends, or at once when the write needs no journal write. One journal
 * write answers up to {@link #MAX_BATCH} writers, which an effect's single reply cannot carry, so
 * they are sent here ({@link #answer}), after the collection's readers, Revisions and the allocator
 * heard of the batch.
 */
final class WriteBatcher {

    static final int MAX_QUEUE = 10_000;
    static final int MAX_BATCH = 256;

    /**
     * A commit report goes to Revisions in messages of about this many bytes of objects (see
     * Committed#parts).
     */
    static final long COMMIT_PART_BYTES = 2L * 1024 * 1024;

    static final Duration ALLOCATE_TIMEOUT = Duration.ofSeconds(10);

    /**
     * How long a batch waits for its versions before asking again through sharding. An ask can be
     * lost when the Revisions instance's node dies: sent directly, or through a region that has not
     * yet learnt that the shard's home is gone (the death watch that re-asks races the region's own
     * news). A second answer is harmless: a batch takes the first, and gives the other back ({@link
     * RevisionsProtocol.Abandoned}).
     */
    static final Duration ASK_AGAIN = Duration.ofSeconds(1);

    private final ActorContext<CollectionProtocol.Command> context;
    private final CollectionId id;
    private final ResourceType type;
    private final StorageQuota quota;
    private final RevisionsRoute revisions;
    private final ActorRef<RevisionsProtocol.Allocated> allocations;

    /** The kind's value claims, or null when its objects hold no cluster-wide values. */
    private final ValueClaims claims;

    private final BatchIntake intake;

    /**
     * The queue and the batch in flight. Its first batch id is drawn at random, so that an answer
     * or a question about a request of an earlier incarnation of this collection never matches this
     * one's.
     */
    private WriteBatch<Write, PendingWrite> batch =
            WriteBatch.idle(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2));

    /**
     * The quota reservations of the batch in flight: a handle on the {@link StorageQuota}, released
     * whenever {@link #batch} returns to idle.
     */
    private StorageQuota.Admission admission;

    WriteBatcher(
            ActorContext<CollectionProtocol.Command> context,
            CollectionId id,
            ResourceType type,
            StorageQuota quota,
            RevisionsRoute revisions,
            ValueClaims claims,
            BatchIntake intake) {
        this.context = context;
        this.id = id;
        this.type = type;
        this.quota = quota;
        this.revisions = revisions;
        this.claims = claims;
        this.intake = intake;
        this.allocations =
                context.messageAdapter(
                        RevisionsProtocol.Allocated.class,
                        a -> new CollectionProtocol.Allocated(a.first(), a.requestId(), a.from()));
    }

    /**
     * The claim of the batch in flight, from its sending until it is settled or abandoned; else
     * null.
     */
    String claimInFlight() {
        return batch.claimInFlight();
    }

    /** See {@link WriteBatch#awaitsReport}. */
    boolean awaitsReport(long first, long requestId) {
        return batch.awaitsReport(first, requestId);
    }

    /** The 429 a write gets at once when the queue is full; null when it may join the queue. */
    Refused refusalIfFull() {
        if (batch.queued().size() < MAX_QUEUE) {
            return null;
        }
        return new Refused(
                ApiStatus.tooManyRequests(
                        "too many requests are queued for "
                                + type.groupResource()
                                + ", please try again later",
                        1));
    }

    /** Queues {@code w}; it starts a batch unless one is in flight. */
    Persist<Write, PendingWrite> write(CollectionState state, Write w) {
        batch = batch.enqueue(w);
        return flush(state);
    }

    /**
     * Takes queued writes into a batch unless one is in flight; refusals and no-ops answer at once.
     */
    Persist<Write, PendingWrite> flush(CollectionState state) {
        if (batch.inFlight()) {
            return null;
        }
        admission = quota.admission();
        BatchIntake.Taken taken = intake.take(state, batch.queued(), MAX_BATCH, admission);
        batch = batch.dequeue(taken.taken());
        List<BatchIntake.Answer> answers = new ArrayList<>(taken.answers());
        for (PendingWrite dryRun : taken.dryRuns()) {
            ApiStatus tooMany = claims.evaluate(dryRun);
            if (tooMany != null) {
                answers.add(new BatchIntake.Answer(dryRun.write().replyTo(), new Refused(tooMany)));
            }
        }
        answers.forEach(BatchIntake.Answer::send);
        boolean claim = taken.batch().stream().anyMatch(p -> !p.plan().isEmpty());
        return run(
                batch.start(
                        taken.batch(),
                        claim ? ValueClaims.newClaimId() : null,
                        revisions.knowsInstance()));
    }

    /**
     * Granted writes get their values filled in; refused ones answer the kind's error and leave the
     * batch (no later write of the batch depends on them: a write to the same object waits for the
     * next batch). What is left asks for its versions.
     */
    Persist<Write, PendingWrite> claimAnswered(AllocatorProtocol.Claimed reply) {
        if (!batch.awaitsClaim(reply.claimId())) {
            return run(batch.lateClaim(reply.claimId()));
        }
        if (reply.unavailable() != null) {
            return run(
                    batch.claimFailed(
                            reply.claimId(),
                            ValueClaims.cannotAllocate(type, reply.unavailable())));
        }
        ValueClaims.Granted granted = claims.split(reply, batch.writes());
        granted.refused().forEach(r -> answer(r.write(), new Refused(r.status())));
        return run(batch.granted(granted.kept(), revisions.knowsInstance()));
    }

    Persist<Write, PendingWrite> claimTimedOut(String claimId) {
        return run(
                batch.claimFailed(
                        claimId,
                        ValueClaims.cannotAllocate(
                                type,
                                "the value allocator did not answer within "
                                        + ALLOCATE_TIMEOUT.toSeconds()
                                        + "s")));
    }

    /**
     * Versions came from {@code from}: the batch persists them, or they are given back when late.
     */
    Persist<Write, PendingWrite> allocated(
            long batchId, long first, ActorRef<RevisionsProtocol.Command> from) {
        if (first == RevisionsProtocol.Allocated.MOVING) {
            // That instance is handing over: ask through sharding, which delivers to its successor.
            revisions.forget();
            return run(batch.moving(batchId));
        }
        WriteBatch.Step<Write, PendingWrite> step = batch.allocated(batchId, first);
        if (step.action() instanceof BatchAction.GiveBack<Write, PendingWrite> g) {
            // A late answer for a batch that already failed, or a second one: those versions stay
            // unused
            // (gaps are fine), and Revisions must not wait for them.
            from.tell(new RevisionsProtocol.Abandoned(g.first()));
            return null;
        }
        revisions.answeredBy(from);
        return run(step);
    }

    /**
     * The Revisions instance {@code instance} stopped. When the batch's ask went to it, the ask may
     * have died with it: ask its successor rather than wait for the timeout. Should both answer,
     * the second finds the batch allocated and is given back.
     */
    Persist<Write, PendingWrite> revisionsStopped(ActorRef<RevisionsProtocol.Command> instance) {
        return revisions.stopped(instance) ? run(batch.revisionsStopped()) : null;
    }

    Persist<Write, PendingWrite> askAgain(long batchId) {
        return forgettingInstance(batch.askAgain(batchId));
    }

    Persist<Write, PendingWrite> allocationFailed(long batchId, String reason) {
        return forgettingInstance(
                batch.allocationFailed(
                        batchId,
                        storageUnavailable("could not allocate a resourceVersion: " + reason)));
    }

    /** The instance asked directly did not answer in time: it is found again through sharding. */
    private Persist<Write, PendingWrite> forgettingInstance(
            WriteBatch.Step<Write, PendingWrite> step) {
        if (!(step.action() instanceof BatchAction.Nothing)) {
            revisions.forget();
        }
        return run(step);
    }

    /**
     * The batch's events are in the journal. Revisions hears of the commit before any writer does,
     * so a list that a writer starts after its acknowledgement already counts this version as
     * committed; the allocator hears of the values kept and freed before any writer, so a client
     * that deletes a Service and then asks for its IP gets it. Queued writes go on.
     */
    void persisted(List<ObjectChanged> events) {
        List<PublishedEvent> published = new ArrayList<>(events.size());
        events.forEach(e -> published.add(e.published(id.namespace())));
        var f = (BatchAction.Finish<Write, PendingWrite>) advance(batch.persisted());
        RevisionsProtocol.Committed.parts(f.first(), published, COMMIT_PART_BYTES)
                .forEach(revisions::tell);
        if (claims != null) {
            claims.settle(f.claimId(), f.writes());
        }
        for (int i = 0; i < f.writes().size(); i++) {
            PendingWrite p = f.writes().get(i);
            answer(
                    p,
                    WriteReplies.written(type, p.outcome(), f.first() + i, events.get(i).after()));
        }
        if (f.more() || intake.hasRewrites()) {
            context.getSelf().tell(CollectionProtocol.Flush.INSTANCE);
        }
    }

    /**
     * Answers every write that can no longer complete; a refusal, never a false success. A batch
     * whose journal write failed may be stored all the same (a write that timed out can still
     * land): it is not reported abandoned. Revisions asks about it once it is overdue ({@link
     * CollectionProtocol.Resolve}), and the collection, recovered from its journal, answers from
     * what is stored.
     */
    void failOutstanding(String why) {
        run(batch.failAll(storageUnavailable(why)));
    }

    private String storageUnavailable(String why) {
        return "storage unavailable for " + type.groupResource() + ": " + why;
    }

    /**
     * Takes the next batch value and performs what the transition says; a journal write is handed
     * back.
     */
    private Persist<Write, PendingWrite> run(WriteBatch.Step<Write, PendingWrite> step) {
        BatchAction<Write, PendingWrite> action = advance(step);
        if (action instanceof Persist<Write, PendingWrite> p) {
            return p;
        } else if (action instanceof BatchAction.ClaimValues<Write, PendingWrite> c) {
            claims.claim(c.claimId(), c.writes());
        } else if (action instanceof BatchAction.AskVersions<Write, PendingWrite> a) {
            askVersions(a);
        } else if (action instanceof BatchAction.AbandonClaim<Write, PendingWrite> c) {
            claims.abandon(c.claimId());
        } else if (action instanceof BatchAction.Fail<Write, PendingWrite> f) {
            if (f.claimId() != null) {
                claims.abandon(f.claimId());
            }
            Refused refused = new Refused(ApiStatus.serviceUnavailable(f.message()));
            f.writes().forEach(p -> answer(p, refused));
            f.queued().forEach(w -> w.replyTo().tell(refused));
            if (f.next()) {
                context.getSelf().tell(CollectionProtocol.Flush.INSTANCE);
            }
        } else if (action instanceof BatchAction.Next) {
            context.getSelf().tell(CollectionProtocol.Flush.INSTANCE);
        } else if (!(action instanceof BatchAction.Nothing)) {
            throw new IllegalStateException("not performed here: " + action);
        }
        return null;
    }

    private void askVersions(BatchAction.AskVersions<Write, PendingWrite> a) {
        revisions.ask(
                new RevisionsProtocol.Allocate(a.count(), id.namespace(), a.batchId(), allocations),
                a.direct());
        if (a.startTimeout()) {
            context.scheduleOnce(
                    ALLOCATE_TIMEOUT,
                    context.getSelf(),
                    new CollectionProtocol.AllocationFailed(
                            a.batchId(), "no answer within " + ALLOCATE_TIMEOUT.toSeconds() + "s"));
        }
        if (a.askAgainLater()) {
            context.scheduleOnce(
                    ASK_AGAIN,
                    context.getSelf(),
                    new CollectionProtocol.AskVersionsAgain(a.batchId()));
        }
    }

    /** Takes the step's batch value; a batch that ended gives back its quota reservations. */
    private BatchAction<Write, PendingWrite> advance(WriteBatch.Step<Write, PendingWrite> step) {
        batch = step.batch();
        if (!batch.inFlight() && admission != null) {
            admission.release();
            admission = null;
        }
        return step.action();
    }

    /** Sends a deferred reply to a write of the batch. */
    private static void answer(PendingWrite p, WriteResult reply) {
        p.write().replyTo().tell(reply);
    }
}
