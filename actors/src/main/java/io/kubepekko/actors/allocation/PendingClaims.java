package io.kubepekko.actors.allocation;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The claims a {@link ValueAllocator} granted and persisted that their collections have not settled
 * yet (this incarnation's only), so that it asks about those left unsettled too long.
 */
final class PendingClaims {

    private record Pending(String collection, Instant since) {}

    private final Map<String, Pending> byClaim = new HashMap<>();

    void granted(String claimId, String collection, Instant at) {
        byClaim.put(claimId, new Pending(collection, at));
    }

    /** The claim is settled or abandoned. */
    void settled(String claimId) {
        byClaim.remove(claimId);
    }

    /**
     * A report of {@code collection}: its claims not {@code inFlight} are settled or given up (the
     * holdings tell which of their values stay).
     */
    void reported(String collection, Set<String> inFlight) {
        byClaim.entrySet()
                .removeIf(
                        e ->
                                e.getValue().collection().equals(collection)
                                        && !inFlight.contains(e.getKey()));
    }

    /** The collections of the claims unsettled since before {@code limit}, each once. */
    Set<String> overdue(Instant limit) {
        Set<String> overdue = new LinkedHashSet<>();
        byClaim.values()
                .forEach(
                        p -> {
                            if (p.since().isBefore(limit)) {
                                overdue.add(p.collection());
                            }
                        });
        return overdue;
    }
}
