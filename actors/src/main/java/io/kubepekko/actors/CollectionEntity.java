package io.kubepekko.actors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.ObjectFilter;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.Responses;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.persistence.CborSerializable;
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
import java.util.function.Predicate;

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
 */
public final class CollectionEntity
        extends EventSourcedBehaviorWithEnforcedReplies<CollectionEntity.Command, CollectionEntity.Event, CollectionEntity.State> {

    public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Collection");

    static final int MAX_QUEUE = 10_000;
    static final int MAX_BATCH = 256;
    static final Duration ALLOCATE_TIMEOUT = Duration.ofSeconds(10);

    // ---- state ----

    /**
     * The live objects of the collection by name, as stored JSON bytes, and the version of the last
     * change applied (a removal leaves no object behind to tell it).
     */
    public record State(TreePMap<String, byte[]> objects, long lastVersion) implements CborSerializable {
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
    }

    // ---- commands ----

    /** Protocol of {@link CollectionEntity}. */
    public sealed interface Command extends CborSerializable
            permits Get, ListObjects, Write, Allocated, AllocationFailed, Flush {}

    /** Reads one object at its latest committed state. */
    public record Get(String name, ActorRef<GetReply> replyTo) implements Command {}

    /** Lists the objects selected by the label and field selectors (strings, already validated). */
    public record ListObjects(String labelSelector, String fieldSelector, ActorRef<Items> replyTo) implements Command {}

    /** Executes one write. */
    public record Write(WriteOp op, ActorRef<WriteReply> replyTo) implements Command {}

    /** Internal: the versions for batch {@code batchId}, and the Revisions instance that gave them. */
    public record Allocated(long first, long batchId, ActorRef<Revisions.Command> from) implements Command {}

    /** Internal: Revisions did not answer batch {@code batchId} in time; that batch fails. */
    public record AllocationFailed(long batchId, String reason) implements Command {}

    /** Internal: start the next batch if writes are queued. */
    public enum Flush implements Command { INSTANCE }

    // ---- replies ----

    /** The object's JSON, or {@code null} when it does not exist. */
    public record GetReply(byte[] object) implements CborSerializable {}

    /**
     * The selected objects' JSON, sorted by name, and {@link State#lastVersion}: the list reflects
     * every change of the collection up to it.
     */
    public record Items(List<byte[]> items, long lastVersion) implements CborSerializable {}

    /** The answer to a {@link Write}. */
    public sealed interface WriteReply extends CborSerializable permits Written, Refused {}

    /**
     * @param code            200 or 201
     * @param body            the response body's JSON
     * @param resourceVersion the version assigned, or 0 when nothing was persisted
     */
    public record Written(int code, byte[] body, List<String> warnings, long resourceVersion) implements WriteReply {}

    public record Refused(ApiStatus status) implements WriteReply {}

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
        PublishedEvent published(String namespace) {
            String type = removed ? "DELETED" : before == null ? "ADDED" : "MODIFIED";
            return new PublishedEvent(resourceVersion, namespace, name, type, after, before);
        }
    }

    // ---- behaviour ----

    private record Pending(Write write, WriteOutcome outcome) {}

    private final ActorContext<Command> context;
    private final CollectionId id;
    private final ResourceType type;
    private final ObjectWrites writes;
    private final Environment environment;
    private final RecipientRef<Revisions.Command> revisions;
    private final CommittedObjects committed;
    private final ArrayDeque<Write> queue = new ArrayDeque<>();
    private final ActorRef<Revisions.Allocated> allocations;
    private List<Pending> inFlight;
    private long batchId;
    private org.apache.pekko.actor.Cancellable allocationTimeout;
    /**
     * The Revisions instance that answered last: asked directly, which saves the two sharding hops
     * per batch. Forgotten when it does not answer in time, so a moved instance is found again
     * through sharding.
     */
    private ActorRef<Revisions.Command> directRevisions;
    /** The first version allocated to the batch being persisted, or 0. */
    private long allocatedFirst;
    private long lastSnapshotSeqNr;
    /** Events applied by this incarnation; at recovery's end, those replayed after the snapshot. */
    private long eventsApplied;

    public static Behavior<Command> create(CollectionId id, ResourceType type, ObjectWrites writes,
                                           Environment environment, RecipientRef<Revisions.Command> revisions) {
        return create(id, type, writes, environment, revisions, new CommittedObjects());
    }

    /** @param committed where this entity publishes its committed objects for message-free reads */
    public static Behavior<Command> create(CollectionId id, ResourceType type, ObjectWrites writes,
                                           Environment environment, RecipientRef<Revisions.Command> revisions,
                                           CommittedObjects committed) {
        return Behaviors.setup(ctx -> new CollectionEntity(ctx, id, type, writes, environment, revisions, committed));
    }

    private CollectionEntity(ActorContext<Command> context, CollectionId id, ResourceType type, ObjectWrites writes,
                             Environment environment, RecipientRef<Revisions.Command> revisions,
                             CommittedObjects committed) {
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
     * Snapshot once the events since the last one outnumber the live objects (and at least 1000), so
     * a restart replays at most about as many events as there are objects.
     */
    @Override
    public boolean shouldSnapshot(State state, Event event, long sequenceNr) {
        if (sequenceNr - lastSnapshotSeqNr >= Math.max(1000, state.objects().size())) {
            lastSnapshotSeqNr = sequenceNr;
            return true;
        }
        return false;
    }

    @Override
    public SignalHandler<State> signalHandler() {
        return newSignalHandlerBuilder()
                // The events replayed after the snapshot count towards the next one, or an entity that
                // restarts (passivation) before each thousandth event would never snapshot.
                .onSignal(RecoveryCompleted.instance(), state -> {
                    lastSnapshotSeqNr = lastSequenceNumber(context) - eventsApplied;
                    committed.publish(id.entityId(), this, state.objects());
                })
                .onSignal(PreRestart.instance(), state -> {
                    committed.withdraw(id.entityId(), this);
                    eventsApplied = 0;
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
                .onCommand(Allocated.class, this::onAllocated)
                .onCommand(AllocationFailed.class, (state, c) -> {
                    if (inFlight != null && c.batchId() == batchId) {
                        directRevisions = null;
                        failOutstanding("could not allocate a resourceVersion: " + c.reason());
                    }
                    return Effect().noReply();
                })
                .build();
    }

    private ReplyEffect<Event, State> onList(State state, ListObjects c) {
        Predicate<ObjectNode> filter;
        try {
            filter = ObjectFilter.of(type, c.labelSelector(), c.fieldSelector());
        } catch (ApiException e) {
            return Effect().reply(c.replyTo(), new Items(List.of(), state.lastVersion()));
        }
        boolean selectAll = (c.labelSelector() == null || c.labelSelector().isEmpty())
                && (c.fieldSelector() == null || c.fieldSelector().isEmpty());
        List<byte[]> out = new ArrayList<>(state.objects().size());
        for (byte[] obj : state.objects().values()) {
            if (selectAll || filter.test(Json.parseTrusted(obj))) {
                out.add(obj);
            }
        }
        return Effect().reply(c.replyTo(), new Items(out, state.lastVersion()));
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
        while (!queue.isEmpty() && pending.size() < MAX_BATCH) {
            if (overlay.containsKey(queue.peek().op().targetName())) {
                break; // it must see that earlier write committed (see the class comment)
            }
            Write w = queue.poll();
            WriteOutcome outcome;
            try {
                outcome = writes.execute(type, id.namespace(), lookup, w.op(), env);
            } catch (ApiException e) {
                w.replyTo().tell(new Refused(e.status()));
                continue;
            } catch (RuntimeException e) {
                context.getLog().error("write to {} failed unexpectedly", id.entityId(), e);
                w.replyTo().tell(new Refused(ApiStatus.internal(String.valueOf(e.getMessage()))));
                continue;
            }
            if (!outcome.changed() || w.op().options().dryRun()) {
                w.replyTo().tell(written(outcome, 0, null));
                continue;
            }
            String name = ObjectMeta.name(outcome.after());
            overlay.put(name, outcome.removes() ? null : outcome.after());
            pending.add(new Pending(w, outcome));
        }
        if (pending.isEmpty()) {
            return Effect().noReply();
        }
        inFlight = pending;
        batchId++;
        Revisions.Allocate ask = new Revisions.Allocate(pending.size(), id.namespace(), batchId, allocations);
        if (directRevisions != null) {
            directRevisions.tell(ask);
        } else {
            revisions.tell(ask);
        }
        allocationTimeout = context.scheduleOnce(ALLOCATE_TIMEOUT, context.getSelf(),
                new AllocationFailed(batchId, "no answer within " + ALLOCATE_TIMEOUT.toSeconds() + "s"));
        return Effect().noReply();
    }

    /** The object a write addresses; {@code null} for a create whose name is still to be generated. */

    private ReplyEffect<Event, State> onAllocated(State state, Allocated a) {
        List<Pending> batch = inFlight;
        if (batch == null || a.batchId() != batchId) {
            // A late answer for a batch that already failed: those versions stay unused (gaps are
            // fine), and Revisions must not wait for them.
            a.from().tell(new Revisions.Abandoned(a.first()));
            return Effect().noReply();
        }
        allocationTimeout.cancel();
        directRevisions = a.from();
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
                    tellRevisions(new Revisions.Committed(a.first(), published));
                    for (int i = 0; i < batch.size(); i++) {
                        Pending p = batch.get(i);
                        ObjectChanged event = (ObjectChanged) events.get(i);
                        p.write().replyTo().tell(written(p.outcome(), a.first() + i, event.after()));
                    }
                    inFlight = null;
                    if (!queue.isEmpty()) {
                        context.getSelf().tell(Flush.INSTANCE);
                    }
                })
                .thenNoReply();
    }

    private void tellRevisions(Revisions.Command c) {
        if (directRevisions != null) {
            directRevisions.tell(c);
        } else {
            revisions.tell(c);
        }
    }

    /** The reply to one write; {@code storedBytes}, when given, is the object's JSON as just persisted. */
    private Written written(WriteOutcome outcome, long resourceVersion, byte[] storedBytes) {
        int code = outcome.created() ? 201 : 200;
        byte[] body = storedBytes != null && outcome.view() == WriteOutcome.ResponseView.OBJECT
                ? storedBytes // the response is the stored object: no second serialization
                : Json.bytes(Responses.render(type, outcome));
        return new Written(code, body, outcome.warnings(), resourceVersion);
    }

    /** Answers every write that can no longer complete; a refusal, never a false success. */
    private void failOutstanding(String why) {
        ApiStatus status = ApiStatus.serviceUnavailable("storage unavailable for " + type.groupResource() + ": " + why);
        if (allocationTimeout != null) {
            allocationTimeout.cancel();
        }
        if (allocatedFirst != 0) {
            // The journal refused the batch (or the entity is stopping before it was written).
            tellRevisions(new Revisions.Abandoned(allocatedFirst));
            allocatedFirst = 0;
        }
        if (inFlight != null) {
            inFlight.forEach(p -> p.write().replyTo().tell(new Refused(status)));
            inFlight = null;
        }
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
}
