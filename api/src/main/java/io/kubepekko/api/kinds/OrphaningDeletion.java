package io.kubepekko.api.kinds;

import io.kubepekko.api.registry.DeletionRules;
import io.kubepekko.api.registry.GarbageCollectionPolicy;
import java.util.List;

/**
 * batch/v1 Jobs orphan their pods unless the client names a propagation, for compatibility with the
 * first Job API, and say so in a warning (Kubernetes' job strategy and storage).
 */
final class OrphaningDeletion implements DeletionRules {

    static final String JOB_WARNING =
            "child pods are preserved by default when jobs are deleted; "
                    + "set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning";

    @Override
    public GarbageCollectionPolicy defaultGarbageCollectionPolicy() {
        return GarbageCollectionPolicy.ORPHAN_DEPENDENTS;
    }

    @Override
    public List<String> defaultPropagationWarnings() {
        return List.of(JOB_WARNING);
    }
}
