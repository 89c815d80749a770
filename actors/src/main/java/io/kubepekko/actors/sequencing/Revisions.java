package io.kubepekko.actors.sequencing;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.watch.PublicationOrder;
import io.kubepekko.persistence.CborSerializable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
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

/**
 * Hands out resourceVersions for one group-resource: decimal integers, strictly increasing, also
 * across restarts. Versions are reserved in durable blocks, so a restarted instance starts above
 * anything it may have handed out (gaps are fine). It also remembers which namespaces' collections
 * have ever held objects, so that readers ask only those.
 */
public final class Revisions
        extends EventSourcedBehaviorWithEnforcedReplies<
                Revisions.Command, Revisions.Event, Revisions.State> {

    public static final EntityTypeKey<Command> TYPE_KEY =
            EntityTypeKey.create(Command.class, "Revisions");

    /** How many versions one durable reservation covers. */
    static final long BLOCK = 1000;

    // ---- state ----

    /**
     * Durable state: the highest reserved version, the namespaces that have been written, and —
     * only right after an orderly hand-over, until the next event — where the stream stood (see
     * {@link HandedOver}).
     */
    public record State(long reservedUpTo, PSet<String> namespaces, HandedOver handedOver)
            implements CborSerializable {
        /**
         * A group-resource never written is at version 1, not 0: a list's resourceVersion "0" would
         * mean "any version" to a client that watches from it.
         */
        static final State EMPTY = new State(1, HashTreePSet.empty(), null);

        @JsonCreator
        static State fromJson(
                @JsonProperty("reservedUpTo") long reservedUpTo,
                @JsonProperty("namespaces") Set<String> namespaces,
                @JsonProperty("handedOver") HandedOver handedOver) {
            return new State(
                    reservedUpTo,
                    HashTreePSet.from(namespaces == null ? Set.of() : namespaces),
                    handedOver);
        }

        @JsonProperty("namespaces")
        Set<String> namespacesForJson() {
            return new TreeSet<>(namespaces);
        }

        State apply(Event event) {
            if (event instanceof BlockReserved b) {
                return new State(b.upTo(), namespaces, null);
            }
            if (event instanceof HandedOver h) {
                return new State(reservedUpTo, namespaces, h);
            }
            return new State(
                    reservedUpTo, namespaces.plus(((CollectionAdded) event).namespace()), null);
        }
    }

    // ---- commands ----

    /** Protocol of {@link Revisions}. */
    public sealed interface Command extends CborSerializable
            permits Allocate,
                    Committed,
                    Abandoned,
                    Resolved,
                    Subscribe,
                    Unsubscribe,
                    CheckOverdue,
                    GetLatest,
                    GetNamespaces,
                    HandOver {}

    /**
     * Allocates {@code count} consecutive versions for a write from collection {@code namespace};
     * {@code requestId} is echoed so the asker can match the answer to its batch.
     */
    public record Allocate(int count, String namespace, long requestId, ActorRef<Allocated> replyTo)
            implements Command {}

    /**
     * The allocation starting at {@code first} was persisted with these events (one per version, in
     * order).
     */
    public record Committed(long first, List<PublishedEvent> events, boolean more)
            implements Command {

        @JsonCreator
        public Committed {}

        /** The whole allocation's events in one message. */
        public Committed(long first, List<PublishedEvent> events) {
            this(first, events, false);
        }

        /**
         * The allocation's events in order, as messages of about {@code maxBytes} of objects each
         * (at least one event each; every one but the last with {@code more}): a message between
         * nodes must stay well under Artery's frame size.
         */
        public static List<Committed> parts(
                long first, List<PublishedEvent> events, long maxBytes) {
            List<List<PublishedEvent>> parts =
                    SizedParts.split(events, PublishedEvent::size, maxBytes);
            List<Committed> out = new ArrayList<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                out.add(new Committed(first, parts.get(i), i < parts.size() - 1));
            }
            return out;
        }
    }

    /** The allocation starting at {@code first} will never be persisted. */
    public record Abandoned(long first) implements Command {}

    /**
     * A collection's answer about an allocation this instance asked it to resolve (it reported
     * neither a commit nor an abandonment in time): see {@link CollectionProtocol.Resolve}.
     */
    public record Resolved(long first, Resolution resolution) implements Command {}

    /** What a collection knows of an allocation it holds or held. */
    public enum Resolution {
        /** Nothing of it was persisted, and nothing ever will be. */
        NOT_PERSISTED,
        /**
         * It may have been persisted (the collection's journal holds versions at or above it), but
         * the collection no longer has its events: readers must rebuild from the collections.
         */
        UNKNOWN
    }

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
    public enum CheckOverdue implements Command {
        INSTANCE
    }

    /**
     * Sharding's stop message (the entity moves to another node, or its node leaves): stop handing
     * out versions, let every allocation resolve, record where the stream stands and who reads it,
     * and stop. The next incarnation then carries on with the same epoch, so no reader has to
     * rebuild.
     */
    public enum HandOver implements Command {
        INSTANCE
    }

    /**
     * Asks for the version a "Most Recent" read must reflect: the highest one handed out (at least
     * the published one). Every write acknowledged before the read began got its version here
     * before this question arrived — this one actor handed it out — so a read that waits until the
     * ordered stream has passed it reflects every such write, whichever node wrote it and however
     * late its commit report travels (reports from other nodes come by other paths than the
     * question, in no agreed order). It may also wait for writes still in flight; they resolve
     * within a journal write.
     */
    public record GetLatest(ActorRef<Latest> replyTo) implements Command {}

    /** Asks for the namespaces whose collections have held objects of this group-resource. */
    public record GetNamespaces(ActorRef<Namespaces> replyTo) implements Command {}

    // ---- replies ----

    /**
     * Versions {@code first} to {@code first + count - 1} belong to the asker. {@code from} is this
     * instance, so that the asker can send its next request directly instead of through sharding.
     * {@code first == 0} ({@link #MOVING}) allocates nothing: this instance is handing over, so ask
     * again through sharding, which delivers to the next incarnation.
     */
    public record Allocated(long first, long requestId, ActorRef<Command> from)
            implements CborSerializable {
        /** The value of {@code first} that means "ask again through sharding". */
        public static final long MOVING = 0;
    }

    public record Latest(long resourceVersion) implements CborSerializable {}

    public record Namespaces(List<String> namespaces) implements CborSerializable {}

    /**
     * Changes released in order: every version up to {@code upTo} is resolved, and {@code events}
     * are the committed ones in ({@code after}, {@code upTo}]. {@code epoch} changes when Revisions
     * restarts. Consecutive batches of one epoch chain: each one's {@code after} is the previous
     * one's {@code upTo} (a subscription's acknowledgement has {@code after == upTo}). A reader
     * that sees a batch whose {@code after} is above what it has must have lost a message (messages
     * between nodes may be lost) and rebuilds, as for a new epoch.
     */
    public record Published(String epoch, long after, long upTo, List<PublishedEvent> events)
            implements CborSerializable {

        @JsonCreator
        public Published {}

        /**
         * A batch following the one that ended just below its first event (or at {@code upTo} when
         * empty).
         */
        public Published(String epoch, long upTo, List<PublishedEvent> events) {
            this(
                    epoch,
                    events.isEmpty() ? upTo : events.get(0).resourceVersion() - 1,
                    upTo,
                    events);
        }
    }

    /**
     * A published batch's events are split into messages of about this many bytes of objects (at
     * least one event each): a message between nodes must stay well under Artery's frame size, or
     * it is dropped.
     */
    static final int PUBLISH_CHUNK_BYTES = 512 * 1024;

    // ---- events ----

    /** Events of {@link Revisions}; facts, never renamed. */
    public sealed interface Event extends CborSerializable
            permits BlockReserved, CollectionAdded, HandedOver {}

    public record BlockReserved(long upTo) implements Event {}

    public record CollectionAdded(String namespace) implements Event {}

    /**
     * An orderly hand-over: nothing was left unresolved, the stream of {@code epoch} was published
     * up to {@code sentUpTo}, and {@code subscribers} were reading it. Valid only as the last
     * event.
     */
    public record HandedOver(String epoch, long sentUpTo, List<ActorRef<Published>> subscribers)
            implements Event {}

    // ---- behaviour ----

    /**
     * How long an allocation may stay unresolved before its collection is asked about it (again at
     * every tick until it answers): a commit is normally reported within milliseconds.
     */
    static final Duration ASK_AFTER = Duration.ofSeconds(2);

    /**
     * How long an allocation may stay unresolved before it is given up without an answer: well
     * beyond the ~10 s a dead node's shards take to move (failure detection, the split-brain
     * resolver's stable-after, removal), after which the collection answers from another node, and
     * beyond a short storage outage. Giving up starts a new epoch, so it loses nothing either.
     */
    public static final Duration RESOLVE_DEADLINE = Duration.ofSeconds(45);

    /** Who holds an unresolved allocation: its collection's namespace and the request's id. */
    private record Holder(String namespace, long requestId) {}

    /** Versions handed out so far in this incarnation: the next one to give is {@code next}. */
    private long next = 1;

    private PublicationOrder<PublishedEvent> order = new PublicationOrder<>(0);
    private String epoch = UUID.randomUUID().toString();

    /**
     * Every version up to this one may have been handed out by an earlier incarnation, whose
     * allocations this one does not know: a commit of such a version arrives here unannounced and
     * cannot be published in order, so readers must rebuild from the collections (a new epoch).
     */
    private long inheritedUpTo;

    /** The events of commits reported in several parts, until their last part arrives. */
    private final Map<Long, List<PublishedEvent>> parts = new HashMap<>();

    /** Whether sharding asked this instance to stop ({@link HandOver}). */
    private boolean handingOver;

    /**
     * The {@code upTo} of the last batch published (sent, or due but with nobody to send it to).
     */
    private long sentUpTo;

    /** Whether a batch went out since the last heartbeat tick. */
    private boolean publishedSinceTick;

    private final Set<ActorRef<Published>> subscribers = new HashSet<>();
    private final ActorContext<Command> context;
    private final Clock clock;

    /**
     * Reaches the collection of a namespace (through sharding: it starts it from its journal if
     * need be).
     */
    private final Function<String, RecipientRef<CollectionProtocol.Command>> collections;

    /** The collection that holds each unresolved allocation, by first version. */
    private final Map<Long, Holder> holders = new HashMap<>();

    /**
     * Allocations given up unanswered (oldest dropped beyond {@link #MAX_GIVEN_UP}): a commit of
     * one that arrives after all could not be published in order, so it starts a new epoch.
     */
    private final TreeSet<Long> givenUp = new TreeSet<>();

    private static final int MAX_GIVEN_UP = 1024;

    private final ActorRef<Command> self;

    /**
     * A sequencer that cannot ask collections about overdue allocations: it gives them up (tests).
     * Its system has no other members: a handed-over reader is kept only if it lives in this
     * system.
     */
    public static Behavior<Command> create(GroupResource groupResource) {
        return create(groupResource, Clock.systemUTC(), namespace -> null, address -> false);
    }

    /**
     * @param clock when allocations become overdue
     * @param collections the collection entity of a namespace of this group-resource, reached
     *     through sharding (or {@code null}: overdue allocations there are given up)
     * @param member whether an address is a member of the cluster now: readers recorded by a {@link
     *     HandedOver} elsewhere are taken over only if so (see {@link #takeOverReaders})
     */
    public static Behavior<Command> create(
            GroupResource groupResource,
            Clock clock,
            Function<String, RecipientRef<CollectionProtocol.Command>> collections,
            Predicate<Address> member) {
        return Behaviors.withTimers(
                timers ->
                        Behaviors.setup(
                                ctx ->
                                        new Revisions(
                                                groupResource,
                                                ctx,
                                                clock,
                                                collections,
                                                member,
                                                timers)));
    }

    /** How often overdue allocations are looked for and quiet readers get a heartbeat. */
    static final Duration TICK = Duration.ofSeconds(1);

    private final Predicate<Address> member;
    private final TimerScheduler<Command> timers;

    private Revisions(
            GroupResource groupResource,
            ActorContext<Command> context,
            Clock clock,
            Function<String, RecipientRef<CollectionProtocol.Command>> collections,
            Predicate<Address> member,
            TimerScheduler<Command> timers) {
        super(
                PersistenceId.of("Revisions", groupResource.toString()),
                SupervisorStrategy.restartWithBackoff(
                        Duration.ofMillis(200), Duration.ofSeconds(5), 0.2));
        this.self = context.getSelf();
        this.context = context;
        this.clock = clock;
        this.collections = collections;
        this.member = member;
        this.timers = timers;
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
                .onSignal(
                        RecoveryCompleted.instance(),
                        state -> {
                            // Started at every recovery: when the journal fails (a persist, or the
                            // recovery itself),
                            // Pekko restarts this behaviour with back-off and cancels every timer
                            // of the actor. A
                            // sequencer without its tick sends no heartbeat, never resolves an
                            // allocation whose
                            // report was lost, and never retries a hand-over: its stream stalls for
                            // good.
                            timers.startTimerWithFixedDelay(CheckOverdue.INSTANCE, TICK);
                            // The fields outlive such a restart, but the allocations they tracked
                            // do not: this life
                            // starts like a new incarnation, above everything the earlier one may
                            // have handed out,
                            // in a new epoch (unless the hand-over was recorded).
                            epoch = UUID.randomUUID().toString();
                            holders.clear();
                            parts.clear();
                            // Whatever the previous incarnation handed out is at most reservedUpTo.
                            next = state.reservedUpTo() + 1;
                            order = new PublicationOrder<>(state.reservedUpTo());
                            sentUpTo = state.reservedUpTo();
                            inheritedUpTo = state.reservedUpTo();
                            HandedOver h = state.handedOver();
                            if (h != null) {
                                // Nothing was in flight: the versions after sentUpTo were never
                                // handed out, so the
                                // same stream goes on, from where its readers are.
                                epoch = h.epoch();
                                sentUpTo = h.sentUpTo();
                                takeOverReaders(h.subscribers());
                                publish(List.of());
                            }
                            context.getLog()
                                    .debug(
                                            "sequencing from {} in epoch {} ({})",
                                            next,
                                            epoch,
                                            h != null
                                                    ? "handed over, "
                                                            + subscribers.size()
                                                            + " readers"
                                                    : "new epoch");
                        })
                .build();
    }

    /**
     * Subscribes the readers of a hand-over that can still be there: those of this system and of
     * the cluster's current members. A hand-over is also recorded when the whole cluster stops; the
     * readers it names then belonged to processes that are gone, and watching one at an address
     * nobody listens on would only have remoting try to connect to it again and again. Their
     * successors subscribe anew.
     */
    private void takeOverReaders(List<ActorRef<Published>> readers) {
        for (ActorRef<Published> s : readers) {
            Address address = s.path().address();
            if ((address.hasLocalScope() || member.test(address)) && subscribers.add(s)) {
                context.watchWith(s, new Unsubscribe(s));
            }
        }
    }

    @Override
    public CommandHandlerWithReply<Command, Event, State> commandHandler() {
        return newCommandHandlerWithReplyBuilder()
                .forAnyState()
                .onCommand(Allocate.class, this::onAllocate)
                .onCommand(
                        Committed.class,
                        (state, c0) -> {
                            if (c0.more()) {
                                parts.computeIfAbsent(c0.first(), f -> new ArrayList<>())
                                        .addAll(c0.events());
                                return Effect().noReply();
                            }
                            List<PublishedEvent> earlier = parts.remove(c0.first());
                            Committed c =
                                    earlier == null
                                            ? c0
                                            : new Committed(
                                                    c0.first(), concat(earlier, c0.events()));
                            forget(c.first());
                            if (c.first() <= inheritedUpTo && !c.events().isEmpty()) {
                                return newEpoch(
                                        "resourceVersion "
                                                + c.first()
                                                + " of an earlier incarnation committed late");
                            }
                            if (givenUp.remove(c.first()) && !c.events().isEmpty()) {
                                return newEpoch(
                                        "resourceVersion "
                                                + c.first()
                                                + " committed after it was given up");
                            }
                            return publish(order.committed(c.first(), c.events()));
                        })
                .onCommand(
                        Abandoned.class,
                        (state, c) -> {
                            forget(c.first());
                            return publish(order.abandoned(c.first()));
                        })
                .onCommand(Resolved.class, this::onResolved)
                .onCommand(
                        Subscribe.class,
                        (state, c) -> {
                            if (subscribers.add(c.subscriber())) {
                                context.watchWith(c.subscriber(), new Unsubscribe(c.subscriber()));
                            }
                            c.subscriber()
                                    .tell(new Published(epoch, sentUpTo, sentUpTo, List.of()));
                            return Effect().noReply();
                        })
                .onCommand(
                        Unsubscribe.class,
                        (state, c) -> {
                            subscribers.remove(c.subscriber());
                            return Effect().noReply();
                        })
                .onCommand(
                        CheckOverdue.class,
                        (state, c) -> {
                            if (!publishedSinceTick) {
                                publish(List.of()); // a heartbeat: readers that hear nothing
                                // subscribe again
                            }
                            publishedSinceTick = false;
                            onOverdue();
                            // Also retries a hand-over whose record the journal refused: nothing
                            // else may come.
                            return handOverIfSettled();
                        })
                .onCommand(
                        GetLatest.class,
                        (state, c) ->
                                Effect()
                                        .reply(
                                                c.replyTo(),
                                                new Latest(
                                                        Math.max(next - 1, order.publishedUpTo()))))
                .onCommand(
                        HandOver.class,
                        (state, c) -> {
                            context.getLog()
                                    .debug(
                                            "asked to hand over at {} (epoch {}), {} allocations unresolved",
                                            sentUpTo,
                                            epoch,
                                            order.pendingCount());
                            handingOver = true;
                            return handOverIfSettled();
                        })
                .onCommand(
                        GetNamespaces.class,
                        (state, c) ->
                                Effect()
                                        .reply(
                                                c.replyTo(),
                                                new Namespaces(
                                                        new ArrayList<>(
                                                                new TreeSet<>(
                                                                        state.namespaces())))))
                .build();
    }

    private ReplyEffect<Event, State> publish(List<PublishedEvent> released) {
        long upTo = order.publishedUpTo();
        if (!subscribers.isEmpty()) {
            for (Published batch : chunks(epoch, sentUpTo, upTo, released)) {
                subscribers.forEach(s -> s.tell(batch));
            }
            publishedSinceTick = true;
        }
        sentUpTo = upTo;
        return handOverIfSettled();
    }

    /**
     * Drops what is kept about an allocation once it is resolved: its holder, and the parts of a
     * commit report whose last part never came (its collection died between parts), which would
     * otherwise stay.
     */
    private Holder forget(long first) {
        parts.remove(first);
        return holders.remove(first);
    }

    private static List<PublishedEvent> concat(List<PublishedEvent> a, List<PublishedEvent> b) {
        List<PublishedEvent> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return all;
    }

    /**
     * The batch ({@code after}, {@code upTo}] as messages of about {@link #PUBLISH_CHUNK_BYTES}
     * each, chained: every version up to a chunk's last event is resolved, since released events
     * are in version order.
     */
    static List<Published> chunks(
            String epoch, long after, long upTo, List<PublishedEvent> released) {
        List<List<PublishedEvent>> parts =
                SizedParts.split(released, PublishedEvent::size, PUBLISH_CHUNK_BYTES);
        List<Published> out = new ArrayList<>(parts.size());
        long chunkAfter = after;
        for (int i = 0; i < parts.size(); i++) {
            List<PublishedEvent> part = parts.get(i);
            long chunkUpTo =
                    i < parts.size() - 1 ? part.get(part.size() - 1).resourceVersion() : upTo;
            out.add(new Published(epoch, chunkAfter, chunkUpTo, part));
            chunkAfter = chunkUpTo;
        }
        return out;
    }

    /**
     * Some committed change cannot be published in order — a version handed out by an earlier
     * incarnation committed after this one started, or a version given up or unaccounted for — so
     * readers rebuild from the collections, which hold every persisted change (a collection reports
     * a commit only after it has applied it, and answers reads only between writes).
     */
    private ReplyEffect<Event, State> newEpoch(String why) {
        context.getLog().info("{}: starting a new epoch", why);
        epoch = UUID.randomUUID().toString();
        return publish(List.of());
    }

    /**
     * Asks the collection holding an allocation that is overdue what became of it (ordering
     * protocol, point 3): its commit or abandonment report was lost, typically because the node
     * running the collection died. Sharding restarts that collection from its journal elsewhere,
     * and the journal is the judge. One nobody answers within {@link #RESOLVE_DEADLINE} is given up
     * and a new epoch starts, so one lost report can neither stall the stream for long nor lose an
     * acknowledged write to readers.
     */
    private void onOverdue() {
        Instant now = clock.instant();
        List<PublishedEvent> released = new ArrayList<>();
        boolean gaveUp = false;
        for (PublicationOrder.Range r : order.overdue(now, ASK_AFTER)) {
            Holder holder = holders.get(r.first());
            RecipientRef<CollectionProtocol.Command> collection =
                    holder == null ? null : collections.apply(holder.namespace());
            if (!r.allocatedAt().plus(RESOLVE_DEADLINE).isBefore(now)) {
                if (collection != null) {
                    collection.tell(
                            new CollectionProtocol.Resolve(
                                    r.first(), r.last(), holder.requestId(), self));
                }
                continue;
            }
            context.getLog()
                    .warn(
                            "resourceVersions {}..{} unresolved after {}: given up, starting a new epoch",
                            r.first(),
                            r.last(),
                            Duration.between(r.allocatedAt(), now));
            forget(r.first());
            givenUp.add(r.first());
            if (givenUp.size() > MAX_GIVEN_UP) {
                givenUp.pollFirst();
            }
            released.addAll(order.abandoned(r.first()));
            gaveUp = true;
        }
        if (!gaveUp) {
            return;
        }
        publish(released);
        // Readers rebuild from the collections, which hold whatever of the given-up versions was
        // persisted.
        newEpoch("unresolved resourceVersions given up");
    }

    private ReplyEffect<Event, State> onResolved(State state, Resolved r) {
        if (forget(r.first()) == null) {
            return Effect().noReply(); // resolved meanwhile (a late report, or an earlier answer)
        }
        List<PublishedEvent> released = order.abandoned(r.first());
        if (r.resolution() == Resolution.NOT_PERSISTED) {
            return publish(released);
        }
        publish(released);
        return newEpoch(
                "resourceVersion " + r.first() + " may have been persisted without a report");
    }

    /**
     * Once handing over and nothing is unresolved: records where the stream stands and stops. Until
     * then allocations keep resolving (or are given up by {@link #onOverdue}).
     */
    private ReplyEffect<Event, State> handOverIfSettled() {
        if (!handingOver || order.pendingCount() > 0) {
            return Effect().noReply();
        }
        context.getLog().debug("handing over at {} (epoch {})", sentUpTo, epoch);
        return Effect()
                .persist(new HandedOver(epoch, sentUpTo, List.copyOf(subscribers)))
                .thenStop()
                .thenNoReply();
    }

    private ReplyEffect<Event, State> onAllocate(State state, Allocate c) {
        if (handingOver) {
            return Effect()
                    .reply(c.replyTo(), new Allocated(Allocated.MOVING, c.requestId(), self));
        }
        long first = next;
        long last = first + c.count() - 1;
        next = last + 1;
        order.allocated(first, last, clock.instant());
        holders.put(first, new Holder(c.namespace(), c.requestId()));
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
