package io.kubepekko.api.registry;

/**
 * What happens to an object's dependents when it is deleted and the client names no policy
 * (Kubernetes' {@code rest.GarbageCollectionPolicy}).
 */
public enum GarbageCollectionPolicy {
    /**
     * The garbage collector deletes the dependents in the background (no finalizer); most kinds.
     */
    DELETE_DEPENDENTS,
    /**
     * The {@code orphan} finalizer is added: dependents lose their owner reference (batch/v1 Jobs).
     */
    ORPHAN_DEPENDENTS,
    /** The kind takes part in no garbage collection: no GC finalizer is ever set (core Events). */
    UNSUPPORTED
}
