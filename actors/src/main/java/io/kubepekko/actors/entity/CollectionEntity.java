package io.kubepekko.actors.entity;

import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.StoreMetrics;
import io.kubepekko.actors.allocation.AllocatorProtocol;
import io.kubepekko.actors.entity.CollectionProtocol.Allocated;
import io.kubepekko.actors.entity.CollectionProtocol.AllocationFailed;
import io.kubepekko.actors.entity.CollectionProtocol.AskVersionsAgain;
import io.kubepekko.actors.entity.CollectionProtocol.ClaimAnswered;
import io.kubepekko.actors.entity.CollectionProtocol.ClaimTimedOut;
import io.kubepekko.actors.entity.CollectionProtocol.Command;
import io.kubepekko.actors.entity.CollectionProtocol.DryRunAnswered;
import io.kubepekko.actors.entity.CollectionProtocol.Flush;
import io.kubepekko.actors.entity.CollectionProtocol.Get;
import io.kubepekko.actors.entity.CollectionProtocol.GetReply;
import io.kubepekko.actors.entity.CollectionProtocol.ListObjects;
import io.kubepekko.actors.entity.CollectionProtocol.ReportHoldings;
import io.kubepekko.actors.entity.CollectionProtocol.Resolve;
import io.kubepekko.actors.entity.CollectionProtocol.RevisionsStopped;
import io.kubepekko.actors.entity.CollectionProtocol.SnapshotSaved;
import io.kubepekko.actors.entity.CollectionProtocol.Write;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.WriteResult.Refused;
import io.kubepekko.api.store.batch.BatchAction;
import io.kubepekko.api.store.batch.WriteBatch;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.EventAdapter;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.SnapshotAdapter;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * The single writer of one collection (a group-resource in one namespace): its protocol and its
 * persistence. It holds the live objects as their JSON bytes and executes writes through the pure
 * pipeline in {@code api}.
 *
 * <p>Writes are batched: while one batch waits for its resourceVersions and its journal write, new
 * writes queue up (at most {@link WriteBatcher#MAX_QUEUE}, beyond that 429) and go together in the
 * next batch, persisted atomically. Where the batch is lives in one {@link WriteBatch} value,
 * driven by the {@link WriteBatcher}; {@link BatchIntake} runs queued writes through the pipeline
 * and the {@link StorageQuota}; {@link ValueClaims} claims cluster-wide values ({@link
 * ClusterValues}: a Service's cluster IP and node ports) for the kinds that hold them; {@link
 * RevisionsRoute} reaches {@link Revisions} for versions.
 *
 * <p>Replies: commands that carry a {@code replyTo} are answered through the effect, except a
 * {@link Write} that joins the queue: it is recorded in the {@link WriteBatch} value and answered
 * when its batch ends (see {@link WriteBatcher}). Internal commands carry no {@code replyTo}: their
 * effect is {@code noReply}.
 */
public final class CollectionEntity
        extends EventSourcedBehaviorWithEnforcedReplies<Command, CollectionEvent, CollectionState> {

    public static final EntityTypeKey<Command> TYPE_KEY =
            EntityTypeKey.create(Command.class, "Collection");

    // ---- behaviour ----

    private final ActorContext<Command> context;
    private final CollectionId id;
    private final ResourceType type;
    private final CommittedObjects committed;
    private final Clock clock;

    /** The kind's value claims, or null when its objects hold no cluster-wide values. */
    private final ValueClaims claims;

    private final BatchIntake intake;
    private final WriteBatcher batcher;
    private final SnapshotSchedule snapshots;

    /** Repairs the type meta of recovered objects (see {@link TypeMetaRepair}). */
    private final TypeMetaRepair typeMetaRepair;

    private final StoreMetrics.JournalWrites journal;

    public static Behavior<Command> create(
            CollectionId id,
            ResourceType type,
            ObjectWrites writes,
            Environment environment,
            RecipientRef<RevisionsProtocol.Command> revisions) {
        return create(id, type, writes, environment, revisions, new CommittedObjects());
    }

    /**
     * @param committed where this entity publishes its committed objects for message-free reads
     */
    public static Behavior<Command> create(
            CollectionId id,
            ResourceType type,
            ObjectWrites writes,
            Environment environment,
            RecipientRef<RevisionsProtocol.Command> revisions,
            CommittedObjects committed) {
        return create(id, type, writes, environment, revisions, committed, null);
    }

    /**
     * @param allocator where the kind's cluster-wide values are claimed; required when the kind
     *     declares {@link ClusterValues}, unused otherwise
     */
    public static Behavior<Command> create(
            CollectionId id,
            ResourceType type,
            ObjectWrites writes,
            Environment environment,
            RecipientRef<RevisionsProtocol.Command> revisions,
            CommittedObjects committed,
            RecipientRef<AllocatorProtocol.Command> allocator) {
        return create(
                id,
                type,
                writes,
                environment,
                revisions,
                committed,
                allocator,
                StorageQuota.unlimited());
    }

    /**
     * @param quota the storage quota writes are admitted against
     */
    public static Behavior<Command> create(
            CollectionId id,
            ResourceType type,
            ObjectWrites writes,
            Environment environment,
            RecipientRef<RevisionsProtocol.Command> revisions,
            CommittedObjects committed,
            RecipientRef<AllocatorProtocol.Command> allocator,
            StorageQuota quota) {
        if (type.strategy().clusterValues() != null && allocator == null) {
            throw new IllegalArgumentException(
                    type.groupResource() + " holds cluster-wide values: an allocator is required");
        }
        return Behaviors.setup(
                ctx ->
                        new CollectionEntity(
                                ctx,
                                id,
                                type,
                                writes,
                                environment,
                                revisions,
                                committed,
                                allocator,
                                quota));
    }

    private CollectionEntity(
            ActorContext<Command> context,
            CollectionId id,
            ResourceType type,
            ObjectWrites writes,
            Environment environment,
            RecipientRef<RevisionsProtocol.Command> revisions,
            CommittedObjects committed,
            RecipientRef<AllocatorProtocol.Command> allocator,
            StorageQuota quota) {
        super(
                PersistenceId.of("Collection", id.entityId()),
                SupervisorStrategy.restartWithBackoff(
                        Duration.ofMillis(200), Duration.ofSeconds(5), 0.2));
        this.context = context;
        this.id = id;
        this.type = type;
        this.committed = committed;
        this.clock = environment.clock();
        this.claims = ValueClaims.forKind(context, id.entityId(), type, allocator);
        this.intake = new BatchIntake(context, id, type, writes, environment, claims);
        this.batcher =
                new WriteBatcher(
                        context,
                        id,
                        type,
                        quota,
                        new RevisionsRoute(context, revisions),
                        claims,
                        intake);
        this.typeMetaRepair = new TypeMetaRepair(type.gvk());
        this.journal =
                StoreMetrics.get(context.getSystem()).recorder().journal(type.groupResource());
        this.snapshots =
                new SnapshotSchedule(
                        context,
                        id.entityId(),
                        new BackgroundSnapshots(
                                context,
                                persistenceId().id(),
                                snapshotPluginId(),
                                SnapshotSaved::new),
                        environment.random());
    }

    @Override
    public CollectionState emptyState() {
        return CollectionState.EMPTY;
    }

    @Override
    public Set<String> tagsFor(CollectionEvent event) {
        return Set.of(id.groupResource().toString());
    }

    @Override
    public SignalHandler<CollectionState> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(
                        RecoveryCompleted.instance(),
                        state -> {
                            snapshots.recovered(
                                    lastSequenceNumber(context), state.objects().size());
                            committed.publish(id.entityId(), this, state.objects());
                            scheduleTypeMetaRewrites();
                        })
                .onSignal(
                        PreRestart.instance(),
                        state -> {
                            committed.withdraw(id.entityId(), this);
                            snapshots.restarting();
                            typeMetaRepair.drain();
                            intake.forgetRewrites();
                            batcher.failOutstanding("the storage write failed");
                        })
                .onSignal(
                        PostStop.instance(),
                        state -> {
                            committed.withdraw(id.entityId(), this);
                            batcher.failOutstanding("the collection stopped");
                        })
                .build();
    }

    @Override
    public CommandHandlerWithReply<Command, CollectionEvent, CollectionState> commandHandler() {
        return newCommandHandlerWithReplyBuilder()
                .forAnyState()
                .onCommand(
                        Get.class,
                        (state, c) ->
                                Effect()
                                        .reply(
                                                c.replyTo(),
                                                new GetReply(state.objects().get(c.name()))))
                .onCommand(
                        ListObjects.class,
                        (state, c) ->
                                Effect()
                                        .reply(
                                                c.replyTo(),
                                                ObjectPages.page(state, c.after(), c.maxBytes())))
                .onCommand(
                        ReportHoldings.class,
                        (state, c) ->
                                Effect()
                                        .reply(
                                                c.replyTo(),
                                                ValueClaims.holdings(
                                                        claims, state, batcher.claimInFlight())))
                .onCommand(Resolve.class, this::onResolve)
                .onCommand(Write.class, this::onWrite)
                .onCommand(DryRunAnswered.class, this::onDryRunAnswered)
                .onCommand(Flush.class, (state, c) -> persist(batcher.flush(state)))
                .onCommand(
                        ClaimAnswered.class,
                        (state, c) -> persist(batcher.claimAnswered(c.reply())))
                .onCommand(
                        ClaimTimedOut.class,
                        (state, c) -> persist(batcher.claimTimedOut(c.claimId())))
                .onCommand(
                        Allocated.class,
                        (state, a) -> persist(batcher.allocated(a.batchId(), a.first(), a.from())))
                .onCommand(
                        RevisionsStopped.class,
                        (state, c) -> persist(batcher.revisionsStopped(c.instance())))
                .onCommand(
                        AskVersionsAgain.class,
                        (state, c) -> persist(batcher.askAgain(c.batchId())))
                .onCommand(
                        AllocationFailed.class,
                        (state, c) -> persist(batcher.allocationFailed(c.batchId(), c.reason())))
                .onCommand(
                        SnapshotSaved.class,
                        (state, c) -> {
                            snapshots.saved(c.sequenceNr(), c.failure());
                            return Effect().noReply();
                        })
                .build();
    }

    /**
     * A write joins the queue: its reply is deferred (see {@link WriteBatcher}) unless the queue is
     * full.
     */
    private ReplyEffect<CollectionEvent, CollectionState> onWrite(CollectionState state, Write w) {
        Refused full = batcher.refusalIfFull();
        if (full != null) {
            return Effect().reply(w.replyTo(), full);
        }
        return persist(batcher.write(state, w));
    }

    private ReplyEffect<CollectionEvent, CollectionState> onDryRunAnswered(
            CollectionState state, DryRunAnswered a) {
        ValueClaims.Verdict v = claims == null ? null : claims.evaluated(a);
        if (v == null) {
            return Effect().noReply();
        }
        return Effect().reply(v.write().write().replyTo(), v.answer(type));
    }

    /**
     * Answers Revisions about an allocation whose report it never got. A collection's versions grow
     * with every batch it persists, so when nothing at or above {@code first} is in the journal
     * (this incarnation recovered it all), the allocation was not persisted; and as its request is
     * not in flight, it never will be (a late allocation is given back on arrival). Otherwise the
     * journal may hold it, and the events of an earlier incarnation are not kept in memory:
     * Revisions then starts a new epoch and readers rebuild from the collections.
     */
    private ReplyEffect<CollectionEvent, CollectionState> onResolve(
            CollectionState state, Resolve r) {
        if (batcher.awaitsReport(r.first(), r.requestId())) {
            // Revisions' answer is the batch's own Committed or Abandoned, which follows.
            return Effect().noReply();
        }
        return Effect()
                .reply(
                        r.replyTo(),
                        new RevisionsProtocol.Resolved(r.first(), state.resolution(r.first())));
    }

    /**
     * Writes the batch's events, if there is a batch to persist; once stored, readers (see {@link
     * CommittedObjects}), then Revisions, the allocator and the writers hear of it. Every other
     * reply of a write is deferred (see {@link WriteBatcher}): this command's effect is {@code
     * noReply}.
     */
    private ReplyEffect<CollectionEvent, CollectionState> persist(
            BatchAction.Persist<Write, PendingWrite> batch) {
        if (batch == null) {
            return Effect().noReply();
        }
        long now = clock.millis();
        long asked = System.nanoTime();
        List<ObjectChanged> events = new ArrayList<>(batch.writes().size());
        for (PendingWrite p : batch.writes()) {
            events.add(p.changed(batch.first() + events.size(), now));
        }
        return Effect()
                .persist(List.<CollectionEvent>copyOf(events))
                .thenRun(
                        s -> {
                            journal.written(events.size(), System.nanoTime() - asked);
                            committed.publish(id.entityId(), this, s.objects());
                            batcher.persisted(events);
                            snapshots.saveIfDue(lastSequenceNumber(context), s);
                        })
                .thenNoReply();
    }

    @Override
    public EventHandler<CollectionState, CollectionEvent> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent(CollectionState::apply);
    }

    // ---- type meta of recovered objects ----

    @Override
    public EventAdapter<CollectionEvent, ?> eventAdapter() {
        return snapshots.countingReplays(typeMetaRepair.events());
    }

    @Override
    public SnapshotAdapter<CollectionState> snapshotAdapter() {
        return typeMetaRepair.snapshots();
    }

    /** Persists each object recovered with another type meta, repaired. */
    private void scheduleTypeMetaRewrites() {
        if (intake.rewrite(typeMetaRepair.drain())) {
            context.getSelf().tell(Flush.INSTANCE);
        }
    }
}
