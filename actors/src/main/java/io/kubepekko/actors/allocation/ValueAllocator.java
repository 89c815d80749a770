package io.kubepekko.actors.allocation;

import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.allocation.AllocatorProtocol.Abandon;
import io.kubepekko.actors.allocation.AllocatorProtocol.AskAgain;
import io.kubepekko.actors.allocation.AllocatorProtocol.Claim;
import io.kubepekko.actors.allocation.AllocatorProtocol.Claimed;
import io.kubepekko.actors.allocation.AllocatorProtocol.Command;
import io.kubepekko.actors.allocation.AllocatorProtocol.Flush;
import io.kubepekko.actors.allocation.AllocatorProtocol.HoldingsReported;
import io.kubepekko.actors.allocation.AllocatorProtocol.NamespacesListed;
import io.kubepekko.actors.allocation.AllocatorProtocol.Settle;
import io.kubepekko.actors.allocation.AllocatorProtocol.Tick;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.Claims;
import io.kubepekko.api.alloc.ValuePool;
import io.kubepekko.api.alloc.ValueRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.random.RandomGenerator;
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
 * Hands out values that must be unique across the whole cluster (Service cluster IPs and node
 * ports) to the collections whose kinds declare them ({@link
 * io.kubepekko.api.alloc.ClusterValues}). One instance per allocator name, a sharded entity that is
 * never passivated.
 *
 * <p><b>Durable before visible.</b> A value is persisted as claimed by a collection before the
 * claim is answered, so no value the collection may store is ever handed out again, whatever
 * restarts (kill -9 included). The collection tells the allocator once its write is persisted
 * ({@link Settle}: the claim is kept, the values its objects stopped holding are released) or
 * failed ({@link Abandon}: the claim's values are released). Claims, settlements and abandons are
 * processed in arrival order and persisted in batches.
 *
 * <p><b>The collections are the judge.</b> A lost settlement (a crash between a collection's
 * journal write and its message) would leak a value, so at start (recovery), and for any claim
 * unsettled past {@link #PENDING_DEADLINE}, the allocator asks the collections which values their
 * objects hold and which claims are still in flight ({@link CollectionProtocol.ReportHoldings}),
 * and releases the rest of what it has recorded for them. Claims wait until that first
 * reconciliation is done. A report is applied only if nothing of that collection was processed
 * since it was asked for (else it is asked again), so a stale report never releases a value a newer
 * write holds.
 */
public final class ValueAllocator
        extends EventSourcedBehaviorWithEnforcedReplies<Command, AllocatorEvent, AllocatorState> {

    public static final EntityTypeKey<Command> TYPE_KEY =
            EntityTypeKey.create(Command.class, "ValueAllocator");

    /**
     * Bound of claims waiting (for the first reconciliation or the next batch); beyond it, claims
     * are refused.
     */
    static final int MAX_QUEUE = 10_000;

    /** How long a claim may stay unsettled before the allocator asks its collection. */
    static final Duration PENDING_DEADLINE = Duration.ofSeconds(30);

    static final Duration TICK = Duration.ofSeconds(5);

    /**
     * How often a collection is asked again when its report is stale or missing, before it is given
     * up on.
     */
    static final int MAX_REPORT_ATTEMPTS = 5;

    /** A collection's report to apply, in queue order with the claims and settlements. */
    private record Reconcile(String collection, long asked, CollectionProtocol.Holdings holdings) {}

    /** Where the allocator finds the collections and sequencers it reconciles against. */
    public record Directory(
            List<GroupResource> resources,
            Function<GroupResource, RecipientRef<RevisionsProtocol.Command>> revisions,
            Function<String, RecipientRef<CollectionProtocol.Command>> collections) {}

    private final ActorContext<Command> context;
    private final TimerScheduler<Command> timers;
    private final Map<String, ValuePool> pools;
    private final Directory directory;
    private final Clock clock;
    private final RandomGenerator random;

    /** Claims, settlements, abandons and reports to process in the next batch, in arrival order. */
    private final ArrayDeque<Object> queue = new ArrayDeque<>();

    /** Claims that arrived before the first reconciliation finished. */
    private final ArrayDeque<Claim> waiting = new ArrayDeque<>();

    private final PendingClaims pending = new PendingClaims();
    private final HoldingsAsks asks;

    /**
     * The collections asked for a report: the {@code tick} they were asked at (-1: not out) and the
     * attempts so far.
     */
    private final Map<String, long[]> asked = new HashMap<>();

    /** The {@code tick} at which something of each collection was last processed. */
    private final Map<String, Long> touched = new HashMap<>();

    /** What the first reconciliation still waits for: namespace lists and collections. */
    private final Set<String> outstanding = new HashSet<>();

    private boolean ready;
    private boolean flushScheduled;

    /**
     * Counts processed items, to tell whether a report is older than a collection's last change.
     */
    private long tick;

    public static Behavior<Command> create(
            String name,
            Map<String, ValuePool> pools,
            Directory directory,
            Clock clock,
            RandomGenerator random) {
        return Behaviors.withTimers(
                timers ->
                        Behaviors.setup(
                                ctx ->
                                        new ValueAllocator(
                                                name, ctx, timers, pools, directory, clock,
                                                random)));
    }

    private ValueAllocator(
            String name,
            ActorContext<Command> context,
            TimerScheduler<Command> timers,
            Map<String, ValuePool> pools,
            Directory directory,
            Clock clock,
            RandomGenerator random) {
        super(
                PersistenceId.of("ValueAllocator", name),
                SupervisorStrategy.restartWithBackoff(
                        Duration.ofMillis(200), Duration.ofSeconds(5), 0.2));
        this.context = context;
        this.timers = timers;
        this.asks = new HoldingsAsks(context, timers, directory);
        this.pools = Map.copyOf(pools);
        this.directory = directory;
        this.clock = clock;
        this.random = random;
    }

    @Override
    public AllocatorState emptyState() {
        return AllocatorState.EMPTY;
    }

    @Override
    public RetentionCriteria retentionCriteria() {
        return RetentionCriteria.snapshotEvery(1000, 2);
    }

    @Override
    public SignalHandler<AllocatorState> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(
                        RecoveryCompleted.instance(),
                        state -> {
                            // Started at every recovery: the restart that follows a journal failure
                            // cancels the actor's timers, and without the tick unsettled claims
                            // would never be checked again.
                            timers.startTimerWithFixedDelay(Tick.INSTANCE, TICK);
                            reconcileAll(state);
                        })
                .build();
    }

    /**
     * Asks every collection that may hold values — those the sequencers know and those the journal
     * records as owners — before any claim is answered.
     */
    private void reconcileAll(AllocatorState state) {
        ready = false;
        for (GroupResource resource : directory.resources()) {
            outstanding.add("namespaces:" + resource);
            asks.listNamespaces(resource);
        }
        state.owners().values().stream()
                .map(AllocatorState.Owner::collection)
                .distinct()
                .forEach(this::askInitially);
        becomeReadyIfDone();
    }

    private void askInitially(String collection) {
        if (!ready) {
            outstanding.add(collection);
        }
        asks.ask(collection, tick);
    }

    private void becomeReadyIfDone() {
        if (!ready && outstanding.isEmpty()) {
            ready = true;
            context.getLog()
                    .debug("value allocator reconciled; {} claims were waiting", waiting.size());
            queue.addAll(waiting);
            waiting.clear();
            scheduleFlush();
        }
    }

    private void scheduleFlush() {
        if (!flushScheduled && !queue.isEmpty()) {
            flushScheduled = true;
            context.getSelf().tell(Flush.INSTANCE);
        }
    }

    @Override
    public CommandHandlerWithReply<Command, AllocatorEvent, AllocatorState> commandHandler() {
        return newCommandHandlerWithReplyBuilder()
                .forAnyState()
                .onCommand(Claim.class, this::onClaim)
                .onCommand(Settle.class, (state, c) -> enqueue(c))
                .onCommand(Abandon.class, (state, c) -> enqueue(c))
                .onCommand(Flush.class, this::flush)
                .onCommand(Tick.class, (state, c) -> onTick())
                .onCommand(NamespacesListed.class, this::onNamespaces)
                .onCommand(HoldingsReported.class, this::onHoldings)
                .onCommand(
                        AskAgain.class,
                        (state, c) -> {
                            if (c.resource() != null) {
                                directory.resources().stream()
                                        .filter(r -> r.toString().equals(c.resource()))
                                        .findFirst()
                                        .ifPresent(asks::listNamespaces);
                            } else {
                                asks.ask(c.collection(), tick);
                            }
                            return Effect().noReply();
                        })
                .build();
    }

    private ReplyEffect<AllocatorEvent, AllocatorState> onClaim(AllocatorState state, Claim c) {
        if (c.dryRun()) {
            // Dry runs record nothing: evaluated against what is persisted, answered at once.
            List<ClaimResult> results = new ArrayList<>();
            for (List<ValueRequest> write : c.writes()) {
                results.add(
                        Claims.evaluate(write, pools, state.owners()::containsKey, random, true));
            }
            return Effect().reply(c.replyTo(), new Claimed(c.claimId(), results, null));
        }
        if (queue.size() + waiting.size() >= MAX_QUEUE) {
            return Effect()
                    .reply(
                            c.replyTo(),
                            new Claimed(
                                    c.claimId(),
                                    List.of(),
                                    "too many claims are waiting for the "
                                            + TYPE_KEY.name()
                                            + ", please try again later"));
        }
        if (!ready) {
            waiting.add(c);
            return Effect().noReply();
        }
        return enqueue(c);
    }

    private ReplyEffect<AllocatorEvent, AllocatorState> enqueue(Object item) {
        queue.add(item);
        scheduleFlush();
        return Effect().noReply();
    }

    /**
     * Processes everything queued in order against the persisted state plus the batch's own
     * changes, and persists it at once.
     */
    private ReplyEffect<AllocatorEvent, AllocatorState> flush(AllocatorState state, Flush f) {
        flushScheduled = false;
        Ownership working = new Ownership(state.owners());
        List<Runnable> afterPersist = new ArrayList<>();
        while (!queue.isEmpty()) {
            Object item = queue.poll();
            tick++;
            if (item instanceof Claim c) {
                touched.put(c.collection(), tick);
                Ownership.ClaimOutcome claimed =
                        working.claim(c.collection(), c.claimId(), c.writes(), pools, random);
                if (claimed.tookValues()) {
                    Instant now = clock.instant();
                    afterPersist.add(() -> pending.granted(c.claimId(), c.collection(), now));
                }
                Claimed reply = new Claimed(c.claimId(), claimed.results(), null);
                afterPersist.add(() -> c.replyTo().tell(reply));
            } else if (item instanceof Settle s) {
                touched.put(s.collection(), tick);
                if (s.claimId() != null) {
                    pending.settled(s.claimId());
                }
                working.settle(s.collection(), s.released());
            } else if (item instanceof Abandon a) {
                touched.put(a.collection(), tick);
                pending.settled(a.claimId());
                working.abandon(a.collection(), a.claimId());
            } else {
                reconcile(working, (Reconcile) item);
            }
        }
        List<AllocatorEvent> events = working.events();
        if (events.isEmpty()) {
            afterPersist.forEach(Runnable::run);
            return Effect().noReply();
        }
        return Effect()
                .persist(events)
                .thenRun(s -> afterPersist.forEach(Runnable::run))
                .thenNoReply();
    }

    /**
     * Applies a collection's report (see {@link Ownership#reconcile}), unless it is older than the
     * collection's last processed change: then it is asked for again.
     */
    private void reconcile(Ownership working, Reconcile r) {
        String collection = r.collection();
        if (touched.getOrDefault(collection, -1L) > r.asked()) {
            askAgainLater(collection);
            return;
        }
        asks.done(collection);
        if (outstanding.remove(collection)) {
            becomeReadyIfDone(); // the waiting claims join the queue behind this report
        }
        Set<String> inFlight = new HashSet<>(r.holdings().inFlight());
        pending.reported(collection, inFlight);
        Ownership.Reconciled done = working.reconcile(collection, r.holdings().held(), inFlight);
        if (!done.released().isEmpty()) {
            context.getLog()
                    .info("{} held by no object of {}: released", done.released(), collection);
        }
        for (Ownership.Conflict c : done.conflicts()) {
            context.getLog()
                    .error(
                            "{} is held by an object of {} and claimed by {}",
                            c.key(),
                            collection,
                            c.owner());
        }
    }

    private ReplyEffect<AllocatorEvent, AllocatorState> onNamespaces(
            AllocatorState state, NamespacesListed n) {
        if (n.failure() != null) {
            context.getLog()
                    .warn(
                            "could not list the namespaces of {}: {}; asking again",
                            n.resource(),
                            n.failure());
            asks.listNamespacesLater(n.resource());
            return Effect().noReply();
        }
        GroupResource resource = GroupResource.parse(n.resource());
        for (String namespace : n.namespaces()) {
            askInitially(new CollectionId(resource, namespace).entityId());
        }
        outstanding.remove("namespaces:" + n.resource());
        becomeReadyIfDone();
        return Effect().noReply();
    }

    private ReplyEffect<AllocatorEvent, AllocatorState> onHoldings(
            AllocatorState state, HoldingsReported h) {
        if (!asks.awaited(h.collection(), h.asked())) {
            return Effect().noReply(); // an answer to a question asked again since
        }
        if (h.failure() != null) {
            context.getLog()
                    .warn(
                            "collection {} did not report its holdings: {}",
                            h.collection(),
                            h.failure());
            askAgainLater(h.collection());
        } else {
            // Applied in queue order, and only then does it count for the first reconciliation.
            queue.add(new Reconcile(h.collection(), h.asked(), h.holdings()));
            scheduleFlush();
        }
        return Effect().noReply();
    }

    /**
     * Asks again after a second, or gives up on the collection after {@link #MAX_REPORT_ATTEMPTS}.
     */
    private void askAgainLater(String collection) {
        long attempts = asks.attempts(collection);
        if (attempts >= MAX_REPORT_ATTEMPTS) {
            context.getLog()
                    .warn("giving up reconciling {} after {} attempts", collection, attempts);
            asks.done(collection);
            outstanding.remove(collection);
            becomeReadyIfDone();
            return;
        }
        asks.askLater(collection);
    }

    /** Claims nobody settled within {@link #PENDING_DEADLINE}: their collections are asked. */
    private ReplyEffect<AllocatorEvent, AllocatorState> onTick() {
        pending.overdue(clock.instant().minus(PENDING_DEADLINE))
                .forEach(collection -> asks.ask(collection, tick));
        return Effect().noReply();
    }

    @Override
    public EventHandler<AllocatorState, AllocatorEvent> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent(AllocatorState::apply);
    }
}
