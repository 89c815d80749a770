package io.kubepekko.actors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubepekko.api.GroupResource;
import io.kubepekko.persistence.CborSerializable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;
import org.pcollections.HashTreePSet;
import org.pcollections.PSet;
import io.kubepekko.api.watch.PublicationOrder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Hands out resourceVersions for one group-resource: decimal integers, strictly increasing, also
 * across restarts. Versions are reserved in durable blocks, so a restarted instance starts above
 * anything it may have handed out (gaps are fine). It also remembers which namespaces' collections
 * have ever held objects, so that readers ask only those.
 */
public final class Revisions
        extends EventSourcedBehaviorWithEnforcedReplies<Revisions.Command, Revisions.Event, Revisions.State> {

    public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Revisions");

    /** How many versions one durable reservation covers. */
    static final long BLOCK = 1000;

    // ---- state ----

    /** Durable state: the highest reserved version and the namespaces that have been written. */
    public record State(long reservedUpTo, PSet<String> namespaces) implements CborSerializable {
        /**
         * A group-resource never written is at version 1, not 0: a list's resourceVersion "0" would
         * mean "any version" to a client that watches from it.
         */
        static final State EMPTY = new State(1, HashTreePSet.empty());

        @JsonCreator
        static State fromJson(@JsonProperty("reservedUpTo") long reservedUpTo,
                              @JsonProperty("namespaces") Set<String> namespaces) {
            return new State(reservedUpTo, HashTreePSet.from(namespaces == null ? Set.of() : namespaces));
        }

        @JsonProperty("namespaces")
        Set<String> namespacesForJson() {
            return new TreeSet<>(namespaces);
        }

        State apply(Event event) {
            if (event instanceof BlockReserved b) {
                return new State(b.upTo(), namespaces);
            }
            return new State(reservedUpTo, namespaces.plus(((CollectionAdded) event).namespace()));
        }
    }

    // ---- commands ----

    /** Protocol of {@link Revisions}. */
    public sealed interface Command extends CborSerializable
            permits Allocate, Committed, Abandoned, Subscribe, Unsubscribe, CheckOverdue, GetLatest, GetNamespaces {}

    /**
     * Allocates {@code count} consecutive versions for a write from collection {@code namespace};
     * {@code requestId} is echoed so the asker can match the answer to its batch.
     */
    public record Allocate(int count, String namespace, long requestId, ActorRef<Allocated> replyTo)
            implements Command {}

    /** The allocation starting at {@code first} was persisted with these events (one per version, in order). */
    public record Committed(long first, java.util.List<PublishedEvent> events) implements Command {}

    /** The allocation starting at {@code first} will never be persisted. */
    public record Abandoned(long first) implements Command {}

    /**
     * Registers a reader of the ordered change stream. It first receives an empty {@link Published}
     * naming the epoch and the version released so far, then every batch after it, and an empty
     * batch about every second when nothing changes (so a reader that hears nothing for a while
     * subscribes again). Subscribing again is harmless. A batch with another epoch means the reader
     * must rebuild from the collections.
     */
    public record Subscribe(ActorRef<Published> subscriber) implements Command {}

    /** Internal: a subscriber stopped. */
    public record Unsubscribe(ActorRef<Published> subscriber) implements Command {}

    /** Internal: look for allocations left unresolved too long. */
    public enum CheckOverdue implements Command { INSTANCE }

    /**
     * Asks for the version a "Most Recent" read must reflect: the highest committed one (at least the
     * published one).
     */
    public record GetLatest(ActorRef<Latest> replyTo) implements Command {}

    /** Asks for the namespaces whose collections have held objects of this group-resource. */
    public record GetNamespaces(ActorRef<Namespaces> replyTo) implements Command {}

    // ---- replies ----

    /**
     * Versions {@code first} to {@code first + count - 1} belong to the asker. {@code from} is this
     * instance, so that the asker can send its next request directly instead of through sharding.
     */
    public record Allocated(long first, long requestId, ActorRef<Command> from) implements CborSerializable {}

    public record Latest(long resourceVersion) implements CborSerializable {}

    public record Namespaces(List<String> namespaces) implements CborSerializable {}

    /**
     * Changes released in order: every version up to {@code upTo} is resolved, and {@code events} are the
     * committed ones since the previous batch. {@code epoch} changes when Revisions restarts.
     */
    public record Published(String epoch, long upTo, List<PublishedEvent> events) implements CborSerializable {}

    // ---- events ----

    /** Events of {@link Revisions}; facts, never renamed. */
    public sealed interface Event extends CborSerializable permits BlockReserved, CollectionAdded {}

    public record BlockReserved(long upTo) implements Event {}

    public record CollectionAdded(String namespace) implements Event {}

    // ---- behaviour ----

    /** How long an allocation may stay unresolved before it is given up (see {@link #onOverdue}). */
    static final Duration RESOLVE_DEADLINE = Duration.ofSeconds(30);

    /** Versions handed out so far in this incarnation: the next one to give is {@code next}. */
    private long next = 1;
    private PublicationOrder<PublishedEvent> order = new PublicationOrder<>(0);
    /**
     * The highest version any collection reported committed. "Most Recent" reads wait until the
     * ordered stream has reached it, so they reflect every acknowledged write, even one released
     * later than its version because a lower one is still in flight.
     */
    private long highestCommitted;
    private String epoch = java.util.UUID.randomUUID().toString();
    /**
     * Every version up to this one may have been handed out by an earlier incarnation, whose
     * allocations this one does not know: a commit of such a version arrives here unannounced and
     * cannot be published in order, so readers must rebuild from the collections (a new epoch).
     */
    private long inheritedUpTo;
    /** Whether a batch went out since the last heartbeat tick. */
    private boolean publishedSinceTick;
    private final java.util.Set<ActorRef<Published>> subscribers = new java.util.HashSet<>();
    private final org.apache.pekko.actor.typed.javadsl.ActorContext<Command> context;

    private final ActorRef<Command> self;

    public static Behavior<Command> create(GroupResource groupResource) {
        return Behaviors.withTimers(timers -> {
            timers.startTimerWithFixedDelay(CheckOverdue.INSTANCE, Duration.ofSeconds(1));
            return Behaviors.setup(ctx -> new Revisions(groupResource, ctx));
        });
    }

    private Revisions(GroupResource groupResource, org.apache.pekko.actor.typed.javadsl.ActorContext<Command> context) {
        super(PersistenceId.of("Revisions", groupResource.toString()),
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2));
        this.self = context.getSelf();
        this.context = context;
    }

    @Override
    public State emptyState() {
        return State.EMPTY;
    }

    @Override
    public RetentionCriteria retentionCriteria() {
        return RetentionCriteria.snapshotEvery(100, 2);
    }

    @Override
    public SignalHandler<State> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(RecoveryCompleted.instance(), state -> {
                    // Whatever the previous incarnation handed out is at most reservedUpTo.
                    next = state.reservedUpTo() + 1;
                    order = new PublicationOrder<>(state.reservedUpTo());
                    highestCommitted = state.reservedUpTo();
                    inheritedUpTo = state.reservedUpTo();
                })
                .build();
    }

    @Override
    public CommandHandlerWithReply<Command, Event, State> commandHandler() {
        return newCommandHandlerWithReplyBuilder().forAnyState()
                .onCommand(Allocate.class, this::onAllocate)
                .onCommand(Committed.class, (state, c) -> {
                    long last = c.events().isEmpty() ? c.first()
                            : c.events().get(c.events().size() - 1).resourceVersion();
                    highestCommitted = Math.max(highestCommitted, last);
                    if (c.first() <= inheritedUpTo && !c.events().isEmpty()) {
                        return newEpoch(c.first());
                    }
                    return publish(order.committed(c.first(), c.events()));
                })
                .onCommand(Abandoned.class, (state, c) -> publish(order.abandoned(c.first())))
                .onCommand(Subscribe.class, (state, c) -> {
                    if (subscribers.add(c.subscriber())) {
                        context.watchWith(c.subscriber(), new Unsubscribe(c.subscriber()));
                    }
                    c.subscriber().tell(new Published(epoch, order.publishedUpTo(), List.of()));
                    return Effect().noReply();
                })
                .onCommand(Unsubscribe.class, (state, c) -> {
                    subscribers.remove(c.subscriber());
                    return Effect().noReply();
                })
                .onCommand(CheckOverdue.class, (state, c) -> {
                    if (!publishedSinceTick) {
                        publish(List.of()); // a heartbeat: readers that hear nothing subscribe again
                    }
                    publishedSinceTick = false;
                    return onOverdue();
                })
                .onCommand(GetLatest.class, (state, c) -> Effect().reply(c.replyTo(),
                        new Latest(Math.max(highestCommitted, order.publishedUpTo()))))
                .onCommand(GetNamespaces.class, (state, c) ->
                        Effect().reply(c.replyTo(), new Namespaces(new ArrayList<>(new TreeSet<>(state.namespaces())))))
                .build();
    }

    private ReplyEffect<Event, State> publish(List<PublishedEvent> released) {
        if (!released.isEmpty() || !subscribers.isEmpty()) {
            Published batch = new Published(epoch, order.publishedUpTo(), released);
            subscribers.forEach(s -> s.tell(batch));
            publishedSinceTick = true;
        }
        return Effect().noReply();
    }

    /**
     * A version handed out by an earlier incarnation was committed after this one started: its
     * event can never be published in order, so readers rebuild from the collections, which now
     * hold it (a collection reports a commit only after it has applied it).
     */
    private ReplyEffect<Event, State> newEpoch(long lateVersion) {
        context.getLog().info("resourceVersion {} of an earlier incarnation committed late: starting a new epoch",
                lateVersion);
        epoch = java.util.UUID.randomUUID().toString();
        return publish(List.of());
    }

    /**
     * Gives up allocations nobody resolved within {@link #RESOLVE_DEADLINE}, so one lost report cannot
     * stall the stream. On one node every write reports Committed or Abandoned (also when its entity
     * restarts), so this only fires for a collection that vanished mid-write; the clustered deployment
     * will replace it by asking the collection's journal.
     */
    private ReplyEffect<Event, State> onOverdue() {
        java.time.Instant now = java.time.Instant.now();
        List<PublishedEvent> released = new ArrayList<>();
        for (PublicationOrder.Range r : order.overdue(now, RESOLVE_DEADLINE)) {
            context.getLog().warn("resourceVersions {}..{} unresolved after {}: given up", r.first(), r.last(),
                    RESOLVE_DEADLINE);
            released.addAll(order.abandoned(r.first()));
        }
        return released.isEmpty() ? Effect().noReply() : publish(released);
    }

    private ReplyEffect<Event, State> onAllocate(State state, Allocate c) {
        long first = next;
        long last = first + c.count() - 1;
        next = last + 1;
        order.allocated(first, last, java.time.Instant.now());
        List<Event> events = new ArrayList<>(2);
        if (last > state.reservedUpTo()) {
            events.add(new BlockReserved(last + BLOCK));
        }
        if (!state.namespaces().contains(c.namespace())) {
            events.add(new CollectionAdded(c.namespace()));
        }
        Allocated reply = new Allocated(first, c.requestId(), self);
        if (events.isEmpty()) {
            return Effect().reply(c.replyTo(), reply);
        }
        return Effect().persist(events).thenReply(c.replyTo(), s -> reply);
    }

    @Override
    public EventHandler<State, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent(State::apply);
    }
}
