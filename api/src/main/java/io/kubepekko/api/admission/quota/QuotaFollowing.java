package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.registry.ResourceType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which resources a quota source's informers follow: the ResourceQuotas from the start, and any
 * other stored resource from the first time an observed quota limits something it charges ({@link
 * QuotaEvaluators#needed}). Following only those spares the parse and the ledger entry of every
 * write of a resource no quota limits (a ConfigMap where no quota counts configmaps). A resource
 * once followed stays followed: a quota that stops needing it costs its informer, not a wrong
 * count. One actor owns it (not thread-safe).
 */
public final class QuotaFollowing {

    private final List<ResourceType> stored;
    private final Set<GroupResource> followed = new HashSet<>();

    /**
     * @param stored the resources whose objects are stored (the registry's), the only ones an
     *     informer can follow
     */
    public QuotaFollowing(List<ResourceType> stored) {
        this.stored = List.copyOf(stored);
    }

    /** What to follow from the start: the ResourceQuotas, once. */
    public List<GroupResource> start() {
        return newly(Set.of(QuotaEvaluators.QUOTAS));
    }

    /**
     * What to start following now that {@code resourceQuota} (a stored ResourceQuota, its spec and
     * status) is observed: what it needs that is not followed yet, in name order.
     */
    public List<GroupResource> neededFor(JsonNode resourceQuota) {
        return newly(QuotaEvaluators.needed(QuotaSpec.limitedNames(resourceQuota), stored));
    }

    private List<GroupResource> newly(Set<GroupResource> needed) {
        List<GroupResource> fresh = new ArrayList<>();
        for (GroupResource r : needed) {
            if (followed.add(r)) {
                fresh.add(r);
            }
        }
        return fresh;
    }
}
