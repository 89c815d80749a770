package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;

/**
 * The {@link WriteAdmission} of one write, bound by {@link ObjectWrites} to who sends it and what
 * it addresses: the step that runs the write asks its mutating phase once, where kube runs its
 * mutating plugins (after the defaults, before the kind prepares the object), and its refusing
 * phase once, with the stored object and the object the write leaves, before the kind's validation.
 */
interface AdmissionStep {

    /** The server's own writes: nothing to ask. */
    AdmissionStep NONE =
            new AdmissionStep() {
                @Override
                public Mutation mutation(
                        Operation operation, ObjectNode oldObject, ObjectNode object) {
                    return new Mutation.Admitted(object);
                }

                @Override
                public Optional<ApiStatus> refusal(
                        Operation operation, ObjectNode oldObject, ObjectNode object) {
                    return Optional.empty();
                }
            };

    /**
     * The object the write goes on with (a changed copy or {@code object} itself), or the refusal.
     *
     * @param oldObject the stored object, null on a create
     * @param object the object the write would leave (a subresource create's body), null on a
     *     delete
     */
    Mutation mutation(Operation operation, ObjectNode oldObject, ObjectNode object);

    /**
     * @param oldObject the stored object, null on a create
     * @param object the object the write leaves (a subresource create's body), null on a delete
     */
    Optional<ApiStatus> refusal(Operation operation, ObjectNode oldObject, ObjectNode object);
}
