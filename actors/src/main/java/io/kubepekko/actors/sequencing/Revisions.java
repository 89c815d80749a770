package io.kubepekko.actors.sequencing;

import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.sequencing.RevisionsEvent.BlockReserved;
import io.kubepekko.actors.sequencing.RevisionsEvent.CollectionAdded;
import io.kubepekko.actors.sequencing.RevisionsEvent.HandedOver;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Abandoned;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Allocate;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Allocated;
import io.kubepekko.actors.sequencing.RevisionsProtocol.CheckOverdue;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Command;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Committed;
import io.kubepekko.actors.sequencing.RevisionsProtocol.GetLatest;
import io.kubepekko.actors.sequencing.RevisionsProtocol.GetNamespaces;
import io.kubepekko.actors.sequencing.RevisionsProtocol.HandOver;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Latest;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Namespaces;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Published;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Resolution;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Resolved;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Subscribe;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Unsubscribe;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.watch.AllocationLedger;
import io.kubepekko.api.watch.PublicationOrder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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

/**
 * Hands out resourceVersions for one group-resource: decimal integers, strictly increasing, also
 * across restarts. Versions are reserved in durable blocks, so a restarted instance starts above
 * anything it may have handed out (gaps are fine). It also remembers which namespaces' collections
 * have ever held objects, so that readers ask only those.
 */
public final class Revisions
        extends EventSourcedBehaviorWithEnforcedReplies<Command, RevisionsEvent, RevisionsState> {

    public static final EntityTypeKey<Command> TYPE_KEY =
            EntityTypeKey.create(Command.class, "Revisions");

    /** How many versions one durable reservation covers. */
    static final long BLOCK = 1000;

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

    /** Versions handed out so far in this incarnation: the next one to give is {@code next}. */
    private long next = 1;

    private PublicationOrder<PublishedEvent> order = new PublicationOrder<>(0);
    private String epoch = UUID.randomUUID().toString();

    /**
     * Who holds each unresolved allocation, and which commits cannot be published in order: those
     * of versions an earlier incarnation handed out, or given up (readers then rebuild from the
     * collections: a new epoch).
     */
    private final AllocationLedger<PublishedEvent> ledger = new AllocationLedger<>(MAX_GIVEN_UP);

    /** Whether sharding asked this instance to stop ({@link HandOver}). */
    private boolean handingOver;

    /**
     * The {@code upTo} of the last batch published (sent, or due but with nobody to send it to).
     */
    private long sentUpTo;

    private final Readers readers;
    private final ActorContext<Command> context;
    private final Clock clock;

    /**
     * Reaches the collection of a namespace (through sharding: it starts it from its journal if
     * need be).
     */
    private final Function<String, RecipientRef<CollectionProtocol.Command>> collections;

    /** How many allocations given up unanswered are remembered. */
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
     *     HandedOver} elsewhere are taken over only if so (see {@link Readers#takeOver})
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
        this.readers = new Readers(context, member);
        this.timers = timers;
    }

    @Override
    public RevisionsState emptyState() {
        return RevisionsState.EMPTY;
    }

    @Override
    public RetentionCriteria retentionCriteria() {
        return RetentionCriteria.snapshotEvery(100, 2);
    }

    @Override
    public SignalHandler<RevisionsState> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(
                        RecoveryCompleted.instance(),
                        state -> {
                            // Started at every recovery: when the journal fails (a persist, or the
                            // recovery itself), Pekko restarts this behaviour with back-off and
                            // cancels every timer of the actor. A sequencer without its tick sends
                            // no heartbeat, never resolves an allocation whose report was lost, and
                            // never retries a hand-over: its stream stalls for good.
                            timers.startTimerWithFixedDelay(CheckOverdue.INSTANCE, TICK);
                            // The fields outlive such a restart, but the allocations they tracked
                            // do not: this life starts like a new incarnation, above everything the
                            // earlier one may have handed out, in a new epoch (unless the hand-over
                            // was recorded).
                            epoch = UUID.randomUUID().toString();
                            // Whatever the previous incarnation handed out is at most reservedUpTo.
                            next = state.reservedUpTo() + 1;
                            order = new PublicationOrder<>(state.reservedUpTo());
                            sentUpTo = state.reservedUpTo();
                            ledger.restart(state.reservedUpTo());
                            HandedOver h = state.handedOver();
                            if (h != null) {
                                // Nothing was in flight: the versions after sentUpTo were never
                                // handed out, so the same stream goes on, from where its readers
                                // are.
                                epoch = h.epoch();
                                sentUpTo = h.sentUpTo();
                                readers.takeOver(h.subscribers());
                                publish(List.of());
                            }
                            context.getLog()
                                    .debug(
                                            "sequencing from {} in epoch {} ({})",
                                            next,
                                            epoch,
                                            h != null
                                                    ? "handed over, " + readers.count() + " readers"
                                                    : "new epoch");
                        })
                .build();
    }

    @Override
    public CommandHandlerWithReply<Command, RevisionsEvent, RevisionsState> commandHandler() {
        return newCommandHandlerWithReplyBuilder()
                .forAnyState()
                .onCommand(Allocate.class, this::onAllocate)
                .onCommand(
                        Committed.class,
                        (state, c) -> {
                            List<PublishedEvent> events =
                                    ledger.reported(c.first(), c.events(), c.more());
                            if (events == null) {
                                return Effect().noReply(); // more parts to come
                            }
                            ledger.forget(c.first());
                            String outOfOrder = ledger.outOfOrder(c.first(), events.isEmpty());
                            if (outOfOrder != null) {
                                return newEpoch(outOfOrder);
                            }
                            return publish(order.committed(c.first(), events));
                        })
                .onCommand(
                        Abandoned.class,
                        (state, c) -> {
                            ledger.forget(c.first());
                            return publish(order.abandoned(c.first()));
                        })
                .onCommand(Resolved.class, this::onResolved)
                .onCommand(
                        Subscribe.class,
                        (state, c) -> {
                            readers.subscribe(c.subscriber());
                            c.subscriber()
                                    .tell(new Published(epoch, sentUpTo, sentUpTo, List.of()));
                            return Effect().noReply();
                        })
                .onCommand(
                        Unsubscribe.class,
                        (state, c) -> {
                            readers.unsubscribe(c.subscriber());
                            return Effect().noReply();
                        })
                .onCommand(
                        CheckOverdue.class,
                        (state, c) -> {
                            if (!readers.sentSinceTick()) {
                                // A heartbeat: readers that hear nothing subscribe again.
                                publish(List.of());
                            }
                            readers.tick();
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

    private ReplyEffect<RevisionsEvent, RevisionsState> publish(List<PublishedEvent> released) {
        long upTo = order.publishedUpTo();
        readers.send(epoch, sentUpTo, upTo, released);
        sentUpTo = upTo;
        return handOverIfSettled();
    }

    /**
     * Some committed change cannot be published in order — a version handed out by an earlier
     * incarnation committed after this one started, or a version given up or unaccounted for — so
     * readers rebuild from the collections, which hold every persisted change (a collection reports
     * a commit only after it has applied it, and answers reads only between writes).
     */
    private ReplyEffect<RevisionsEvent, RevisionsState> newEpoch(String why) {
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
            AllocationLedger.Holder holder = ledger.holder(r.first());
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
            ledger.giveUp(r.first());
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

    private ReplyEffect<RevisionsEvent, RevisionsState> onResolved(
            RevisionsState state, Resolved r) {
        if (ledger.forget(r.first()) == null) {
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
    private ReplyEffect<RevisionsEvent, RevisionsState> handOverIfSettled() {
        if (!handingOver || order.pendingCount() > 0) {
            return Effect().noReply();
        }
        context.getLog().debug("handing over at {} (epoch {})", sentUpTo, epoch);
        return Effect()
                .persist(new HandedOver(epoch, sentUpTo, readers.all()))
                .thenStop()
                .thenNoReply();
    }

    private ReplyEffect<RevisionsEvent, RevisionsState> onAllocate(
            RevisionsState state, Allocate c) {
        if (handingOver) {
            return Effect()
                    .reply(c.replyTo(), new Allocated(Allocated.MOVING, c.requestId(), self));
        }
        long first = next;
        long last = first + c.count() - 1;
        next = last + 1;
        order.allocated(first, last, clock.instant());
        ledger.allocated(first, c.namespace(), c.requestId());
        List<RevisionsEvent> events = new ArrayList<>(2);
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
    public EventHandler<RevisionsState, RevisionsEvent> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent(RevisionsState::apply);
    }
}
