package io.kubepekko.actors.allocation;

import io.kubepekko.actors.allocation.AllocatorEvent.ValuesClaimed;
import io.kubepekko.actors.allocation.AllocatorEvent.ValuesReleased;
import io.kubepekko.actors.allocation.AllocatorState.Owner;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.Claims;
import io.kubepekko.api.alloc.ValuePool;
import io.kubepekko.api.alloc.ValueRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.pcollections.TreePMap;

/**
 * Who owns which values while a {@link ValueAllocator} processes one batch: claims, settlements,
 * abandons and collections' reports, applied in order to the persisted owners plus the batch's own
 * changes, and the events that record them. No actor and no I/O: the allocator decides here and
 * persists the events.
 */
final class Ownership {

    /** One claim's answer: a result per write, in order, and whether it took any value. */
    record ClaimOutcome(List<ClaimResult> results, boolean tookValues) {}

    /** A value a collection's object holds that another collection owns here. */
    record Conflict(String key, String owner) {}

    /**
     * What a collection's report changed: the values it owned here that none of its objects holds
     * and no claim of it in flight took (released), and the values its objects hold that another
     * collection owns (left as they are).
     */
    record Reconciled(List<String> released, List<Conflict> conflicts) {}

    private TreePMap<String, Owner> owners;
    private final List<AllocatorEvent> events = new ArrayList<>();

    Ownership(TreePMap<String, Owner> owners) {
        this.owners = owners;
    }

    /** The events of what was applied, in order. */
    List<AllocatorEvent> events() {
        return events;
    }

    TreePMap<String, Owner> owners() {
        return owners;
    }

    /**
     * Claims values for the writes of one batch of {@code collection}, each write's requests
     * granted all together or not at all, against what is owned so far.
     */
    ClaimOutcome claim(
            String collection,
            String claimId,
            List<List<ValueRequest>> writes,
            Map<String, ValuePool> pools,
            RandomGenerator random) {
        List<ClaimResult> results = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (List<ValueRequest> write : writes) {
            TreePMap<String, Owner> current = owners;
            ClaimResult r = Claims.evaluate(write, pools, current::containsKey, random, false);
            results.add(r);
            if (r.isGranted()) {
                for (int i = 0; i < write.size(); i++) {
                    String key = Claims.key(write.get(i).pool(), r.granted().get(i));
                    keys.add(key);
                    owners = owners.plus(key, new Owner(collection, claimId));
                }
            }
        }
        if (!keys.isEmpty()) {
            events.add(new ValuesClaimed(collection, claimId, keys));
        }
        return new ClaimOutcome(results, !keys.isEmpty());
    }

    /** A batch of {@code collection} is persisted; its objects no longer hold {@code released}. */
    void settle(String collection, List<String> released) {
        release(collection, released);
    }

    /** The batch that made claim {@code claimId} will never be persisted: its values are free. */
    void abandon(String collection, String claimId) {
        release(collection, keysOf(collection, Set.of(claimId)));
    }

    /**
     * Applies a collection's report: what it owns here but neither {@code held} by its objects nor
     * taken by a claim {@code inFlight} is released; what it holds that nobody owns here is adopted
     * (values stored before this allocator existed).
     */
    Reconciled reconcile(String collection, List<String> held, Set<String> inFlight) {
        Set<String> keep = new HashSet<>(held);
        keep.addAll(keysOf(collection, inFlight));
        List<String> release = new ArrayList<>();
        for (Map.Entry<String, Owner> e : owners.entrySet()) {
            if (e.getValue().collection().equals(collection) && !keep.contains(e.getKey())) {
                release.add(e.getKey());
            }
        }
        release(collection, release);
        List<String> adopt = new ArrayList<>();
        List<Conflict> conflicts = new ArrayList<>();
        for (String key : held) {
            Owner owner = owners.get(key);
            if (owner == null) {
                adopt.add(key);
            } else if (!owner.collection().equals(collection)) {
                conflicts.add(new Conflict(key, owner.collection()));
            }
        }
        if (!adopt.isEmpty()) {
            ValuesClaimed adopted = new ValuesClaimed(collection, "reconciled", adopt);
            events.add(adopted);
            owners = claimed(owners, adopted);
        }
        return new Reconciled(release, conflicts);
    }

    /**
     * The keys {@code collection} owns through one of {@code claims} (scanned: abandons and reports
     * are rare).
     */
    private List<String> keysOf(String collection, Set<String> claims) {
        List<String> keys = new ArrayList<>();
        owners.forEach(
                (key, owner) -> {
                    if (owner.collection().equals(collection) && claims.contains(owner.claim())) {
                        keys.add(key);
                    }
                });
        return keys;
    }

    private void release(String collection, List<String> keys) {
        TreePMap<String, Owner> working = owners;
        List<String> owned =
                keys.stream()
                        .filter(
                                k ->
                                        working.get(k) != null
                                                && collection.equals(working.get(k).collection()))
                        .distinct()
                        .toList();
        if (owned.isEmpty()) {
            return;
        }
        events.add(new ValuesReleased(collection, owned));
        owners = released(owners, collection, owned);
    }

    static TreePMap<String, Owner> claimed(TreePMap<String, Owner> owners, ValuesClaimed c) {
        Owner owner = new Owner(c.collection(), c.claimId());
        TreePMap<String, Owner> next = owners;
        for (String key : c.keys()) {
            next = next.plus(key, owner);
        }
        return next;
    }

    /** {@code owners} without those of {@code keys} that {@code collection} owns. */
    static TreePMap<String, Owner> released(
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
}
