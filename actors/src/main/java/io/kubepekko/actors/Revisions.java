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
        static final State EMPTY = new State(0, HashTreePSet.empty());

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
            permits Allocate, Committed, GetLatest, GetNamespaces {}

    /**
     * Allocates {@code count} consecutive versions for a write from collection {@code namespace};
     * {@code requestId} is echoed so the asker can match the answer to its batch.
     */
    public record Allocate(int count, String namespace, long requestId, ActorRef<Allocated> replyTo)
            implements Command {}

    /** Reports that versions up to {@code resourceVersion} were persisted (or abandoned). */
    public record Committed(long resourceVersion) implements Command {}

    /** Asks for the highest version known to be committed. */
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

    // ---- events ----

    /** Events of {@link Revisions}; facts, never renamed. */
    public sealed interface Event extends CborSerializable permits BlockReserved, CollectionAdded {}

    public record BlockReserved(long upTo) implements Event {}

    public record CollectionAdded(String namespace) implements Event {}

    // ---- behaviour ----

    /** Versions handed out so far in this incarnation: the next one to give is {@code next}. */
    private long next = 1;
    private long latestCommitted;

    private final ActorRef<Command> self;

    public static Behavior<Command> create(GroupResource groupResource) {
        return Behaviors.setup(ctx -> new Revisions(groupResource, ctx.getSelf()));
    }

    private Revisions(GroupResource groupResource, ActorRef<Command> self) {
        super(PersistenceId.of("Revisions", groupResource.toString()),
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2));
        this.self = self;
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
                    latestCommitted = state.reservedUpTo();
                })
                .build();
    }

    @Override
    public CommandHandlerWithReply<Command, Event, State> commandHandler() {
        return newCommandHandlerWithReplyBuilder().forAnyState()
                .onCommand(Allocate.class, this::onAllocate)
                .onCommand(Committed.class, (state, c) -> {
                    latestCommitted = Math.max(latestCommitted, c.resourceVersion());
                    return Effect().noReply();
                })
                .onCommand(GetLatest.class, (state, c) -> Effect().reply(c.replyTo(), new Latest(latestCommitted)))
                .onCommand(GetNamespaces.class, (state, c) ->
                        Effect().reply(c.replyTo(), new Namespaces(new ArrayList<>(new TreeSet<>(state.namespaces())))))
                .build();
    }

    private ReplyEffect<Event, State> onAllocate(State state, Allocate c) {
        long first = next;
        long last = first + c.count() - 1;
        next = last + 1;
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
