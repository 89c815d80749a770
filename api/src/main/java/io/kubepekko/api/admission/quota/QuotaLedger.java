package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.Operation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What each ResourceQuota has used, as this server knows it: the quotas and the tracked objects its
 * informers observed, plus the charges of writes it admitted that its informers have not observed
 * yet. A charge stands in for the object it charged (on an update, for the object as observed
 * before) until an informer observes that object as charged, the object is deleted, or the charge
 * expires (a write refused after admission, by validation or a conflict, leaves a charge that no
 * observation settles; until it expires the quota is the stricter for it, never looser).
 *
 * <p>Why two admits cannot overspend: a check and its charge happen under the namespace's lock, so
 * the second admit sees the first's charge. Every resource a quota limits is charged by one kind
 * only ({@code pods} and {@code cpu} by pods, {@code services} by services...), and a kind's writes
 * in one namespace all run in that collection's single writer, which lives on one server of the
 * cluster: the charges that matter to a check are all in that server's ledger. (When sharding moves
 * a collection to another server, the charges its informers have not observed yet stay behind: the
 * quota can be overspent by the writes of that moment.) Kube gets the same guarantee with a
 * compare-and-swap of the quota's {@code status.used}; here the status is the controller's report
 * of what is observed, and admission never writes it.
 */
public final class QuotaLedger {

    /** How long an admitted charge stands when no observation settles it. */
    public static final Duration DEFAULT_CHARGE_TTL = Duration.ofSeconds(30);

    private record Key(GroupResource resource, String name) {}

    /** One tracked object as charged: its evaluator, its fields and its usage. */
    private record Entry(
            QuotaEvaluator evaluator, JsonNode object, Map<String, QuotaAmount> usage) {}

    private record Charge(String uid, boolean create, Entry entry, Instant expires) {}

    private final Clock clock;
    private final Duration chargeTtl;
    private final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();
    private final QuotaListings listings = new QuotaListings();

    private final Function<JsonNode, QuotaSpec> specs;

    /**
     * Admission's ledger: quotas enforce their {@code status.hard} once their usage is reported.
     */
    public QuotaLedger(Clock clock, Duration chargeTtl) {
        this(clock, chargeTtl, QuotaSpec::of);
    }

    private QuotaLedger(Clock clock, Duration chargeTtl, Function<JsonNode, QuotaSpec> specs) {
        this.clock = clock;
        this.chargeTtl = chargeTtl;
        this.specs = specs;
    }

    /** The controller's ledger, which counts usage for each quota's {@code spec.hard}. */
    public static QuotaLedger ofSpecs(Clock clock) {
        return new QuotaLedger(clock, DEFAULT_CHARGE_TTL, QuotaSpec::desired);
    }

    /**
     * Admits a write of a tracked resource or refuses it with kube's message; an admitted write
     * that is not a dry run is charged. While the resource is followed but its informer has not
     * listed yet, what it has used is unknown here: a quota that limits it refuses the write as one
     * whose status does not report that usage ({@code status unknown for quota}), never admits it
     * on an undercount.
     *
     * @param oldObject the stored object on an update, else null
     */
    public QuotaCheck.Result admit(
            QuotaEvaluator evaluator,
            Operation operation,
            String namespace,
            JsonNode object,
            JsonNode oldObject,
            boolean dryRun) {
        Namespace ns = namespaces.get(namespace);
        if (ns == null) {
            return new QuotaCheck.Admitted(new TreeMap<>(), List.of());
        }
        synchronized (ns) {
            Instant now = clock.instant();
            ns.expire(now);
            QuotaCheck.Result result =
                    QuotaCheck.check(
                            evaluator,
                            List.copyOf(ns.quotas.values()),
                            ns.totals,
                            listings.known(evaluator.resource()),
                            operation,
                            object,
                            oldObject,
                            now);
            if (!dryRun
                    && result instanceof QuotaCheck.Admitted admitted
                    && !admitted.quotas().isEmpty()) {
                Key key = new Key(evaluator.resource(), name(object));
                Entry entry = new Entry(evaluator, object, admitted.usage());
                ns.change(
                        key,
                        () ->
                                ns.charges.put(
                                        key,
                                        new Charge(
                                                uid(object),
                                                operation == Operation.CREATE,
                                                entry,
                                                now.plus(chargeTtl))));
            }
            return result;
        }
    }

    /**
     * A relist of {@code resource}: what is listed now is all there is. The first list of the
     * quotas fixes what {@link #readiness()} waits for: every resource followed by then.
     */
    public void replace(GroupResource resource, List<? extends JsonNode> objects) {
        Map<String, List<JsonNode>> byNamespace = new HashMap<>();
        for (JsonNode o : objects) {
            byNamespace.computeIfAbsent(namespaceOf(o), n -> new ArrayList<>()).add(o);
        }
        Set<String> all = new HashSet<>(namespaces.keySet());
        all.addAll(byNamespace.keySet());
        for (String namespace : all) {
            List<JsonNode> listedHere = byNamespace.getOrDefault(namespace, List.of());
            Namespace ns = namespace(namespace);
            synchronized (ns) {
                if (isQuotas(resource)) {
                    Map<String, QuotaSpec> fresh = new TreeMap<>();
                    listedHere.forEach(q -> fresh.put(name(q), specs.apply(q)));
                    ns.quotas.clear();
                    ns.quotas.putAll(fresh);
                    ns.recount();
                }
                Optional<QuotaEvaluator> evaluator = QuotaEvaluators.of(resource);
                if (evaluator.isPresent()) {
                    Set<String> names = new HashSet<>();
                    for (JsonNode o : listedHere) {
                        names.add(name(o));
                        ns.observe(evaluator.get(), o, clock.instant());
                    }
                    for (Key key : List.copyOf(ns.observed.keySet())) {
                        if (key.resource().equals(resource) && !names.contains(key.name())) {
                            ns.forget(key, uid(ns.observed.get(key).object()));
                        }
                    }
                }
            }
        }
        listings.listed(resource);
    }

    /** An object of {@code resource} added or changed. */
    public void put(GroupResource resource, JsonNode object) {
        Namespace ns = namespace(namespaceOf(object));
        synchronized (ns) {
            if (isQuotas(resource)) {
                QuotaSpec spec = specs.apply(object);
                // A status write that changes neither limits nor known usages: no recount.
                if (!spec.equals(ns.quotas.put(name(object), spec))) {
                    ns.recount();
                }
            }
            QuotaEvaluators.of(resource).ifPresent(e -> ns.observe(e, object, clock.instant()));
        }
    }

    /**
     * Every observed object's usage evaluated again at the clock's time, as kube's quota controller
     * recalculates usage at each full resync: a pod deleted with a grace period stops counting once
     * the period is over, though no event told of it.
     */
    public void reevaluate() {
        Instant now = clock.instant();
        for (Namespace ns : namespaces.values()) {
            synchronized (ns) {
                for (Map.Entry<Key, Entry> e : List.copyOf(ns.observed.entrySet())) {
                    Entry old = e.getValue();
                    Map<String, QuotaAmount> usage = old.evaluator().usage(old.object(), now);
                    if (!usage.equals(old.usage())) {
                        Entry fresh = new Entry(old.evaluator(), old.object(), usage);
                        ns.change(e.getKey(), () -> ns.observed.put(e.getKey(), fresh));
                    }
                }
            }
        }
    }

    /** An object of {@code resource} deleted. */
    public void remove(GroupResource resource, JsonNode object) {
        Namespace ns = namespace(namespaceOf(object));
        synchronized (ns) {
            if (isQuotas(resource)) {
                ns.quotas.remove(name(object));
                ns.totals.remove(name(object));
            }
            if (QuotaEvaluators.of(resource).isPresent()) {
                ns.forget(new Key(resource, name(object)), uid(object));
            }
        }
    }

    /**
     * What each quota of {@code namespace} has used, by quota name, every hard resource listed
     * (zero when nothing uses it); with {@code observedOnly}, without the charges not observed yet
     * (what the controller reports).
     */
    public Map<String, SortedMap<String, QuotaAmount>> used(
            String namespace, boolean observedOnly) {
        Namespace ns = namespaces.get(namespace);
        Map<String, SortedMap<String, QuotaAmount>> used = new TreeMap<>();
        if (ns == null) {
            return used;
        }
        synchronized (ns) {
            ns.expire(clock.instant());
            for (QuotaSpec quota : ns.quotas.values()) {
                SortedMap<String, QuotaAmount> total = new TreeMap<>();
                for (String name : quota.hard().keySet()) {
                    total.put(name, QuotaAmount.ZERO);
                }
                Map<Key, Entry> entries = new HashMap<>(ns.observed);
                if (!observedOnly) {
                    ns.charges.forEach((k, c) -> entries.put(k, c.entry()));
                }
                for (Entry e : entries.values()) {
                    total = ResourceLists.add(total, contribution(quota, e));
                }
                used.put(quota.name(), total);
            }
        }
        return used;
    }

    /**
     * Says that an informer of {@code resource} feeds this ledger from now on: until it has listed,
     * the usage of what it charges is unknown (a write a quota limits of it is refused, a quota
     * limiting it is not ready). A resource never followed contributes nothing and waits for
     * nothing.
     */
    public void follow(GroupResource resource) {
        listings.follow(resource);
    }

    /** The resources followed so far, in no order. */
    public Set<GroupResource> followed() {
        return listings.followed();
    }

    /**
     * Empty once the quotas were listed and every resource followed by then (what the quotas in
     * effect at start needed) was listed too; until then why not. A resource followed later, for a
     * quota created since, never makes the ledger unready again: {@link #readiness(String, String)}
     * tells of it, for each quota.
     */
    public Optional<String> readiness() {
        return listings.readiness();
    }

    /**
     * Empty once every followed resource that charges something the quota {@code name} of {@code
     * namespace} limits has listed (its usage in {@link #used} is then complete), or when the
     * ledger does not know the quota; until then why not.
     */
    public Optional<String> readiness(String namespace, String name) {
        Namespace ns = namespaces.get(namespace);
        if (ns == null) {
            return Optional.empty();
        }
        Set<String> limited;
        synchronized (ns) {
            QuotaSpec quota = ns.quotas.get(name);
            if (quota == null) {
                return Optional.empty();
            }
            limited = quota.hard().keySet();
        }
        return listings.readiness(limited);
    }

    private Namespace namespace(String name) {
        return namespaces.computeIfAbsent(name, n -> new Namespace());
    }

    private static boolean isQuotas(GroupResource resource) {
        return resource.group().isEmpty() && resource.resource().equals("resourcequotas");
    }

    /**
     * What {@code entry} counts against {@code quota}: its usage of the quota's resources if it
     * matches.
     */
    private static Map<String, QuotaAmount> contribution(QuotaSpec quota, Entry entry) {
        if (entry == null || !entry.evaluator().matches(quota, entry.object())) {
            return Map.of();
        }
        return ResourceLists.mask(
                entry.usage(), entry.evaluator().matchingResources(quota.hard().keySet()));
    }

    /** One namespace's state; every access holds its lock. */
    private static final class Namespace {
        final Map<String, QuotaSpec> quotas = new TreeMap<>();
        final Map<Key, Entry> observed = new HashMap<>();
        final Map<Key, Charge> charges = new HashMap<>();

        /** Each quota's total over the entries in effect (a charge, else the observation). */
        final Map<String, SortedMap<String, QuotaAmount>> totals = new HashMap<>();

        private Entry effective(Key key) {
            Charge charge = charges.get(key);
            return charge != null ? charge.entry() : observed.get(key);
        }

        /** Runs {@code mutation} of {@code key}'s entries, keeping the totals. */
        void change(Key key, Runnable mutation) {
            Entry before = effective(key);
            mutation.run();
            Entry after = effective(key);
            if (before == after) {
                return;
            }
            for (QuotaSpec quota : quotas.values()) {
                SortedMap<String, QuotaAmount> total =
                        totals.getOrDefault(quota.name(), new TreeMap<>());
                total = ResourceLists.subtract(total, contribution(quota, before));
                total = ResourceLists.add(total, contribution(quota, after));
                totals.put(quota.name(), total);
            }
        }

        /** Every quota's total anew, after the quotas changed. */
        void recount() {
            totals.clear();
            Set<Key> keys = new HashSet<>(observed.keySet());
            keys.addAll(charges.keySet());
            for (QuotaSpec quota : quotas.values()) {
                SortedMap<String, QuotaAmount> total = new TreeMap<>();
                for (Key key : keys) {
                    total = ResourceLists.add(total, contribution(quota, effective(key)));
                }
                totals.put(quota.name(), total);
            }
        }

        /** An informer's view of a tracked object; it settles a charge of it it shows. */
        void observe(QuotaEvaluator evaluator, JsonNode object, Instant now) {
            Key key = new Key(evaluator.resource(), name(object));
            Entry entry = new Entry(evaluator, object, evaluator.usage(object, now));
            change(
                    key,
                    () -> {
                        observed.put(key, entry);
                        Charge charge = charges.get(key);
                        if (charge != null
                                && charge.uid().equals(uid(object))
                                && (charge.create()
                                        || charge.entry().usage().equals(entry.usage()))) {
                            charges.remove(key);
                        }
                    });
        }

        /** A tracked object deleted: its charge too, if it charged that object ({@code uid}). */
        void forget(Key key, String uid) {
            change(
                    key,
                    () -> {
                        observed.remove(key);
                        Charge charge = charges.get(key);
                        if (charge != null && charge.uid().equals(uid)) {
                            charges.remove(key);
                        }
                    });
        }

        void expire(Instant now) {
            List<Key> expired = new ArrayList<>();
            charges.forEach(
                    (key, charge) -> {
                        if (now.isAfter(charge.expires())) {
                            expired.add(key);
                        }
                    });
            for (Key key : expired) {
                change(key, () -> charges.remove(key));
            }
        }
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText("");
    }

    private static String namespaceOf(JsonNode object) {
        return object.path("metadata").path("namespace").asText("");
    }

    private static String uid(JsonNode object) {
        return object.path("metadata").path("uid").asText("");
    }
}
