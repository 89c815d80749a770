package io.kubepekko.actors.allocation;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.Claims;
import io.kubepekko.api.alloc.ValuePool;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.persistence.CborSerializable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.random.RandomGenerator;
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
import org.pcollections.TreePMap;

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
        extends EventSourcedBehaviorWithEnforcedReplies<
                ValueAllocator.Command, ValueAllocator.Event, ValueAllocator.State> {

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
    static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

    /**
     * How often a collection is asked again when its report is stale or missing, before it is given
     * up on.
     */
    static final int MAX_REPORT_ATTEMPTS = 5;

    // ---- state ----

    /**
     * Who holds a value: the collection (entity id) and the claim that took it, which a collection
     * names while the claim's batch is in flight.
     */
    public record Owner(String collection, String claim) implements CborSerializable {}

    /** Every value that is claimed or held, as its {@link Claims#key}, and its owner. */
    public record State(TreePMap<String, Owner> owners) implements CborSerializable {
        static final State EMPTY = new State(TreePMap.empty());

        @JsonCreator
        static State fromJson(@JsonProperty("owners") Map<String, Owner> owners) {
            return new State(TreePMap.from(owners == null ? Map.of() : owners));
        }

        @JsonProperty("owners")
        Map<String, Owner> ownersForJson() {
            return new TreeMap<>(owners);
        }

        State apply(Event event) {
            if (event instanceof ValuesClaimed c) {
                return new State(claimed(owners, c));
            }
            ValuesReleased r = (ValuesReleased) event;
            return new State(released(owners, r.collection(), r.keys()));
        }
    }

    private static TreePMap<String, Owner> claimed(
            TreePMap<String, Owner> owners, ValuesClaimed c) {
        Owner owner = new Owner(c.collection(), c.claimId());
        TreePMap<String, Owner> next = owners;
        for (String key : c.keys()) {
            next = next.plus(key, owner);
        }
        return next;
    }

    /** {@code owners} without those of {@code keys} that {@code collection} owns. */
    private static TreePMap<String, Owner> released(
            TreePMap<String, Owner> owners, String collection, List<String> keys) {
        TreePMap<String, Owner> next = owners;
        for (String key : keys) {
            Owner o = next.get(key);
            if (o != null && o.collection().equals(collection)) {
                next = next.minus(key);
            }
        }
        return next;
    }

    // ---- commands ----

    /** Protocol of {@link ValueAllocator}. */
    public sealed interface Command extends CborSerializable
            permits Claim,
                    Settle,
                    Abandon,
                    Flush,
                    Tick,
                    NamespacesListed,
                    HoldingsReported,
                    AskAgain {}

    /**
     * Claims values for the writes of one batch of {@code collection} (a collection entity id),
     * each write's requests granted all together or not at all. {@code claimId} names the claim in
     * {@link Settle}, {@link Abandon} and holdings reports. A dry run only evaluates, as
     * Kubernetes' dry-run allocators do, and records nothing.
     */
    public record Claim(
            String collection,
            String claimId,
            List<List<ValueRequest>> writes,
            boolean dryRun,
            ActorRef<Claimed> replyTo)
            implements Command {}

    /**
     * The batch that made claim {@code claimId} ({@code null} when it claimed nothing) is
     * persisted: its claimed values are held; {@code released} are values its objects no longer
     * hold.
     */
    public record Settle(String collection, String claimId, List<String> released)
            implements Command {}

    /**
     * The batch that made claim {@code claimId} will never be persisted: its values are free again.
     */
    public record Abandon(String collection, String claimId) implements Command {}

    /** Internal: persist what is queued. */
    public enum Flush implements Command {
        INSTANCE
    }

    /** Internal: look for claims left unsettled too long. */
    public enum Tick implements Command {
        INSTANCE
    }

    /**
     * Internal: the namespaces whose collections of {@code resource} may hold values, or a failure.
     */
    public record NamespacesListed(String resource, List<String> namespaces, String failure)
            implements Command {}

    /**
     * Internal: a collection's report, asked for when the allocator had processed {@code asked}
     * items, or a failure.
     */
    public record HoldingsReported(
            String collection, long asked, CollectionProtocol.Holdings holdings, String failure)
            implements Command {}

    /** Internal: ask a collection (or a resource's namespace list) again. */
    public record AskAgain(String collection, String resource) implements Command {}

    // ---- replies ----

    /**
     * One result per write of the claim, in order; {@code unavailable} (results empty) when the
     * allocator cannot take claims now.
     */
    public record Claimed(String claimId, List<ClaimResult> results, String unavailable)
            implements CborSerializable {}

    // ---- events ----

    /** Events of {@link ValueAllocator}; facts, never renamed. */
    public sealed interface Event extends CborSerializable permits ValuesClaimed, ValuesReleased {}

    /**
     * {@code collection} claimed {@code keys} (by claim {@code claimId}, or adopted by a
     * reconciliation).
     */
    public record ValuesClaimed(String collection, String claimId, List<String> keys)
            implements Event {}

    /** {@code keys} owned by {@code collection} are free again. */
    public record ValuesReleased(String collection, List<String> keys) implements Event {}

    // ---- behaviour ----

    /**
     * A claim granted and persisted but not yet settled by its collection (this incarnation's
     * only).
     */
    private record Pending(String collection, Instant since) {}

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

    private final Map<String, Pending> pending = new HashMap<>();

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
        this.pools = Map.copyOf(pools);
        this.directory = directory;
        this.clock = clock;
        this.random = random;
    }

    @Override
    public State emptyState() {
        return State.EMPTY;
    }

    @Override
    public RetentionCriteria retentionCriteria() {
        return RetentionCriteria.snapshotEvery(1000, 2);
    }

    @Override
    public SignalHandler<State> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(
                        RecoveryCompleted.instance(),
                        state -> {
                            // Started at every recovery: the restart that follows a journal failure
                            // cancels the
                            // actor's timers, and without the tick unsettled claims would never be
                            // checked again.
                            timers.startTimerWithFixedDelay(Tick.INSTANCE, TICK);
                            reconcileAll(state);
                        })
                .build();
    }

    /**
     * Asks every collection that may hold values — those the sequencers know and those the journal
     * records as owners — before any claim is answered.
     */
    private void reconcileAll(State state) {
        ready = false;
        for (GroupResource resource : directory.resources()) {
            outstanding.add("namespaces:" + resource);
            listNamespaces(resource);
        }
        state.owners().values().stream()
                .map(Owner::collection)
                .distinct()
                .forEach(this::askInitially);
        becomeReadyIfDone();
    }

    private void listNamespaces(GroupResource resource) {
        context.ask(
                RevisionsProtocol.Namespaces.class,
                directory.revisions().apply(resource),
                ASK_TIMEOUT,
                RevisionsProtocol.GetNamespaces::new,
                (reply, failure) ->
                        new NamespacesListed(
                                resource.toString(),
                                reply == null ? List.of() : reply.namespaces(),
                                failure == null ? null : String.valueOf(failure)));
    }

    private void askInitially(String collection) {
        if (!ready) {
            outstanding.add(collection);
        }
        ask(collection);
    }

    /** Asks {@code collection} for its holdings, unless a question is already out. */
    private void ask(String collection) {
        long[] entry = asked.get(collection);
        if (entry != null && entry[0] >= 0) {
            return;
        }
        long attempts = entry == null ? 0 : entry[1];
        long at = tick;
        asked.put(collection, new long[] {at, attempts + 1});
        context.ask(
                CollectionProtocol.Holdings.class,
                directory.collections().apply(collection),
                ASK_TIMEOUT,
                CollectionProtocol.ReportHoldings::new,
                (reply, failure) ->
                        new HoldingsReported(
                                collection,
                                at,
                                reply,
                                failure == null ? null : String.valueOf(failure)));
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
    public CommandHandlerWithReply<Command, Event, State> commandHandler() {
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
                                        .ifPresent(this::listNamespaces);
                            } else {
                                ask(c.collection());
                            }
                            return Effect().noReply();
                        })
                .build();
    }

    private ReplyEffect<Event, State> onClaim(State state, Claim c) {
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

    private ReplyEffect<Event, State> enqueue(Object item) {
        queue.add(item);
        scheduleFlush();
        return Effect().noReply();
    }

    /**
     * Processes everything queued in order against the persisted state plus the batch's own
     * changes, and persists it at once.
     */
    private ReplyEffect<Event, State> flush(State state, Flush f) {
        flushScheduled = false;
        TreePMap<String, Owner> working = state.owners();
        List<Event> events = new ArrayList<>();
        List<Runnable> afterPersist = new ArrayList<>();
        while (!queue.isEmpty()) {
            Object item = queue.poll();
            tick++;
            if (item instanceof Claim c) {
                touched.put(c.collection(), tick);
                List<ClaimResult> results = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                for (List<ValueRequest> write : c.writes()) {
                    TreePMap<String, Owner> current = working;
                    ClaimResult r =
                            Claims.evaluate(write, pools, current::containsKey, random, false);
                    results.add(r);
                    if (r.isGranted()) {
                        for (int i = 0; i < write.size(); i++) {
                            String key = Claims.key(write.get(i).pool(), r.granted().get(i));
                            keys.add(key);
                            working = working.plus(key, new Owner(c.collection(), c.claimId()));
                        }
                    }
                }
                if (!keys.isEmpty()) {
                    events.add(new ValuesClaimed(c.collection(), c.claimId(), keys));
                    Instant now = clock.instant();
                    afterPersist.add(
                            () -> pending.put(c.claimId(), new Pending(c.collection(), now)));
                }
                Claimed reply = new Claimed(c.claimId(), results, null);
                afterPersist.add(() -> c.replyTo().tell(reply));
            } else if (item instanceof Settle s) {
                touched.put(s.collection(), tick);
                if (s.claimId() != null) {
                    pending.remove(s.claimId());
                }
                working = release(working, s.collection(), s.released(), events);
            } else if (item instanceof Abandon a) {
                touched.put(a.collection(), tick);
                pending.remove(a.claimId());
                working =
                        release(
                                working,
                                a.collection(),
                                keysOf(working, a.collection(), Set.of(a.claimId())),
                                events);
            } else {
                working = reconcile(working, (Reconcile) item, events);
            }
        }
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
     * The keys {@code collection} owns through one of {@code claims} (scanned: abandons and reports
     * are rare).
     */
    private static List<String> keysOf(
            TreePMap<String, Owner> working, String collection, Set<String> claims) {
        List<String> keys = new ArrayList<>();
        working.forEach(
                (key, owner) -> {
                    if (owner.collection().equals(collection) && claims.contains(owner.claim())) {
                        keys.add(key);
                    }
                });
        return keys;
    }

    private static TreePMap<String, Owner> release(
            TreePMap<String, Owner> working,
            String collection,
            List<String> keys,
            List<Event> events) {
        List<String> owned =
                keys.stream()
                        .filter(
                                k ->
                                        working.get(k) != null
                                                && collection.equals(working.get(k).collection()))
                        .distinct()
                        .toList();
        if (owned.isEmpty()) {
            return working;
        }
        events.add(new ValuesReleased(collection, owned));
        return released(working, collection, owned);
    }

    /**
     * Applies a collection's report: what it owns here but neither holds nor has in flight is
     * released; what it holds that nobody owns here is adopted (values stored before this allocator
     * existed); a report older than the collection's last processed change is asked for again.
     */
    private TreePMap<String, Owner> reconcile(
            TreePMap<String, Owner> working, Reconcile r, List<Event> events) {
        String collection = r.collection();
        if (touched.getOrDefault(collection, -1L) > r.asked()) {
            askAgainLater(collection);
            return working;
        }
        asked.remove(collection);
        if (outstanding.remove(collection)) {
            becomeReadyIfDone(); // the waiting claims join the queue behind this report
        }
        Set<String> inFlight = new HashSet<>(r.holdings().inFlight());
        Set<String> keep = new HashSet<>(r.holdings().held());
        keep.addAll(keysOf(working, collection, inFlight));
        // Claims not in flight are settled or given up: the holdings tell which of their values
        // stay.
        pending.entrySet()
                .removeIf(
                        e ->
                                e.getValue().collection().equals(collection)
                                        && !inFlight.contains(e.getKey()));
        List<String> release = new ArrayList<>();
        for (Map.Entry<String, Owner> e : working.entrySet()) {
            if (e.getValue().collection().equals(collection) && !keep.contains(e.getKey())) {
                release.add(e.getKey());
            }
        }
        if (!release.isEmpty()) {
            context.getLog().info("{} held by no object of {}: released", release, collection);
        }
        TreePMap<String, Owner> next = release(working, collection, release, events);
        List<String> adopt = new ArrayList<>();
        for (String key : r.holdings().held()) {
            Owner owner = next.get(key);
            if (owner == null) {
                adopt.add(key);
            } else if (!owner.collection().equals(collection)) {
                context.getLog()
                        .error(
                                "{} is held by an object of {} and claimed by {}",
                                key,
                                collection,
                                owner.collection());
            }
        }
        if (!adopt.isEmpty()) {
            ValuesClaimed adopted = new ValuesClaimed(collection, "reconciled", adopt);
            events.add(adopted);
            next = claimed(next, adopted);
        }
        return next;
    }

    private ReplyEffect<Event, State> onNamespaces(State state, NamespacesListed n) {
        if (n.failure() != null) {
            context.getLog()
                    .warn(
                            "could not list the namespaces of {}: {}; asking again",
                            n.resource(),
                            n.failure());
            timers.startSingleTimer(
                    "namespaces:" + n.resource(),
                    new AskAgain(null, n.resource()),
                    Duration.ofSeconds(1));
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

    private ReplyEffect<Event, State> onHoldings(State state, HoldingsReported h) {
        long[] entry = asked.get(h.collection());
        if (entry == null || entry[0] != h.asked()) {
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
        long[] entry = asked.get(collection);
        if (entry != null && entry[1] >= MAX_REPORT_ATTEMPTS) {
            context.getLog()
                    .warn("giving up reconciling {} after {} attempts", collection, entry[1]);
            asked.remove(collection);
            outstanding.remove(collection);
            becomeReadyIfDone();
            return;
        }
        if (entry != null) {
            entry[0] = -1; // not out any more: the next ask may go
        }
        timers.startSingleTimer(
                "holdings:" + collection, new AskAgain(collection, null), Duration.ofSeconds(1));
    }

    /** Claims nobody settled within {@link #PENDING_DEADLINE}: their collections are asked. */
    private ReplyEffect<Event, State> onTick() {
        Instant limit = clock.instant().minus(PENDING_DEADLINE);
        Set<String> overdue = new LinkedHashSet<>();
        pending.values()
                .forEach(
                        p -> {
                            if (p.since().isBefore(limit)) {
                                overdue.add(p.collection());
                            }
                        });
        overdue.forEach(this::ask);
        return Effect().noReply();
    }

    @Override
    public EventHandler<State, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState().onAnyEvent(State::apply);
    }
}
