package io.kubepekko.api.gc;

import java.util.Optional;

/**
 * The {@code propagationPolicy} of {@code DeleteOptions}: what a delete does to the object's
 * dependents.
 */
public enum PropagationPolicy {
    /**
     * The owner goes once its blocking dependents are gone ({@code foregroundDeletion} finalizer).
     */
    FOREGROUND("Foreground"),
    /** The owner goes now; the garbage collector deletes its dependents afterwards. */
    BACKGROUND("Background"),
    /** The owner goes once its dependents no longer name it ({@code orphan} finalizer). */
    ORPHAN("Orphan");

    private final String wireName;

    PropagationPolicy(String wireName) {
        this.wireName = wireName;
    }

    /** The spelling in a request: {@code Foreground}, {@code Background} or {@code Orphan}. */
    public String wireName() {
        return wireName;
    }

    /**
     * The policy spelled exactly {@code value} (case-sensitive, as Kubernetes compares it), or
     * empty.
     */
    public static Optional<PropagationPolicy> of(String value) {
        for (PropagationPolicy p : values()) {
            if (p.wireName.equals(value)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
