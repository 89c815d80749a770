package io.kubepekko.api.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The deletion state of an object as the garbage collector reads it: the two finalizers that carry
 * a propagation policy, and whether deletion has begun.
 */
public final class DeletionState {

    /** Set by a Foreground delete: the object goes once its blocking dependents are gone. */
    public static final String FOREGROUND_FINALIZER = "foregroundDeletion";

    /** Set by an Orphan delete: the object goes once its dependents no longer name it as owner. */
    public static final String ORPHAN_FINALIZER = "orphan";

    private DeletionState() {}

    public static boolean beingDeleted(ObjectNode obj) {
        return obj.path("metadata").hasNonNull("deletionTimestamp");
    }

    public static boolean hasFinalizer(ObjectNode obj, String finalizer) {
        for (JsonNode f : obj.path("metadata").path("finalizers")) {
            if (finalizer.equals(f.asText())) {
                return true;
            }
        }
        return false;
    }

    /** Being deleted in the foreground: its dependents are deleted first. */
    public static boolean deletingDependents(ObjectNode obj) {
        return beingDeleted(obj) && hasFinalizer(obj, FOREGROUND_FINALIZER);
    }

    /** Being deleted with the orphan policy: its dependents are released first. */
    public static boolean orphaningDependents(ObjectNode obj) {
        return beingDeleted(obj) && hasFinalizer(obj, ORPHAN_FINALIZER);
    }
}
