package io.kubepekko.api.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import java.util.Optional;

/**
 * An object a controller keeps in every active namespace, under one name: kube's serviceaccounts
 * controller's {@code default} ServiceAccount ({@link DefaultServiceAccount}) and the root CA
 * publisher's {@code kube-root-ca.crt} ConfigMap ({@link RootCaConfigMap}). The controller creates
 * {@link #created} where the object is missing (again after it was deleted) and writes back {@link
 * #corrected} where one exists but differs from what is published.
 */
public interface PublishedObject {

    /** The resource the object is of. */
    GroupResource resource();

    /** Its name in every namespace. */
    String name();

    /** The object to create in {@code namespace} (without its namespace: the write's). */
    ObjectNode created();

    /**
     * {@code existing} (not modified) changed to what is published, or empty when it already is.
     */
    Optional<ObjectNode> corrected(ObjectNode existing);

    /**
     * Whether a namespace as {@code namespace} is gets the object: kube's controllers skip one
     * whose phase is not {@code Active} (being deleted).
     */
    static boolean active(ObjectNode namespace) {
        return namespace.path("metadata").path("deletionTimestamp").asText("").isEmpty()
                && "Active".equals(namespace.path("status").path("phase").asText(""));
    }
}
