package io.kubepekko.actors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.Responses;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.api.store.batch.BatchAction;
import io.kubepekko.api.store.batch.WriteBatch;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.persistence.CborSerializable;
import io.kubepekko.persistence.SnapshotInParts;
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

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The single writer of one collection (a group-resource in one namespace): its protocol and its
 * persistence. It holds the live objects as their JSON bytes and executes writes through the pure
 * pipeline in {@code api}.
 *
 * <p>Writes are batched ({@link WriteBatch}, the one value that says where the batch in flight is):
 * while one batch waits for its resourceVersions and its journal write, new writes queue up and go
 * together in the next batch, persisted atomically ({@link BatchIntake} says which writes join). The
 * queue is bounded: beyond {@link #MAX_QUEUE} writes the entity answers 429.
 *
 * <p>For kinds whose objects hold cluster-wide values ({@link ClusterValues}: a Service's cluster IP
 * and node ports), a batch first claims them ({@link ValueClaims}, built only for those kinds).
 * Versions come from {@link Revisions} ({@link RevisionsRoute}).
 *
 * <p>A write that would grow the stored objects past the {@link StorageQuota} is refused (507) before it
 * joins a batch; deletes, writes that do not grow the collection, and dry runs are never refused for it.
 *
 * <p>Replies: commands that carry a {@code replyTo} are answered through the effect, except a
 * {@link Write} that joins a batch: it is recorded in the {@link WriteBatch} value and answered when its
 * batch ends ({@link #deferred}). Internal commands carry no {@code replyTo}: their effect is
 * {@code noReply}.
 */
public final class CollectionEntity
        extends EventSourcedBehaviorWithEnforcedReplies<CollectionEntity.Command, CollectionEntity.Event, CollectionEntity.State> {

    public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Collection");

    static final int MAX_QUEUE = 10_000;
    static final int MAX_BATCH = 256;
    /** A commit report goes to Revisions in messages of about this many bytes of objects (see Committed#parts). */
    static final long COMMIT_PART_BYTES = 2L * 1024 * 1024;
    static final Duration ALLOCATE_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long a batch waits for its versions before asking again through sharding. An ask can be lost when
     * the Revisions instance's node dies: sent directly, or through a region that has not yet learnt that the
     * shard's home is gone (the death watch that re-asks races the region's own news). A second answer is
     * harmless: a batch takes the first, and gives the other back ({@link Revisions.Abandoned}).
     */
    static final Duration ASK_AGAIN = Duration.ofSeconds(1);

    // ---- state ----

    /**
     * The live objects of the collection by name, as stored JSON bytes, and the version of the last
     * change applied (a removal leaves no object behind to tell it).
     */
    public record State(TreePMap<String, byte[]> objects, long lastVersion) implements CborSerializable, SnapshotInParts {
        static final State EMPTY = new State(TreePMap.empty(), 0);

        @JsonCreator
        static State fromJson(@JsonProperty("objects") Map<String, byte[]> objects,
                              @JsonProperty("lastVersion") long lastVersion) {
            return new State(TreePMap.from(objects == null ? Map.of() : objects), lastVersion);
        }

        @JsonProperty("objects")
        Map<String, byte[]> objectsForJson() {
            return new TreeMap<>(objects);
        }

        State apply(Event event) {
            ObjectChanged c = (ObjectChanged) event;
            return new State(c.removed() ? objects.minus(c.name()) : objects.plus(c.name(), c.after()),
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
            permits Get, ListObjects, Write, Allocated, AllocationFailed, AskVersionsAgain, Flush, ReportHoldings,
            ClaimAnswered, ClaimTimedOut, DryRunAnswered, Resolve, RevisionsStopped, SnapshotSaved {}

    /** Reads one object at its latest committed state. */
    public record Get(String name, ActorRef<GetReply> replyTo) implements Command {}

    /**
     * Lists the objects named after {@code after} (from the first when null), in name order, up to about
     * {@code maxBytes} of JSON (at least one object): a page small enough to cross between nodes.
     */
    public record ListObjects(String after, int maxBytes, ActorRef<Items> replyTo) implements Command {}

    /** Executes one write. */
    public record Write(WriteOp op, ActorRef<WriteReply> replyTo) implements Command {}

    /** Internal: the versions for batch {@code batchId}, and the Revisions instance that gave them. */
    public record Allocated(long first, long batchId, ActorRef<Revisions.Command> from) implements Command {}

    /** Internal: Revisions did not answer batch {@code batchId} in time; that batch fails. */
    public record AllocationFailed(long batchId, String reason) implements Command {}

    /** Internal: batch {@code batchId} has no versions yet: ask again through sharding (see {@link #ASK_AGAIN}). */
    public record AskVersionsAgain(long batchId) implements Command {}

    /**
     * Revisions asks what became of versions {@code first..last}, allocated to this collection's request
     * {@code requestId}, because neither a commit nor an abandonment was reported in time (the report
     * was lost, or the entity that made the request died: then sharding has just restarted this one
     * from its journal). The answer is a {@link Revisions.Resolved}, or none while that request is
     * still in flight: its own report follows.
     */
    public record Resolve(long first, long last, long requestId, ActorRef<Revisions.Command> replyTo)
            implements Command {}

    /** Internal: the Revisions instance asked directly stopped (its node left); ask through sharding. */
    public record RevisionsStopped(ActorRef<Revisions.Command> instance) implements Command {}

    /** Internal: the snapshot store's answer to the save at {@code sequenceNr}; {@code failure} null on success. */
    public record SnapshotSaved(long sequenceNr, String failure) implements Command {}

    /** Internal: start the next batch if writes are queued. */
    public enum Flush implements Command { INSTANCE }

    /**
     * Asks which cluster-wide values the collection's stored objects hold, and which claim is in
     * flight (claimed, not yet settled or abandoned): what a {@link ValueAllocator} reconciles against.
     */
    public record ReportHoldings(ActorRef<Holdings> replyTo) implements Command {}

    /** Internal: the allocator's answer to the batch's claim. */
    public record ClaimAnswered(ValueAllocator.Claimed reply) implements Command {}

    /** Internal: the allocator did not answer claim {@code claimId} in time. */
    public record ClaimTimedOut(String claimId) implements Command {}

    /** Internal: the allocator's evaluation of a dry run, or why there is none. */
    public record DryRunAnswered(String claimId, ValueAllocator.Claimed reply, String failure) implements Command {}

    // ---- replies ----

    /** The object's JSON, or {@code null} when it does not exist. */
    public record GetReply(byte[] object) implements CborSerializable {}

    /**
     * A page of objects' JSON, sorted by name, and {@link State#lastVersion}: the page reflects every
     * change of the collection up to it. {@code next} is the name to list after for the next page, or
     * null on the last page.
     */
    public record Items(List<byte[]> items, long lastVersion, String next) implements CborSerializable {}

    /** The answer to a {@link Write}. */
    public sealed interface WriteReply extends CborSerializable permits Written, Refused {}

    /**
     * @param code            200, 201, or 202 (a delete that left the object in place after asking for cascading)
     * @param body            the response body's JSON
     * @param resourceVersion the version assigned, or 0 when nothing was persisted
     */
    public record Written(int code, byte[] body, List<String> warnings, long resourceVersion) implements WriteReply {}

    public record Refused(ApiStatus status) implements WriteReply {}

    /**
     * @param held     the {@link io.kubepekko.api.alloc.Claims#key keys} the stored objects hold
     * @param inFlight the claim whose batch is not yet settled or abandoned (at most one)
     */
    public record Holdings(List<String> held, List<String> inFlight) implements CborSerializable {}

    // ---- events ----

    /** Events of {@link CollectionEntity}; facts, never renamed. */
    public sealed interface Event extends CborSerializable permits ObjectChanged {}

    /**
     * One object changed at {@code resourceVersion}. {@code after} is its state after the change — for
     * a removal, its final state, which a DELETED watch event carries. {@code committedAt} (epoch
     * milliseconds, 0 in events written before it existed) is when the change was made: how old a
     * watch's missed history is, when it resumes from the journal.
     */
    public record ObjectChanged(long resourceVersion, String name, byte[] before, byte[] after, boolean removed,
                                long committedAt) implements Event {

        /** The change as the ordered stream publishes it. */
        public PublishedEvent published(String namespace) {
            WatchEvent.Type type = removed ? WatchEvent.Type.DELETED
                    : before == null ? WatchEvent.Type.ADDED : WatchEvent.Type.MODIFIED;
            return new PublishedEvent(resourceVersion, namespace, name, type, after, before);
        }
    }


    // ---- behaviour ----

    private final ActorContext<Command> context;
    private final CollectionId id;
    private final ResourceType type;
    private final CommittedObjects committed;
    private final StorageQuota quota;
    private final Clock clock;
    private final ActorRef<Revisions.Allocated> allocations;
    private final RevisionsRoute revisions;
    /** The kind's value claims, or null when its objects hold no cluster-wide values. */
    private final ValueClaims claims;
    private final BatchIntake intake;
    private final SnapshotSchedule snapshots;
    /** Repairs the type meta of recovered objects (see {@link TypeMetaRepair}). */
    private final TypeMetaRepair typeMetaRepair;
    /**
     * The queue and the batch in flight. Its first batch id is drawn at random, so that an answer or a
     * question about a request of an earlier incarnation of this collection never matches this one's.
     */
    private WriteBatch<Write, PendingWrite> batch = WriteBatch.idle(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2));
    /**
     * The quota reservations of the batch in flight: a handle on the {@link StorageQuota}, released
     * whenever {@link #batch} returns to idle.
     */
    private StorageQuota.Admission admission;

    public static Behavior<Command> create(CollectionId id, ResourceType type, ObjectWrites writes,
                                           Environment environment, RecipientRef<Revisions.Command> revisions) {
        return create(id, type, writes, environment, revisions, new CommittedObjects());
    }

    /** @param committed where this entity publishes its committed objects for message-free reads */
    public static Behavior<Command> create(CollectionId id, ResourceType type, ObjectWrites writes,
                                           Environment environment, RecipientRef<Revisions.Command> revisions,
                                           CommittedObjects committed) {
        return create(id, type, writes, environment, revisions, committed, null);
    }

    /**
     * @param allocator where the kind's cluster-wide values are claimed; required when the kind
     *                  declares {@link ClusterValues}, unused otherwise
     */
    public static Behavior<Command> create(CollectionId id, ResourceType type, ObjectWrites writes,
                                           Environment environment, RecipientRef<Revisions.Command> revisions,
                                           CommittedObjects committed, RecipientRef<ValueAllocator.Command> allocator) {
        return create(id, type, writes, environment, revisions, committed, allocator, StorageQuota.unlimited());
    }

    /** @param quota the storage quota writes are admitted against */
    public static Behavior<Command> create(CollectionId id, ResourceType type, ObjectWrites writes,
                                           Environment environment, RecipientRef<Revisions.Command> revisions,
                                           CommittedObjects committed, RecipientRef<ValueAllocator.Command> allocator,
                                           StorageQuota quota) {
        if (type.strategy().clusterValues() != null && allocator == null) {
            throw new IllegalArgumentException(type.groupResource() + " holds cluster-wide values: an allocator is required");
        }
        return Behaviors.setup(ctx -> new CollectionEntity(ctx, id, type, writes, environment, revisions, committed,
                allocator, quota));
    }

    private CollectionEntity(ActorContext<Command> context, CollectionId id, ResourceType type, ObjectWrites writes,
                             Environment environment, RecipientRef<Revisions.Command> revisions,
                             CommittedObjects committed, RecipientRef<ValueAllocator.Command> allocator,
                             StorageQuota quota) {
        super(PersistenceId.of("Collection", id.entityId()),
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2));
        this.context = context;
        this.id = id;
        this.type = type;
        this.committed = committed;
        this.quota = quota;
        this.clock = environment.clock();
        this.allocations = context.messageAdapter(Revisions.Allocated.class,
                a -> new Allocated(a.first(), a.requestId(), a.from()));
        this.revisions = new RevisionsRoute(context, revisions);
        this.claims = ValueClaims.forKind(context, id.entityId(), type, allocator);
        this.intake = new BatchIntake(context, id, type, writes, environment, claims);
        this.typeMetaRepair = new TypeMetaRepair(type.gvk());
        this.snapshots = new SnapshotSchedule(new BackgroundSnapshots(context, persistenceId().id(), snapshotPluginId(),
                SnapshotSaved::new), environment.random());
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
                .onSignal(RecoveryCompleted.instance(), state -> {
                    snapshots.recovered(lastSequenceNumber(context), state.objects().size());
                    committed.publish(id.entityId(), this, state.objects());
                    scheduleTypeMetaRewrites();
                })
                .onSignal(PreRestart.instance(), state -> {
                    committed.withdraw(id.entityId(), this);
                    snapshots.restarting();
                    typeMetaRepair.drain();
                    intake.forgetRewrites();
                    failOutstanding("the storage write failed");
                })
                .onSignal(PostStop.instance(), state -> {
                    committed.withdraw(id.entityId(), this);
                    failOutstanding("the collection stopped");
                })
                .build();
    }

    @Override
    public CommandHandlerWithReply<Command, Event, State> commandHandler() {
        return newCommandHandlerWithReplyBuilder().forAnyState()
                .onCommand(Get.class, (state, c) ->
                        Effect().reply(c.replyTo(), new GetReply(state.objects().get(c.name()))))
                .onCommand(ListObjects.class, this::onList)
                .onCommand(ReportHoldings.class, (state, c) -> Effect().reply(c.replyTo(), new Holdings(
                        claims == null ? List.of() : claims.held(state.objects().values()),
                        batch.claimInFlight() == null ? List.of() : List.of(batch.claimInFlight()))))
                .onCommand(Resolve.class, this::onResolve)
                .onCommand(Write.class, this::onWrite)
                .onCommand(Flush.class, (state, c) -> batch.inFlight() ? Effect().noReply() : startBatch(state))
                .onCommand(ClaimAnswered.class, this::onClaimAnswered)
                .onCommand(ClaimTimedOut.class, (state, c) -> run(batch.claimFailed(c.claimId(),
                        ValueClaims.cannotAllocate(type, "the value allocator did not answer within "
                                + ALLOCATE_TIMEOUT.toSeconds() + "s"))))
                .onCommand(DryRunAnswered.class, this::onDryRunAnswered)
                .onCommand(Allocated.class, (state, a) -> {
                    if (a.first() == Revisions.Allocated.MOVING) {
                        // That instance is handing over: ask through sharding, which delivers to its successor.
                        revisions.forget();
                        return run(batch.moving(a.batchId()));
                    }
                    return run(batch.allocated(a.batchId(), a.first()), a.from());
                })
                .onCommand(RevisionsStopped.class, (state, c) ->
                        // The ask may have died with it: ask its successor rather than wait for the timeout.
                        // Should both answer, the second finds the batch allocated and is given back.
                        revisions.stopped(c.instance()) ? run(batch.revisionsStopped()) : Effect().noReply())
                .onCommand(AskVersionsAgain.class, (state, c) -> {
                    WriteBatch.Step<Write, PendingWrite> step = batch.askAgain(c.batchId());
                    if (!(step.action() instanceof BatchAction.Nothing)) {
                        revisions.forget();
                    }
                    return run(step);
                })
                .onCommand(AllocationFailed.class, (state, c) -> {
                    WriteBatch.Step<Write, PendingWrite> step = batch.allocationFailed(c.batchId(),
                            storageUnavailable("could not allocate a resourceVersion: " + c.reason()));
                    if (!(step.action() instanceof BatchAction.Nothing)) {
                        revisions.forget();
                    }
                    return run(step);
                })
                .onCommand(SnapshotSaved.class, (state, c) -> {
                    snapshots.saved();
                    if (c.failure() != null) {
                        // Only recovery time suffers; the next snapshot is due an interval later, as if this
                        // one had been saved (a state too large to save must not be retried on every write).
                        context.getLog().warn("{}: saving the snapshot at {} failed: {}", id.entityId(),
                                c.sequenceNr(), c.failure());
                    }
                    return Effect().noReply();
                })
                .build();
    }

    private ReplyEffect<Event, State> onList(State state, ListObjects c) {
        var from = c.after() == null ? state.objects() : state.objects().tailMap(c.after(), false);
        List<byte[]> out = new ArrayList<>();
        long bytes = 0;
        String last = null;
        for (Map.Entry<String, byte[]> e : from.entrySet()) {
            if (!out.isEmpty() && bytes + e.getValue().length > c.maxBytes()) {
                return Effect().reply(c.replyTo(), new Items(out, state.lastVersion(), last));
            }
            out.add(e.getValue());
            bytes += e.getValue().length;
            last = e.getKey();
        }
        return Effect().reply(c.replyTo(), new Items(out, state.lastVersion(), null));
    }

    private ReplyEffect<Event, State> onWrite(State state, Write w) {
        if (batch.queued().size() >= MAX_QUEUE) {
            return Effect().reply(w.replyTo(), new Refused(ApiStatus.tooManyRequests(
                    "too many requests are queued for " + type.groupResource() + ", please try again later", 1)));
        }
        batch = batch.enqueue(w);
        return batch.inFlight() ? deferred() : startBatch(state);
    }

    /**
     * The reply to a {@link Write} that joined the queue: recorded in {@link #batch}, it is sent when the
     * write's batch ends, or at once by {@link #startBatch} when the write needs no journal write. One
     * journal write answers up to {@link #MAX_BATCH} writers, which an effect's single reply cannot carry,
     * so those answers are sent by the effect's side effects ({@link #answer}).
     */
    private ReplyEffect<Event, State> deferred() {
        return Effect().noReply();
    }

    /** Takes queued writes into a batch; refusals and no-ops answer at once, the rest claim values or ask for versions. */
    private ReplyEffect<Event, State> startBatch(State state) {
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
        answers.forEach(BatchIntake.Answer::send); // deferred replies: see #deferred
        boolean claim = taken.batch().stream().anyMatch(p -> !p.plan().isEmpty());
        return run(batch.start(taken.batch(), claim ? ValueClaims.newClaimId() : null,
                revisions.knowsInstance()));
    }

    /**
     * Granted writes get their values filled in; refused ones answer the kind's error and leave the
     * batch (no later write of the batch depends on them: a write to the same object waits for the
     * next batch). What is left asks for its versions.
     */
    private ReplyEffect<Event, State> onClaimAnswered(State state, ClaimAnswered a) {
        ValueAllocator.Claimed reply = a.reply();
        if (!batch.awaitsClaim(reply.claimId())) {
            return run(batch.lateClaim(reply.claimId()));
        }
        if (reply.unavailable() != null) {
            return run(batch.claimFailed(reply.claimId(), ValueClaims.cannotAllocate(type, reply.unavailable())));
        }
        ValueClaims.Granted granted = claims.split(reply, batch.writes());
        granted.refused().forEach(r -> answer(r.write(), new Refused(r.status())));
        return run(batch.granted(granted.kept(), revisions.knowsInstance()));
    }

    private ReplyEffect<Event, State> onDryRunAnswered(State state, DryRunAnswered a) {
        ValueClaims.Verdict v = claims.evaluated(a);
        if (v == null) {
            return Effect().noReply();
        }
        return Effect().reply(v.write().write().replyTo(), v.refusal() != null ? new Refused(v.refusal())
                : written(type, v.write().outcome(), 0, null));
    }

    /**
     * Answers Revisions about an allocation whose report it never got. A collection's versions grow with
     * every batch it persists, so when nothing at or above {@code first} is in the journal (this
     * incarnation recovered it all), the allocation was not persisted; and as its request is not in
     * flight, it never will be (a late allocation is given back on arrival). Otherwise the journal may
     * hold it, and the events of an earlier incarnation are not kept in memory: Revisions then starts a
     * new epoch and readers rebuild from the collections.
     */
    private ReplyEffect<Event, State> onResolve(State state, Resolve r) {
        if (batch.awaitsReport(r.first(), r.requestId())) {
            // Revisions' answer is the batch's own Committed or Abandoned, which follows.
            return Effect().noReply();
        }
        return Effect().reply(r.replyTo(), new Revisions.Resolved(r.first(), state.lastVersion() < r.first()
                ? Revisions.Resolution.NOT_PERSISTED : Revisions.Resolution.UNKNOWN));
    }

    /** Takes the next batch value and performs what the transition says. */
    private ReplyEffect<Event, State> run(WriteBatch.Step<Write, PendingWrite> step) {
        return run(step, null);
    }

    /** @param from the Revisions instance whose allocation the step is about, or null */
    private ReplyEffect<Event, State> run(WriteBatch.Step<Write, PendingWrite> step, ActorRef<Revisions.Command> from) {
        BatchAction<Write, PendingWrite> action = advance(step);
        if (action instanceof BatchAction.Persist<Write, PendingWrite> p) {
            revisions.answeredBy(from);
            return persist(p.first(), p.writes());
        }
        if (action instanceof BatchAction.GiveBack<Write, PendingWrite> g) {
            // A late answer for a batch that already failed, or a second one: those versions stay unused
            // (gaps are fine), and Revisions must not wait for them.
            from.tell(new Revisions.Abandoned(g.first()));
        } else {
            perform(action);
        }
        return Effect().noReply();
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

    private void perform(BatchAction<Write, PendingWrite> action) {
        if (action instanceof BatchAction.ClaimValues<Write, PendingWrite> c) {
            claims.claim(c.claimId(), c.writes());
        } else if (action instanceof BatchAction.AskVersions<Write, PendingWrite> a) {
            revisions.ask(new Revisions.Allocate(a.count(), id.namespace(), a.batchId(), allocations), a.direct());
            if (a.startTimeout()) {
                context.scheduleOnce(ALLOCATE_TIMEOUT, context.getSelf(),
                        new AllocationFailed(a.batchId(), "no answer within " + ALLOCATE_TIMEOUT.toSeconds() + "s"));
            }
            if (a.askAgainLater()) {
                context.scheduleOnce(ASK_AGAIN, context.getSelf(), new AskVersionsAgain(a.batchId()));
            }
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
                context.getSelf().tell(Flush.INSTANCE);
            }
        } else if (action instanceof BatchAction.Next<Write, PendingWrite>) {
            context.getSelf().tell(Flush.INSTANCE);
        } else if (!(action instanceof BatchAction.Nothing<Write, PendingWrite>)) {
            throw new IllegalStateException("not performed here: " + action);
        }
    }

    /** Writes the batch's events; once stored, readers, Revisions and the allocator hear of it before any writer. */
    private ReplyEffect<Event, State> persist(long first, List<PendingWrite> writes) {
        List<Event> events = new ArrayList<>(writes.size());
        long rv = first;
        long now = clock.millis();
        for (PendingWrite p : writes) {
            ObjectNode after = p.outcome().after();
            ObjectMeta.of(after).put("resourceVersion", Long.toString(rv));
            byte[] before = p.outcome().before() == null ? null : Json.bytes(p.outcome().before());
            events.add(new ObjectChanged(rv, ObjectMeta.name(after), before, Json.bytes(after), p.outcome().removes(),
                    now));
            rv++;
        }
        return Effect().persist(events).thenRun(s -> {
            // Published before any writer hears of its write: see CommittedObjects.
            committed.publish(id.entityId(), this, s.objects());
            // Revisions hears of the commit before any writer does, so a list that a writer starts after
            // its acknowledgement already counts this version as committed.
            List<PublishedEvent> published = new ArrayList<>(events.size());
            events.forEach(e -> published.add(((ObjectChanged) e).published(id.namespace())));
            Revisions.Committed.parts(first, published, COMMIT_PART_BYTES).forEach(revisions::tell);
            finish((BatchAction.Finish<Write, PendingWrite>) advance(batch.persisted()), events);
            snapshots.saveIfDue(lastSequenceNumber(context), s);
        }).thenNoReply();
    }

    /** The batch is stored: the allocator, then each writer hears of it; queued writes go on. */
    private void finish(BatchAction.Finish<Write, PendingWrite> f, List<Event> events) {
        if (claims != null) {
            // The allocator hears of the values kept and freed before any writer hears of its write, so
            // a client that deletes a Service and then asks for its IP gets it.
            claims.settle(f.claimId(), f.writes());
        }
        for (int i = 0; i < f.writes().size(); i++) {
            PendingWrite p = f.writes().get(i);
            answer(p, written(type, p.outcome(), f.first() + i, ((ObjectChanged) events.get(i)).after()));
        }
        if (f.more() || intake.hasRewrites()) {
            context.getSelf().tell(Flush.INSTANCE);
        }
    }

    /** Sends a deferred reply to a write of the batch (see {@link #deferred}). */
    private static void answer(PendingWrite p, WriteReply reply) {
        p.write().replyTo().tell(reply);
    }

    /** The reply to one write; {@code storedBytes}, when given, is the object's JSON as just persisted. */
    static Written written(ResourceType type, WriteOutcome outcome, long resourceVersion, byte[] storedBytes) {
        int code = outcome.code();
        byte[] body = storedBytes != null && outcome.view() == WriteOutcome.ResponseView.OBJECT
                ? storedBytes // the response is the stored object: no second serialization
                : Json.bytes(Responses.render(type, outcome));
        return new Written(code, body, outcome.warnings(), resourceVersion);
    }

    private String storageUnavailable(String why) {
        return "storage unavailable for " + type.groupResource() + ": " + why;
    }

    /**
     * Answers every write that can no longer complete; a refusal, never a false success. A batch whose
     * journal write failed may be stored all the same (a write that timed out can still land): it is not
     * reported abandoned. Revisions asks about it once it is overdue ({@link Resolve}), and the collection,
     * recovered from its journal, answers from what is stored.
     */
    private void failOutstanding(String why) {
        perform(advance(batch.failAll(storageUnavailable(why))));
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

    /** Logs each object recovered with another type meta, once, and persists it repaired. */
    private void scheduleTypeMetaRewrites() {
        Map<String, String> repaired = typeMetaRepair.drain();
        if (repaired.isEmpty()) {
            return;
        }
        repaired.forEach((name, found) -> context.getLog().warn(
                "{}: the stored object {} had {} instead of {} {}; it is served and rewritten as the collection's kind",
                id.entityId(), name, found, type.apiVersion(), type.kind()));
        intake.rewrite(repaired.keySet());
        context.getSelf().tell(Flush.INSTANCE);
    }
}
