package io.kubepekko.actors.entity;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.allocation.ValueAllocator;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.Responses;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.store.WriteResult.Refused;
import io.kubepekko.api.store.batch.BatchAction;
import io.kubepekko.api.store.batch.WriteBatch;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.persistence.CborSerializable;
import io.kubepekko.persistence.SnapshotInParts;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.pekko.actor.typed.ActorRef;
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
import org.pcollections.TreePMap;

/**
 * The single writer of one collection (a group-resource in one namespace): its protocol and its
 * persistence. It holds the live objects as their JSON bytes and executes writes through the pure
 * pipeline in {@code api}.
 *
 * <p>Writes are batched: while one batch waits for its resourceVersions and its journal write, new
 * writes queue up (at most {@link #MAX_QUEUE}, beyond that 429) and go together in the next batch,
 * persisted atomically. Where the batch is lives in one {@link WriteBatch} value, driven by the
 * {@link WriteBatcher}; {@link BatchIntake} runs queued writes through the pipeline and the {@link
 * StorageQuota}; {@link ValueClaims} claims cluster-wide values ({@link ClusterValues}: a Service's
 * cluster IP and node ports) for the kinds that hold them; {@link RevisionsRoute} reaches {@link
 * Revisions} for versions.
 *
 * <p>Replies: commands that carry a {@code replyTo} are answered through the effect, except a
 * {@link Write} that joins the queue: it is recorded in the {@link WriteBatch} value and answered
 * when its batch ends (see {@link WriteBatcher}). Internal commands carry no {@code replyTo}: their
 * effect is {@code noReply}.
 */
public final class CollectionEntity
        extends EventSourcedBehaviorWithEnforcedReplies<
                CollectionEntity.Command, CollectionEntity.Event, CollectionEntity.State> {

    public static final EntityTypeKey<Command> TYPE_KEY =
            EntityTypeKey.create(Command.class, "Collection");

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
     * Revisions.Abandoned}).
     */
    static final Duration ASK_AGAIN = Duration.ofSeconds(1);

    // ---- state ----

    /**
     * The live objects of the collection by name, as stored JSON bytes, and the version of the last
     * change applied (a removal leaves no object behind to tell it).
     */
    public record State(TreePMap<String, byte[]> objects, long lastVersion)
            implements CborSerializable, SnapshotInParts {
        static final State EMPTY = new State(TreePMap.empty(), 0);

        @JsonCreator
        static State fromJson(
                @JsonProperty("objects") Map<String, byte[]> objects,
                @JsonProperty("lastVersion") long lastVersion) {
            return new State(TreePMap.from(objects == null ? Map.of() : objects), lastVersion);
        }

        @JsonProperty("objects")
        Map<String, byte[]> objectsForJson() {
            return new TreeMap<>(objects);
        }

        State apply(Event event) {
            ObjectChanged c = (ObjectChanged) event;
            return new State(
                    c.removed() ? objects.minus(c.name()) : objects.plus(c.name(), c.after()),
                    Math.max(lastVersion, c.resourceVersion()));
        }

        @Override
        public long sizeInBytes() {
            return CollectionSnapshotParts.size(objects);
        }

        @Override
        public Iterator<CollectionSnapshotParts.Part> parts(long maxBytes) {
            return CollectionSnapshotParts.parts(objects, maxBytes);
        }

        @Override
        public CollectionSnapshotParts.Header header(int count) {
            return new CollectionSnapshotParts.Header(count, lastVersion);
        }
    }

    // ---- commands ----

    /** Protocol of {@link CollectionEntity}. */
    public sealed interface Command extends CborSerializable
            permits Get,
                    ListObjects,
                    Write,
                    Allocated,
                    AllocationFailed,
                    AskVersionsAgain,
                    Flush,
                    ReportHoldings,
                    ClaimAnswered,
                    ClaimTimedOut,
                    DryRunAnswered,
                    Resolve,
                    RevisionsStopped,
                    SnapshotSaved {}

    /** Reads one object at its latest committed state. */
    public record Get(String name, ActorRef<GetReply> replyTo) implements Command {}

    /**
     * Lists the objects named after {@code after} (from the first when null), in name order, up to
     * about {@code maxBytes} of JSON (at least one object): a page small enough to cross between
     * nodes.
     */
    public record ListObjects(String after, int maxBytes, ActorRef<Items> replyTo)
            implements Command {}

    /** Executes one write. */
    public record Write(WriteOp op, ActorRef<WriteResult> replyTo) implements Command {}

    /**
     * Internal: the versions for batch {@code batchId}, and the Revisions instance that gave them.
     */
    public record Allocated(long first, long batchId, ActorRef<Revisions.Command> from)
            implements Command {}

    /** Internal: Revisions did not answer batch {@code batchId} in time; that batch fails. */
    public record AllocationFailed(long batchId, String reason) implements Command {}

    /**
     * Internal: batch {@code batchId} has no versions yet: ask again through sharding (see {@link
     * #ASK_AGAIN}).
     */
    public record AskVersionsAgain(long batchId) implements Command {}

    /**
     * Revisions asks what became of versions {@code first..last}, allocated to this collection's
     * request {@code requestId}, because neither a commit nor an abandonment was reported in time
     * (the report was lost, or the entity that made the request died: then sharding has just
     * restarted this one from its journal). The answer is a {@link Revisions.Resolved}, or none
     * while that request is still in flight: its own report follows.
     */
    public record Resolve(
            long first, long last, long requestId, ActorRef<Revisions.Command> replyTo)
            implements Command {}

    /**
     * Internal: the Revisions instance asked directly stopped (its node left); ask through
     * sharding.
     */
    public record RevisionsStopped(ActorRef<Revisions.Command> instance) implements Command {}

    /**
     * Internal: the snapshot store's answer to the save at {@code sequenceNr}; {@code failure} null
     * on success.
     */
    public record SnapshotSaved(long sequenceNr, String failure) implements Command {}

    /** Internal: start the next batch if writes are queued. */
    public enum Flush implements Command {
        INSTANCE
    }

    /**
     * Asks which cluster-wide values the collection's stored objects hold, and which claim is in
     * flight (claimed, not yet settled or abandoned): what a {@link ValueAllocator} reconciles
     * against.
     */
    public record ReportHoldings(ActorRef<Holdings> replyTo) implements Command {}

    /** Internal: the allocator's answer to the batch's claim. */
    public record ClaimAnswered(ValueAllocator.Claimed reply) implements Command {}

    /** Internal: the allocator did not answer claim {@code claimId} in time. */
    public record ClaimTimedOut(String claimId) implements Command {}

    /** Internal: the allocator's evaluation of a dry run, or why there is none. */
    public record DryRunAnswered(String claimId, ValueAllocator.Claimed reply, String failure)
            implements Command {}

    // ---- replies ----

    /** The object's JSON, or {@code null} when it does not exist. */
    public record GetReply(byte[] object) implements CborSerializable {}

    /**
     * A page of objects' JSON, sorted by name, and {@link State#lastVersion}: the page reflects
     * every change of the collection up to it. {@code next} is the name to list after for the next
     * page, or null on the last page.
     */
    public record Items(List<byte[]> items, long lastVersion, String next)
            implements CborSerializable {}

    /**
     * @param held the {@link io.kubepekko.api.alloc.Claims#key keys} the stored objects hold
     * @param inFlight the claim whose batch is not yet settled or abandoned (at most one)
     */
    public record Holdings(List<String> held, List<String> inFlight) implements CborSerializable {}

    // ---- events ----

    /** Events of {@link CollectionEntity}; facts, never renamed. */
    public sealed interface Event extends CborSerializable permits ObjectChanged {}

    /**
     * One object changed at {@code resourceVersion}. {@code after} is its state after the change —
     * for a removal, its final state, which a DELETED watch event carries. {@code committedAt}
     * (epoch milliseconds, 0 in events written before it existed) is when the change was made: how
     * old a watch's missed history is, when it resumes from the journal.
     */
    public record ObjectChanged(
            long resourceVersion,
            String name,
            byte[] before,
            byte[] after,
            boolean removed,
            long committedAt)
            implements Event {

        /** The change as the ordered stream publishes it. */
        public PublishedEvent published(String namespace) {
            WatchEvent.Type type =
                    removed
                            ? WatchEvent.Type.DELETED
                            : before == null ? WatchEvent.Type.ADDED : WatchEvent.Type.MODIFIED;
            return new PublishedEvent(resourceVersion, namespace, name, type, after, before);
        }
    }

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

    public static Behavior<Command> create(
            CollectionId id,
            ResourceType type,
            ObjectWrites writes,
            Environment environment,
            RecipientRef<Revisions.Command> revisions) {
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
            RecipientRef<Revisions.Command> revisions,
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
            RecipientRef<Revisions.Command> revisions,
            CommittedObjects committed,
            RecipientRef<ValueAllocator.Command> allocator) {
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
            RecipientRef<Revisions.Command> revisions,
            CommittedObjects committed,
            RecipientRef<ValueAllocator.Command> allocator,
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
            RecipientRef<Revisions.Command> revisions,
            CommittedObjects committed,
            RecipientRef<ValueAllocator.Command> allocator,
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
    public State emptyState() {
        return State.EMPTY;
    }

    @Override
    public Set<String> tagsFor(Event event) {
        return Set.of(id.groupResource().toString());
    }

    @Override
    public SignalHandler<State> signalHandler() {
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
    public CommandHandlerWithReply<Command, Event, State> commandHandler() {
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
                                                new Holdings(
                                                        claims == null
                                                                ? List.of()
                                                                : claims.held(
                                                                        state.objects().values()),
                                                        batcher.claimInFlight() == null
                                                                ? List.of()
                                                                : List.of(
                                                                        batcher.claimInFlight()))))
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
    private ReplyEffect<Event, State> onWrite(State state, Write w) {
        if (batcher.queueFull()) {
            return Effect()
                    .reply(
                            w.replyTo(),
                            new Refused(
                                    ApiStatus.tooManyRequests(
                                            "too many requests are queued for "
                                                    + type.groupResource()
                                                    + ", please try again later",
                                            1)));
        }
        return persist(batcher.write(state, w));
    }

    private ReplyEffect<Event, State> onDryRunAnswered(State state, DryRunAnswered a) {
        ValueClaims.Verdict v = claims == null ? null : claims.evaluated(a);
        if (v == null) {
            return Effect().noReply();
        }
        return Effect()
                .reply(
                        v.write().write().replyTo(),
                        v.refusal() != null
                                ? new Refused(v.refusal())
                                : written(type, v.write().outcome(), 0, null));
    }

    /**
     * Answers Revisions about an allocation whose report it never got. A collection's versions grow
     * with every batch it persists, so when nothing at or above {@code first} is in the journal
     * (this incarnation recovered it all), the allocation was not persisted; and as its request is
     * not in flight, it never will be (a late allocation is given back on arrival). Otherwise the
     * journal may hold it, and the events of an earlier incarnation are not kept in memory:
     * Revisions then starts a new epoch and readers rebuild from the collections.
     */
    private ReplyEffect<Event, State> onResolve(State state, Resolve r) {
        if (batcher.awaitsReport(r.first(), r.requestId())) {
            // Revisions' answer is the batch's own Committed or Abandoned, which follows.
            return Effect().noReply();
        }
        return Effect()
                .reply(
                        r.replyTo(),
                        new Revisions.Resolved(
                                r.first(),
                                state.lastVersion() < r.first()
                                        ? Revisions.Resolution.NOT_PERSISTED
                                        : Revisions.Resolution.UNKNOWN));
    }

    /**
     * Writes the batch's events, if there is a batch to persist; once stored, readers (see {@link
     * CommittedObjects}), then Revisions, the allocator and the writers hear of it. Every other
     * reply of a write is deferred (see {@link WriteBatcher}): this command's effect is {@code
     * noReply}.
     */
    private ReplyEffect<Event, State> persist(BatchAction.Persist<Write, PendingWrite> batch) {
        if (batch == null) {
            return Effect().noReply();
        }
        long now = clock.millis();
        List<ObjectChanged> events = new ArrayList<>(batch.writes().size());
        for (PendingWrite p : batch.writes()) {
            events.add(p.changed(batch.first() + events.size(), now));
        }
        return Effect()
                .persist(List.<Event>copyOf(events))
                .thenRun(
                        s -> {
                            committed.publish(id.entityId(), this, s.objects());
                            batcher.persisted(events);
                            snapshots.saveIfDue(lastSequenceNumber(context), s);
                        })
                .thenNoReply();
    }

    /**
     * The reply to one write; {@code storedBytes}, when given, is the object's JSON as just
     * persisted.
     */
    static WriteResult written(
            ResourceType type, WriteOutcome outcome, long resourceVersion, byte[] storedBytes) {
        byte[] body =
                storedBytes != null && outcome.view() == WriteOutcome.ResponseView.OBJECT
                        ? storedBytes // the response is the stored object: no second serialization
                        : Json.bytes(Responses.render(type, outcome));
        return outcome.result(body, resourceVersion);
    }

    @Override
    public EventHandler<State, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent(State::apply);
    }

    // ---- type meta of recovered objects ----

    @Override
    public EventAdapter<Event, ?> eventAdapter() {
        return snapshots.countingReplays(typeMetaRepair.events());
    }

    @Override
    public SnapshotAdapter<State> snapshotAdapter() {
        return typeMetaRepair.snapshots();
    }

    /** Persists each object recovered with another type meta, repaired. */
    private void scheduleTypeMetaRewrites() {
        if (intake.rewrite(typeMetaRepair.drain())) {
            context.getSelf().tell(Flush.INSTANCE);
        }
    }
}
