package io.kubepekko.api.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;
import java.util.Objects;

/**
 * What the mutating phase of admission made of one write ({@link MutatingAdmission}): the object
 * the write leaves from now on, or the refusal that answers the write instead.
 */
public sealed interface Mutation {

    /**
     * The write goes on with {@code object}: the request's own object when nothing changed, else a
     * changed copy (null on a delete, which has no new object).
     */
    record Admitted(ObjectNode object) implements Mutation {}

    /** The write is refused with {@code status}; nothing is stored. */
    record Refused(ApiStatus status) implements Mutation {
        public Refused {
            Objects.requireNonNull(status, "status");
        }
    }
}
