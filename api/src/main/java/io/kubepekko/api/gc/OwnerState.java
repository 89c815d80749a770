package io.kubepekko.api.gc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.ObjectMeta;

/** What the garbage collector found at an owner reference (kube's classifyReferences). */
public enum OwnerState {
    /** The owner exists and does not wait for its dependents. */
    SOLID,
    /** No such owner: absent, or the name now belongs to an object with another uid. */
    DANGLING,
    /** The owner is being deleted in the foreground: it waits for its dependents to go. */
    WAITING_FOR_DEPENDENTS;

    /**
     * @param found the object at the reference's location, or {@code null} when there is none
     */
    public static OwnerState classify(OwnerReference ref, ObjectNode found) {
        if (found == null || !ref.uid().equals(ObjectMeta.uid(found))) {
            return DANGLING;
        }
        return DeletionState.deletingDependents(found) ? WAITING_FOR_DEPENDENTS : SOLID;
    }
}
