package io.kubepekko.api.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;

/**
 * A check of an object a user is about to write (create or update), run before the write reaches
 * the store: the place of kube's registry-level admission such as RBAC's escalation prevention.
 * Implementations are pure over what they were built with and never throw for any input.
 */
@FunctionalInterface
public interface WriteAdmission {

    /** Admits everything: the plain port, whose user is in {@code system:masters}. */
    WriteAdmission NONE = (user, resource, namespace, object) -> Optional.empty();

    /**
     * Why {@code user} may not write {@code object}, or empty when they may.
     *
     * @param resource the written resource (group and plural name)
     * @param namespace the request's namespace, empty for a cluster-scoped resource
     * @param object the decoded body as it will be written
     */
    Optional<ApiStatus> refusal(
            UserInfo user, GroupResource resource, String namespace, ObjectNode object);
}
