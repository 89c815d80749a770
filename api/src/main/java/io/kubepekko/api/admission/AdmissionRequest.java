package io.kubepekko.api.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.status.ApiStatus;
import java.util.Objects;

/**
 * One write as admission sees it: kube's {@code admission.Attributes}. It is built inside the
 * write, where the stored object and the object the write leaves are both known, so a patch is
 * judged by its actual result against what is stored, in the same step that stores it.
 *
 * @param operation create, update or delete
 * @param user who writes
 * @param resource the resource the request addressed ({@code bindings} for a create forwarded to
 *     {@code pods/binding})
 * @param subresource the subresource written ({@code status}, {@code binding}, {@code token}…),
 *     empty for the object itself
 * @param namespace the request's namespace, empty for a cluster-scoped resource
 * @param name the object's name: the URL's, or on a create the body's (empty when the server
 *     generates it)
 * @param object the object the write leaves (for a subresource create, the body: a Binding, a
 *     TokenRequest); null on a delete
 * @param oldObject the stored object the write replaces or deletes; null on a create
 * @param dryRun whether nothing will be persisted (a plugin with side effects must then have none)
 */
public record AdmissionRequest(
        Operation operation,
        UserInfo user,
        GroupResource resource,
        String subresource,
        String namespace,
        String name,
        ObjectNode object,
        ObjectNode oldObject,
        boolean dryRun) {

    public AdmissionRequest {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(resource, "resource");
        subresource = subresource == null ? "" : subresource;
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
    }

    /** This request with {@code changed} as the object the write leaves (a mutating plugin's). */
    public AdmissionRequest withObject(ObjectNode changed) {
        return new AdmissionRequest(
                operation,
                user,
                resource,
                subresource,
                namespace,
                name,
                changed,
                oldObject,
                dryRun);
    }

    /**
     * kube's {@code admission.NewForbidden}: 403 naming the resource and {@link #subjectName}, with
     * {@code why} as the reason.
     */
    public ApiStatus forbidden(String why) {
        return ApiStatus.forbidden(resource, subjectName(), why);
    }

    /**
     * The name an admission error names (kube's {@code extractResourceName}): the request's, else
     * the object's {@code generateName} (a generated name is not known yet), else {@code Unknown}.
     */
    public String subjectName() {
        if (!name.isEmpty()) {
            return name;
        }
        String generateName = object == null ? null : ObjectMeta.generateName(object);
        return generateName == null || generateName.isEmpty() ? "Unknown" : generateName;
    }
}
