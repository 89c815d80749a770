package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;

/**
 * The {@link WriteAdmission} of one write, bound by {@link ObjectWrites} to who sends it and what
 * it addresses: the step that runs the write asks it once, with the stored object and the object
 * the write leaves, before the kind's validation.
 */
@FunctionalInterface
interface AdmissionStep {

    /** The server's own writes: nothing to ask. */
    AdmissionStep NONE = (operation, oldObject, object) -> Optional.empty();

    /**
     * @param oldObject the stored object, null on a create
     * @param object the object the write leaves (a subresource create's body), null on a delete
     */
    Optional<ApiStatus> refusal(Operation operation, ObjectNode oldObject, ObjectNode object);
}
