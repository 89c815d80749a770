package io.kubepekko.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.status.FieldError;
import java.util.List;

/**
 * What a POST to a subresource of an existing object does to that object (kube-apiserver's {@code
 * NamedCreater} subresources, such as {@code pods/binding}). The generic pipeline decodes the body
 * as {@link #bodyKind()}, checks its namespace and that it names the object of the URL, validates
 * it here, finds the object (404 when absent) and checks the preconditions; then {@link #apply}
 * changes the object, inside the collection's single writer, as storage's {@code GuaranteedUpdate}
 * would. The object is written as it is returned: the kind's own update rules (defaults,
 * validation, generation, managedFields) are not run, as kube-apiserver writes it straight to
 * storage. The answer is a {@code Status} of success with code 201.
 */
public interface SubresourceCreate {

    /** The kind of the request body, e.g. core/v1 {@code Binding}. */
    GroupVersionKind bodyKind();

    /** The body's problems, answered as one 422 on {@link #bodyKind()}; empty when it is valid. */
    List<FieldError> validate(ObjectNode body);

    /**
     * Whether the body's {@code metadata.uid} and {@code metadata.resourceVersion} are
     * preconditions on the object (kube-apiserver's {@code SubresourceObjectMetaPreserver}). A
     * request forwarded by a resource without objects ({@link ForwardedCreate}) has its uid wiped
     * first, as every create has.
     */
    default boolean takesPreconditionsFromBody() {
        return false;
    }

    /**
     * The object after the create. Pure; {@code current} is a copy the method may change and
     * return.
     *
     * @param now the write's time as a {@code metav1.Time} ({@code 2026-01-02T03:04:05Z}), for the
     *     timestamps the change records
     * @throws io.kubepekko.api.status.ApiException when the object's state refuses the create (409)
     */
    ObjectNode apply(ObjectNode current, ObjectNode body, String now);
}
