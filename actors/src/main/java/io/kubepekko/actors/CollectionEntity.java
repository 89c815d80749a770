package io.kubepekko.actors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.alloc.ValuePlan;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.Responses;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteDecision;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.store.WriteResult.Refused;
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
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.EventAdapter;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;
import org.pcollections.TreePMap;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The single writer of one collection (a group-resource in one namespace). It holds the live objects
 * as their JSON bytes and executes writes through the pure pipeline in {@code api}.
 *
 * <p>Writes are batched: while one batch waits for its resourceVersions and its journal write, new
 * writes queue up and go together in the next batch, persisted atomically. Each write in a batch sees
 * the outcome of the ones before it, so uniqueness and preconditions hold as if they ran one by one.
 * A write to an object that an earlier write of the batch changes waits for the next batch: its
 * answer, its preconditions and its event's {@code before} must see that change committed, with its
 * resourceVersion.
 * The queue is bounded: beyond {@link #MAX_QUEUE} writes the entity answers 429.
 *
 * <p>For kinds whose objects hold cluster-wide values ({@link ClusterValues}: a Service's cluster IP
 * and node ports), a batch first claims what its writes plan from the {@link ValueAllocator}; a
 * write whose claim is refused answers the kind's error and leaves the batch. Once the batch is
 * persisted the entity settles the claim (and releases what its objects stopped holding) before it
 * answers anyone; a batch that fails abandons it. Dry runs ask the allocator to evaluate only.
 *
 * <p>A write that would grow the stored objects past the {@link StorageQuota} is refused (507) before it
 * joins a batch; deletes, writes that do not grow the collection, and dry runs are never refused for it.
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
        public java.util.Iterator<CollectionSnapshotParts.Part> parts(long maxBytes) {
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
    public record Write(WriteOp op, ActorRef<WriteResult> replyTo) implements Command {}

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

    private record Pending(Write write, WriteOutcome outcome, ValuePlan plan) {}

    /** A dry run waiting for the allocator's evaluation of its plan. */
    private record DryRun(Write write, WriteOutcome outcome, ValuePlan plan) {}

    private final ActorContext<Command> context;
    private final CollectionId id;
    private final ResourceType type;
    private final ObjectWrites writes;
    private final Environment environment;
    private final RecipientRef<Revisions.Command> revisions;
    private final CommittedObjects committed;
    /** The kind's cluster-wide values, or null; then {@link #allocator} is unused. */
    private final ClusterValues values;
    private final RecipientRef<ValueAllocator.Command> allocator;
    private final ActorRef<ValueAllocator.Claimed> claims;
    private final StorageQuota quota;
    /** The quota reservations of the batch in flight; released when it ends. */
    private StorageQuota.Admission admission;
    /** The claim of the batch in flight, from its sending until it is settled or abandoned; else null. */
    private String claimId;
    private boolean awaitingClaim;
    private org.apache.pekko.actor.Cancellable claimTimeout;
    private final Map<String, DryRun> dryRuns = new HashMap<>();
    private final ArrayDeque<Write> queue = new ArrayDeque<>();
    private final ActorRef<Revisions.Allocated> allocations;
    private List<Pending> inFlight;
    /**
     * Starts at random, so that an answer or a question about a request of an earlier incarnation of this
     * collection never matches one of this incarnation.
     */
    private long batchId = java.util.concurrent.ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2);
    private org.apache.pekko.actor.Cancellable allocationTimeout;
    /**
     * The Revisions instance that answered last: asked directly, which saves the two sharding hops
     * per batch. Forgotten when it does not answer in time, so a moved instance is found again
     * through sharding.
     */
    private ActorRef<Revisions.Command> directRevisions;
    /** Whether the batch in flight waits for versions asked of {@link #directRevisions}. */
    private boolean askedDirectly;
    /** The first version allocated to the batch being persisted, or 0. */
    private long allocatedFirst;
    private long lastSnapshotSeqNr;
    /** The objects the last snapshot held (estimated from below after a recovery). */
    private int lastSnapshotObjects;
    /**
     * How much later than "as many events as objects" the next snapshot comes: drawn in [1, 2) for each
     * snapshot, so that collections that grow in step (a client spreading its writes over namespaces) do
     * not all snapshot at once, queueing their saves behind each other in the snapshot store.
     */
    private double snapshotSpread;
    private final BackgroundSnapshots snapshots;
    /** Events applied by this incarnation; at recovery's end, those replayed after the snapshot. */
    private long eventsApplied;
    /** Repairs the type meta of recovered objects (see {@link TypeMetaRepair}). */
    private final TypeMetaRepair typeMetaRepair;
    /** Objects repaired at recovery, still to be persisted as they are now. */
    private final ArrayDeque<String> rewrites = new ArrayDeque<>();

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
        this.writes = writes;
        this.environment = environment;
        this.revisions = revisions;
        this.committed = committed;
        this.allocations = context.messageAdapter(Revisions.Allocated.class,
                a -> new Allocated(a.first(), a.requestId(), a.from()));
        this.values = type.strategy().clusterValues();
        this.allocator = allocator;
        this.claims = context.messageAdapter(ValueAllocator.Claimed.class, ClaimAnswered::new);
        this.quota = quota;
        this.typeMetaRepair = new TypeMetaRepair(type.gvk());
        this.snapshotSpread = drawSnapshotSpread();
        this.snapshots = new BackgroundSnapshots(context, persistenceId().id(), snapshotPluginId(), SnapshotSaved::new);
    }

    @Override
    public State emptyState() {
        return State.EMPTY;
    }

    @Override
    public Set<String> tagsFor(Event event) {
        return Set.of(id.groupResource().toString());
    }

    /**
     * Snapshots {@code state}, whose events are all persisted, once the events since the last snapshot
     * outnumber the objects that snapshot held (and at least 1000) times {@link #snapshotSpread}: a restart
     * loads the last snapshot and replays at most about twice as many events as it held objects, and each
     * snapshot's cost is spread over about as many writes as it has objects. (Counted against the live
     * objects instead, a collection that only grows never snapshots: its replay after a failover was all of
     * its history.) Saved in the background (not through Pekko's {@code shouldSnapshot}, which stops the
     * collection's writes until the save is done); while one save is in flight, the next waits for the first
     * write after it.
     */
    private void snapshotIfDue(State state) {
        long sequenceNr = lastSequenceNumber(context);
        if (!snapshots.saving()
                && sequenceNr - lastSnapshotSeqNr >= snapshotSpread * Math.max(1000, lastSnapshotObjects)) {
            snapshots.save(sequenceNr, state);
            lastSnapshotSeqNr = sequenceNr;
            lastSnapshotObjects = state.objects().size();
            snapshotSpread = drawSnapshotSpread();
        }
    }

    private double drawSnapshotSpread() {
        return 1 + environment.random().nextDouble();
    }

    @Override
    public SignalHandler<State> signalHandler() {
        return newSignalHandlerBuilder()
                // The events replayed after the snapshot count towards the next one, or an entity that
                // restarts (passivation) before each thousandth event would never snapshot.
                .onSignal(RecoveryCompleted.instance(), state -> {
                    lastSnapshotSeqNr = lastSequenceNumber(context) - eventsApplied;
                    // Each replayed event added at most one object.
                    lastSnapshotObjects = (int) Math.max(0, state.objects().size() - eventsApplied);
                    committed.publish(id.entityId(), this, state.objects());
                    scheduleTypeMetaRewrites();
                })
                .onSignal(PreRestart.instance(), state -> {
                    committed.withdraw(id.entityId(), this);
                    snapshots.forget();
                    eventsApplied = 0;
                    typeMetaRepair.drain();
                    rewrites.clear();
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
                .onCommand(Write.class, this::onWrite)
                .onCommand(Flush.class, (state, c) -> inFlight == null ? startBatch(state) : Effect().noReply())
                .onCommand(SnapshotSaved.class, (state, c) -> {
                    snapshots.forget();
                    if (c.failure() != null) {
                        // Only recovery time suffers; the next snapshot is due an interval later, as if this
                        // one had been saved (a state too large to save must not be retried on every write).
                        context.getLog().warn("{}: saving the snapshot at {} failed: {}", id.entityId(),
                                c.sequenceNr(), c.failure());
                    }
                    return Effect().noReply();
                })
                .onCommand(Allocated.class, this::onAllocated)
                .onCommand(ReportHoldings.class, this::onReportHoldings)
                .onCommand(ClaimAnswered.class, this::onClaimAnswered)
                .onCommand(ClaimTimedOut.class, (state, c) -> {
                    if (awaitingClaim && c.claimId().equals(claimId)) {
                        failBatch("the value allocator did not answer within " + ALLOCATE_TIMEOUT.toSeconds() + "s");
                    }
                    return Effect().noReply();
                })
                .onCommand(DryRunAnswered.class, this::onDryRunAnswered)
                .onCommand(Resolve.class, this::onResolve)
                .onCommand(RevisionsStopped.class, (state, c) -> {
                    if (c.instance().equals(directRevisions)) {
                        directRevisions = null;
                        if (askedDirectly) {
                            // The ask may have died with it: ask its successor rather than wait for the timeout.
                            // Should both answer, the second finds the batch allocated and is abandoned.
                            askedDirectly = false;
                            revisions.tell(new Revisions.Allocate(inFlight.size(), id.namespace(), batchId,
                                    allocations));
                        }
                    }
                    return Effect().noReply();
                })
                .onCommand(AskVersionsAgain.class, (state, c) -> {
                    if (inFlight != null && c.batchId() == batchId && allocatedFirst == 0) {
                        directRevisions = null;
                        askedDirectly = false;
                        revisions.tell(new Revisions.Allocate(inFlight.size(), id.namespace(), batchId, allocations));
                        context.scheduleOnce(ASK_AGAIN, context.getSelf(), new AskVersionsAgain(batchId));
                    }
                    return Effect().noReply();
                })
                .onCommand(AllocationFailed.class, (state, c) -> {
                    if (inFlight != null && c.batchId() == batchId) {
                        directRevisions = null;
                        askedDirectly = false;
                        failOutstanding("could not allocate a resourceVersion: " + c.reason());
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
        if (queue.size() >= MAX_QUEUE) {
            w.replyTo().tell(new Refused(ApiStatus.tooManyRequests(
                    "too many requests are queued for " + type.groupResource() + ", please try again later", 1)));
            return Effect().noReply();
        }
        queue.add(w);
        return inFlight == null ? startBatch(state) : Effect().noReply();
    }

    /** Runs queued writes through the pipeline; refusals and no-ops answer at once, the rest ask for versions. */
    private ReplyEffect<Event, State> startBatch(State state) {
        Map<String, ObjectNode> overlay = new HashMap<>();
        Function<String, ObjectNode> lookup = name -> {
            if (overlay.containsKey(name)) {
                ObjectNode o = overlay.get(name);
                return o == null ? null : o.deepCopy();
            }
            byte[] stored = state.objects().get(name);
            return stored == null ? null : Json.parseTrusted(stored);
        };
        List<Pending> pending = new ArrayList<>();
        ObjectWrites.Env env = environment.env();
        while (!rewrites.isEmpty() && pending.size() < MAX_BATCH) {
            Pending rewrite = typeMetaRewrite(state, rewrites.poll());
            if (rewrite != null) {
                overlay.put(ObjectMeta.name(rewrite.outcome().after()), rewrite.outcome().after());
                pending.add(rewrite);
            }
        }
        admission = quota.admission();
        while (!queue.isEmpty() && pending.size() < MAX_BATCH) {
            if (overlay.containsKey(queue.peek().op().targetName())) {
                break; // it must see that earlier write committed (see the class comment)
            }
            Write w = queue.poll();
            WriteOutcome outcome;
            ValuePlan plan = ValuePlan.NONE;
            try {
                WriteDecision decision = writes.execute(type, id.namespace(), lookup, w.op(), env);
                if (decision instanceof Refused refused) {
                    w.replyTo().tell(refused);
                    continue;
                }
                outcome = (WriteOutcome) decision;
                if (outcome.changed() && !w.op().options().dryRun() && !(w.op() instanceof WriteOp.Delete)
                        && !outcome.removes()) {
                    admission.admit(() -> growth(state, outcome));
                }
                if (values != null && outcome.changed() && !outcome.removes() && !isSubresourceWrite(w.op())) {
                    plan = values.plan(outcome.before(), outcome.after());
                }
            } catch (ApiException e) {
                // The storage quota's admission (507) and a Service's values plan (422) refuse by exception.
                w.replyTo().tell(new Refused(e.status()));
                continue;
            } catch (RuntimeException e) {
                context.getLog().error("write to {} failed unexpectedly", id.entityId(), e);
                w.replyTo().tell(new Refused(ApiStatus.internal(String.valueOf(e.getMessage()))));
                continue;
            }
            if (w.op().options().dryRun() && !plan.isEmpty()) {
                evaluateDryRun(new DryRun(w, outcome, plan));
                continue;
            }
            if (!outcome.changed() || w.op().options().dryRun()) {
                w.replyTo().tell(written(outcome, 0, null));
                continue;
            }
            String name = ObjectMeta.name(outcome.after());
            overlay.put(name, outcome.removes() ? null : outcome.after());
            pending.add(new Pending(w, outcome, plan));
        }
        if (pending.isEmpty()) {
            endAdmission();
            return Effect().noReply();
        }
        inFlight = pending;
        batchId++;
        if (pending.stream().anyMatch(p -> !p.plan().isEmpty())) {
            claimValues(pending);
            return Effect().noReply();
        }
        askVersions(pending.size());
        return Effect().noReply();
    }

    /** Ends the quota reservations of the batch in flight (committed, failed, or left empty). */
    private void endAdmission() {
        if (admission != null) {
            admission.release();
            admission = null;
        }
    }

    /**
     * How many bytes a write adds to the stored objects (negative when it shrinks them), for the
     * {@link StorageQuota}: measured only near the quota. Deletes are never asked, even those that only mark
     * their object terminating: they must work on a full server.
     */
    private static long growth(State state, WriteOutcome outcome) {
        byte[] stored = state.objects().get(ObjectMeta.name(outcome.after()));
        return Json.bytes(outcome.after()).length - (stored == null ? 0 : stored.length);
    }

    /** Writes through a subresource ({@code /status}, {@code /scale}, {@code /binding}) never claim values. */
    private static boolean isSubresourceWrite(WriteOp op) {
        return (op instanceof WriteOp.Update u && u.subresource() != null)
                || (op instanceof WriteOp.Patch p && p.subresource() != null)
                || op instanceof WriteOp.CreateSubresource;
    }

    /** Claims every write's planned values in one message; the answer continues the batch. */
    private void claimValues(List<Pending> batch) {
        claimId = java.util.UUID.randomUUID().toString();
        awaitingClaim = true;
        List<List<ValueRequest>> requests = batch.stream().map(p -> p.plan().requests()).toList();
        allocator.tell(new ValueAllocator.Claim(id.entityId(), claimId, requests, false, claims));
        claimTimeout = context.scheduleOnce(ALLOCATE_TIMEOUT, context.getSelf(), new ClaimTimedOut(claimId));
    }

    /**
     * Granted writes get their values filled in; refused ones answer the kind's error and leave the
     * batch (no later write of the batch depends on them: a write to the same object waits for the
     * next batch). What is left asks for its versions.
     */
    private ReplyEffect<Event, State> onClaimAnswered(State state, ClaimAnswered a) {
        ValueAllocator.Claimed reply = a.reply();
        if (!awaitingClaim || !reply.claimId().equals(claimId)) {
            // The batch failed meanwhile: whatever was granted is not going to be stored.
            allocator.tell(new ValueAllocator.Abandon(id.entityId(), reply.claimId()));
            return Effect().noReply();
        }
        awaitingClaim = false;
        claimTimeout.cancel();
        if (reply.unavailable() != null) {
            failBatch(reply.unavailable());
            return Effect().noReply();
        }
        List<Pending> kept = new ArrayList<>(inFlight.size());
        for (int i = 0; i < inFlight.size(); i++) {
            Pending p = inFlight.get(i);
            ClaimResult r = reply.results().get(i);
            if (p.plan().isEmpty() || r.isGranted()) {
                if (!p.plan().isEmpty()) {
                    values.fill(p.outcome().after(), p.plan(), r.granted());
                }
                kept.add(p);
            } else {
                p.write().replyTo().tell(new Refused(
                        values.refused(p.outcome().after(), p.plan(), r.refusedIndex(), r.refusal())));
            }
        }
        if (kept.isEmpty()) {
            // Nothing was granted, so nothing is held: the claim needs no settling.
            claimId = null;
            inFlight = null;
            endAdmission();
            context.getSelf().tell(Flush.INSTANCE);
            return Effect().noReply();
        }
        inFlight = kept;
        askVersions(kept.size());
        return Effect().noReply();
    }

    /** Answers the writes of the batch in flight with 503 and abandons its claim; queued writes go on. */
    private void failBatch(String why) {
        ApiStatus status = ApiStatus.serviceUnavailable("cannot allocate values for " + type.groupResource() + ": " + why);
        inFlight.forEach(p -> p.write().replyTo().tell(new Refused(status)));
        inFlight = null;
        endAdmission();
        awaitingClaim = false;
        abandonClaim();
        context.getSelf().tell(Flush.INSTANCE);
    }

    private void abandonClaim() {
        if (claimId != null) {
            allocator.tell(new ValueAllocator.Abandon(id.entityId(), claimId));
            claimId = null;
        }
    }

    private void evaluateDryRun(DryRun d) {
        if (dryRuns.size() >= MAX_QUEUE) {
            d.write().replyTo().tell(new Refused(ApiStatus.tooManyRequests(
                    "too many dry runs are waiting for " + type.groupResource() + ", please try again later", 1)));
            return;
        }
        String key = java.util.UUID.randomUUID().toString();
        dryRuns.put(key, d);
        context.ask(ValueAllocator.Claimed.class, allocator, ALLOCATE_TIMEOUT,
                r -> new ValueAllocator.Claim(id.entityId(), key, List.of(d.plan().requests()), true, r),
                (reply, failure) -> new DryRunAnswered(key, reply, failure == null ? null : String.valueOf(failure)));
    }

    /** A dry run answers with the values Kubernetes' dry-run allocators show, or the refusal it would get. */
    private ReplyEffect<Event, State> onDryRunAnswered(State state, DryRunAnswered a) {
        DryRun d = dryRuns.remove(a.claimId());
        if (d == null) {
            return Effect().noReply();
        }
        ValueAllocator.Claimed reply = a.reply();
        if (reply == null || reply.unavailable() != null) {
            String why = reply == null ? a.failure() : reply.unavailable();
            d.write().replyTo().tell(new Refused(ApiStatus.serviceUnavailable(
                    "cannot allocate values for " + type.groupResource() + ": " + why)));
            return Effect().noReply();
        }
        ClaimResult r = reply.results().get(0);
        if (!r.isGranted()) {
            d.write().replyTo().tell(new Refused(values.refused(d.outcome().after(), d.plan(), r.refusedIndex(),
                    r.refusal())));
            return Effect().noReply();
        }
        values.fill(d.outcome().after(), d.plan(), r.granted());
        d.write().replyTo().tell(written(d.outcome(), 0, null));
        return Effect().noReply();
    }

    /** The collection's holdings, computed from its stored objects by the kind's {@link ClusterValues}. */
    private ReplyEffect<Event, State> onReportHoldings(State state, ReportHoldings r) {
        java.util.Set<String> held = new java.util.TreeSet<>();
        if (values != null) {
            for (byte[] stored : state.objects().values()) {
                held.addAll(values.held(Json.parseTrusted(stored)));
            }
        }
        List<String> inFlightClaims = claimId == null ? List.of() : List.of(claimId);
        return Effect().reply(r.replyTo(), new Holdings(new ArrayList<>(held), inFlightClaims));
    }

    /** Asks Revisions for the batch's versions (directly once the instance is known). */
    private void askVersions(int count) {
        Revisions.Allocate ask = new Revisions.Allocate(count, id.namespace(), batchId, allocations);
        askedDirectly = directRevisions != null;
        if (directRevisions != null) {
            directRevisions.tell(ask);
        } else {
            revisions.tell(ask);
        }
        allocationTimeout = context.scheduleOnce(ALLOCATE_TIMEOUT, context.getSelf(),
                new AllocationFailed(batchId, "no answer within " + ALLOCATE_TIMEOUT.toSeconds() + "s"));
        context.scheduleOnce(ASK_AGAIN, context.getSelf(), new AskVersionsAgain(batchId));
    }

    /** The object a write addresses; {@code null} for a create whose name is still to be generated. */

    private ReplyEffect<Event, State> onAllocated(State state, Allocated a) {
        List<Pending> batch = inFlight;
        if (a.first() == Revisions.Allocated.MOVING) {
            // That instance is handing over: ask again through sharding, which delivers to its successor.
            directRevisions = null;
            if (batch != null && a.batchId() == batchId && allocatedFirst == 0) {
                askedDirectly = false;
                revisions.tell(new Revisions.Allocate(batch.size(), id.namespace(), batchId, allocations));
            }
            return Effect().noReply();
        }
        if (batch == null || a.batchId() != batchId || allocatedFirst != 0) {
            // A late answer for a batch that already failed: those versions stay unused (gaps are
            // fine), and Revisions must not wait for them.
            a.from().tell(new Revisions.Abandoned(a.first()));
            return Effect().noReply();
        }
        allocationTimeout.cancel();
        askedDirectly = false;
        if (!a.from().equals(directRevisions)) {
            directRevisions = a.from();
            // Its node may leave the cluster: then Revisions is found again through sharding at once
            // instead of after a timed-out allocation.
            context.watchWith(directRevisions, new RevisionsStopped(directRevisions));
        }
        allocatedFirst = a.first();
        List<Event> events = new ArrayList<>(batch.size());
        long rv = a.first();
        long now = environment.clock().millis();
        for (Pending p : batch) {
            ObjectNode after = p.outcome().after();
            ObjectMeta.of(after).put("resourceVersion", Long.toString(rv));
            byte[] before = p.outcome().before() == null ? null : Json.bytes(p.outcome().before());
            events.add(new ObjectChanged(rv, ObjectMeta.name(after), before, Json.bytes(after), p.outcome().removes(),
                    now));

            rv++;
        }
        long last = rv - 1;
        return Effect().persist(events)
                .thenRun(s -> {
                    // Published before any writer hears of its write: see CommittedObjects.
                    committed.publish(id.entityId(), this, s.objects());
                    // Revisions hears of the commit before any writer does, so a list that a writer
                    // starts after its acknowledgement already counts this version as committed.
                    List<PublishedEvent> published = new ArrayList<>(events.size());
                    for (Event e : events) {
                        published.add(((ObjectChanged) e).published(id.namespace()));
                    }
                    allocatedFirst = 0;
                    for (Revisions.Committed part : Revisions.Committed.parts(a.first(), published, COMMIT_PART_BYTES)) {
                        tellRevisions(part);
                    }
                    // The allocator hears of the values kept and freed before any writer hears of its
                    // write, so a client that deletes a Service and then asks for its IP gets it.
                    settleClaim(batch);
                    for (int i = 0; i < batch.size(); i++) {
                        Pending p = batch.get(i);
                        ObjectChanged event = (ObjectChanged) events.get(i);
                        p.write().replyTo().tell(written(p.outcome(), a.first() + i, event.after()));
                    }
                    inFlight = null;
                    endAdmission();
                    if (!queue.isEmpty() || !rewrites.isEmpty()) {
                        context.getSelf().tell(Flush.INSTANCE);
                    }
                    snapshotIfDue(s);
                })
                .thenNoReply();
    }

    /**
     * Answers Revisions about an allocation whose report it never got. A collection's versions grow with
     * every batch it persists, so when nothing at or above {@code first} is in the journal (this
     * incarnation recovered it all), the allocation was not persisted; and as its request is not in
     * flight, it never will be (a late allocation is abandoned on arrival). Otherwise the journal may
     * hold it, and the events of an earlier incarnation are not kept in memory: Revisions then starts a
     * new epoch and readers rebuild from the collections.
     */
    private ReplyEffect<Event, State> onResolve(State state, Resolve r) {
        boolean persisting = allocatedFirst == r.first();
        boolean awaitingIt = inFlight != null && allocatedFirst == 0 && batchId == r.requestId();
        if (persisting || awaitingIt) {
            return Effect().noReply(); // its own Committed or Abandoned follows
        }
        Revisions.Resolution resolution = state.lastVersion() < r.first()
                ? Revisions.Resolution.NOT_PERSISTED : Revisions.Resolution.UNKNOWN;
        r.replyTo().tell(new Revisions.Resolved(r.first(), resolution));
        return Effect().noReply();
    }

    /** Tells the allocator the batch's claim is held and which values its objects stopped holding. */
    private void settleClaim(List<Pending> batch) {
        if (values == null) {
            return;
        }
        List<String> released = new ArrayList<>();
        for (Pending p : batch) {
            ObjectNode before = p.outcome().before();
            if (before != null) {
                java.util.Set<String> kept = p.outcome().removes() ? java.util.Set.of() : values.held(p.outcome().after());
                values.held(before).stream().filter(k -> !kept.contains(k)).forEach(released::add);
            }
        }
        if (claimId != null || !released.isEmpty()) {
            allocator.tell(new ValueAllocator.Settle(id.entityId(), claimId, released));
        }
        claimId = null;
    }

    private void tellRevisions(Revisions.Command c) {
        if (directRevisions != null) {
            directRevisions.tell(c);
        } else {
            revisions.tell(c);
        }
    }

    /** The reply to one write; {@code storedBytes}, when given, is the object's JSON as just persisted. */
    private WriteResult written(WriteOutcome outcome, long resourceVersion, byte[] storedBytes) {
        byte[] body = storedBytes != null && outcome.view() == WriteOutcome.ResponseView.OBJECT
                ? storedBytes // the response is the stored object: no second serialization
                : Json.bytes(Responses.render(type, outcome));
        return outcome.result(body, resourceVersion);
    }

    /** Answers every write that can no longer complete; a refusal, never a false success. */
    private void failOutstanding(String why) {
        askedDirectly = false;
        ApiStatus status = ApiStatus.serviceUnavailable("storage unavailable for " + type.groupResource() + ": " + why);
        if (allocationTimeout != null) {
            allocationTimeout.cancel();
        }
        if (claimTimeout != null) {
            claimTimeout.cancel();
        }
        awaitingClaim = false;
        if (values != null) {
            abandonClaim();
        }
        // A batch whose journal write failed may be stored all the same (a write that timed out can still
        // land): it is not reported abandoned. Revisions asks about it once it is overdue (Resolve), and the
        // collection, recovered from its journal, answers from what is stored: not persisted, or unknown
        // (a new epoch, whose rebuild reads the object).
        allocatedFirst = 0;
        if (inFlight != null) {
            inFlight.forEach(p -> p.write().replyTo().tell(new Refused(status)));
            inFlight = null;
        }
        endAdmission();
        while (!queue.isEmpty()) {
            queue.poll().replyTo().tell(new Refused(status));
        }
    }

    @Override
    public EventHandler<State, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent((state, event) -> {
            eventsApplied++;
            return state.apply(event);
        });
    }

    // ---- type meta of recovered objects ----

    @Override
    public EventAdapter<Event, ?> eventAdapter() {
        return typeMetaRepair.events();
    }

    @Override
    public org.apache.pekko.persistence.typed.SnapshotAdapter<State> snapshotAdapter() {
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
        rewrites.addAll(repaired.keySet());
        context.getSelf().tell(Flush.INSTANCE);
    }

    /** The write that persists a repaired object as it is now; null when it is gone. */
    private Pending typeMetaRewrite(State state, String name) {
        byte[] stored = state.objects().get(name);
        if (stored == null) {
            return null;
        }
        ObjectNode obj = Json.parseTrusted(stored);
        WriteOp op = new WriteOp.Update(name, obj, null, io.kubepekko.api.store.WriteOptions.DEFAULT);
        WriteOutcome outcome = new WriteOutcome(obj, obj.deepCopy(), WriteOutcome.Answer.UPDATED, true,
                WriteOutcome.ResponseView.OBJECT, List.of());
        return new Pending(new Write(op, context.getSystem().ignoreRef()), outcome, ValuePlan.NONE);
    }
}
