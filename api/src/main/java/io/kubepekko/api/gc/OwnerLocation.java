package io.kubepekko.api.gc;

import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;

/**
 * Where an owner reference points, by Kubernetes' rules: an owner reference carries no namespace,
 * so a namespaced owner is looked up in its dependent's namespace only, a cluster-scoped owner
 * without one, and a cluster-scoped dependent cannot have a namespaced owner at all.
 */
public sealed interface OwnerLocation {

    /**
     * The owner is the object {@code name} of {@code type} in {@code namespace} ("" when
     * cluster-scoped).
     */
    record At(ResourceType type, String namespace, String name) implements OwnerLocation {}

    /**
     * The reference cannot be looked up. The garbage collector neither deletes nor patches a
     * dependent with such a reference (kube's attemptToDeleteItem stops at the first such error).
     */
    record Unresolvable(Reason reason, String message) implements OwnerLocation {}

    /** Why a reference cannot be looked up. */
    enum Reason {
        /**
         * No served kind at the reference's apiVersion (kube's restMappingError: retried, never
         * collected).
         */
        UNKNOWN_KIND,
        /**
         * A cluster-scoped dependent naming a namespaced owner (kube's OwnerRefInvalidNamespace).
         */
        NAMESPACED_OWNER_OF_CLUSTER_SCOPED
    }

    /**
     * @param dependentNamespace the dependent's namespace, "" when it is cluster-scoped
     */
    static OwnerLocation of(Registry registry, String dependentNamespace, OwnerReference ref) {
        ResourceType type = registry.findKind(ref.apiVersion(), ref.kind()).orElse(null);
        if (type == null) {
            return new Unresolvable(
                    Reason.UNKNOWN_KIND,
                    "unable to get REST mapping for " + ref.apiVersion() + "/" + ref.kind() + ".");
        }
        if (!type.namespaced()) {
            return new At(type, "", ref.name());
        }
        if (dependentNamespace == null || dependentNamespace.isEmpty()) {
            return new Unresolvable(
                    Reason.NAMESPACED_OWNER_OF_CLUSTER_SCOPED,
                    "cluster-scoped objects cannot refer to namespaced owners");
        }
        return new At(type, dependentNamespace, ref.name());
    }
}
