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
public interface WriteAdmission {

    /** Admits everything: the plain port, whose user is in {@code system:masters}. */
    WriteAdmission NONE =
            new WriteAdmission() {
                @Override
                public boolean concerns(GroupResource resource) {
                    return false;
                }

                @Override
                public Optional<ApiStatus> refusal(
                        UserInfo user,
                        GroupResource resource,
                        String namespace,
                        ObjectNode object) {
                    return Optional.empty();
                }
            };

    /**
     * Whether writes of {@code resource} are checked at all: a patch is tried (dry run) for its
     * result only when they are.
     */
    boolean concerns(GroupResource resource);

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
