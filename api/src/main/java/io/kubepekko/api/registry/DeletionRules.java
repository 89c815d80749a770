package io.kubepekko.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * How one kind's DELETE differs from Kubernetes' generic store: graceful deletion (pods), the
 * default garbage-collection policy (Jobs orphan, Events take no part), and the namespace lifecycle
 * (the first delete only starts termination; {@code spec.finalizers} also hold the object). Pure; a
 * kind that deletes generically uses {@link #GENERIC}.
 */
public interface DeletionRules {

    DeletionRules GENERIC = new DeletionRules() {};

    /** Kubernetes' {@code DefaultGarbageCollectionPolicy}. */
    default GarbageCollectionPolicy defaultGarbageCollectionPolicy() {
        return GarbageCollectionPolicy.DELETE_DEPENDENTS;
    }

    /** Whether the kind deletes gracefully (Kubernetes' {@code RESTGracefulDeleteStrategy}). */
    default boolean graceful() {
        return false;
    }

    /**
     * Kubernetes' {@code CheckGracefulDelete} for a graceful kind: the grace period a first delete
     * of {@code obj} gets, given the one the client asked for ({@code null} when it named none).
     */
    default long gracePeriodSeconds(ObjectNode obj, Long requested) {
        return requested == null ? 0 : requested;
    }

    /** Warnings for a DELETE whose client left the propagation to the kind's default. */
    default List<String> defaultPropagationWarnings() {
        return List.of();
    }

    /**
     * Why an object of this name may never be deleted (NamespaceLifecycle's immortal namespaces),
     * or {@code null} when it may.
     */
    default String undeletable(String name) {
        return null;
    }

    /**
     * Whether a first DELETE only starts termination, whatever finalizers the object holds, as
     * Kubernetes' namespace storage does; later deletes then run the generic store's.
     */
    default boolean terminatesOnFirstDelete() {
        return false;
    }

    /**
     * What starting termination changes beyond metadata (a namespace's {@code status.phase}).
     * Mutates.
     */
    default void markTerminating(ObjectNode obj) {}

    /**
     * Whether something beyond {@code metadata.finalizers} holds a terminating object (a
     * namespace's {@code spec.finalizers}).
     */
    default boolean removalHeld(ObjectNode obj) {
        return false;
    }
}
