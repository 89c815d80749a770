package io.kubepekko.api.admission.quota;

import io.kubepekko.api.GroupResource;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which resources feed a {@link QuotaLedger} and which of them have listed: a resource followed but
 * not listed yet has a usage the ledger does not know. Thread-safe: the source's actor writes,
 * admission reads.
 */
final class QuotaListings {

    private final Set<GroupResource> followed = ConcurrentHashMap.newKeySet();
    private final Set<GroupResource> listed = ConcurrentHashMap.newKeySet();

    /**
     * The resources followed when the quotas were first listed (the source follows what they need
     * before it hands their list over): what {@link #readiness()} waits for; null before.
     */
    private volatile Set<GroupResource> followedAtStart;

    void follow(GroupResource resource) {
        followed.add(resource);
    }

    /** {@code resource} has listed; the quotas' first list fixes what readiness waits for. */
    void listed(GroupResource resource) {
        listed.add(resource);
        if (resource.equals(QuotaEvaluators.QUOTAS) && followedAtStart == null) {
            followedAtStart = Set.copyOf(followed);
        }
    }

    Set<GroupResource> followed() {
        return Set.copyOf(followed);
    }

    /** Whether what {@code resource} charges is known: not followed, or followed and listed. */
    boolean known(GroupResource resource) {
        return !followed.contains(resource) || listed.contains(resource);
    }

    /** See {@link QuotaLedger#readiness()}. */
    Optional<String> readiness() {
        if (followed.isEmpty()) {
            return Optional.of("resource quota informers not started yet");
        }
        Set<GroupResource> awaited = followedAtStart;
        if (awaited == null) {
            return notListed(QuotaEvaluators.QUOTAS);
        }
        for (GroupResource r : awaited) {
            if (!listed.contains(r)) {
                return notListed(r);
            }
        }
        return Optional.empty();
    }

    /** Why what a quota limiting {@code limited} has used is not complete yet, if it is not. */
    Optional<String> readiness(Set<String> limited) {
        for (GroupResource r : followed) {
            if (listed.contains(r)) {
                continue;
            }
            Optional<QuotaEvaluator> evaluator = QuotaEvaluators.of(r);
            if (evaluator.isPresent() && !evaluator.get().matchingResources(limited).isEmpty()) {
                return notListed(r);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> notListed(GroupResource resource) {
        return Optional.of("resource quota usage not listed yet: " + resource);
    }
}
