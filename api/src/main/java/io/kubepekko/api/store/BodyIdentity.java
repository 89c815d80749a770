package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;

/**
 * Whether a write's body names the object and namespace its request addresses. Each check answers
 * its refusal as a value (400, in kube-apiserver's words), empty when the write may go on.
 */
public final class BodyIdentity {
    private BodyIdentity() {}

    /**
     * A namespaced object takes the request's namespace; a different one in the body is refused. A
     * cluster-scoped object loses any namespace it names.
     */
    public static Optional<ApiStatus> placeInNamespace(
            ResourceType type, String namespace, ObjectNode obj, boolean create) {
        ObjectNode meta = ObjectMeta.of(obj);
        String bodyNs = ObjectMeta.namespace(obj);
        if (!type.namespaced()) {
            meta.remove("namespace");
        } else if (bodyNs == null || bodyNs.isEmpty()) {
            meta.put("namespace", namespace);
        } else if (!bodyNs.equals(namespace)) {
            return Optional.of(
                    ApiStatus.badRequest(
                            create
                                    ? "the namespace of the provided object does not match the namespace sent on the request"
                                    : namespaceMismatch(bodyNs, namespace)));
        }
        return Optional.empty();
    }

    /**
     * The request handler's check of an update or patch: the body names the URL's object (an absent
     * name is taken from the URL) and no other namespace than the request's ({@code namespace}
     * null: not checked).
     */
    static Optional<ApiStatus> namesUrlObject(String urlName, String namespace, ObjectNode obj) {
        String name = ObjectMeta.name(obj);
        if (name == null) {
            name = "";
        }
        if (!name.equals(urlName)) {
            return Optional.of(
                    ApiStatus.badRequest(
                            "the name of the object ("
                                    + name
                                    + ") does not match the name on the URL ("
                                    + urlName
                                    + ")"));
        }
        String bodyNs = ObjectMeta.namespace(obj);
        if (namespace != null
                && !namespace.isEmpty()
                && bodyNs != null
                && !bodyNs.isEmpty()
                && !bodyNs.equals(namespace)) {
            return Optional.of(ApiStatus.badRequest(namespaceMismatch(bodyNs, namespace)));
        }
        return Optional.empty();
    }

    private static String namespaceMismatch(String bodyNs, String namespace) {
        return "the namespace of the object ("
                + bodyNs
                + ") does not match the namespace on the request ("
                + namespace
                + ")";
    }
}
