package io.kubepekko.api.meta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.ResourceType;

/**
 * {@code metadata.selfLink}, which Kubernetes stopped setting (feature gate RemoveSelfLink, on by
 * default). With the gate off, responses carry it again: the object's path, or the collection's on
 * a list. It is never stored, only added to what is sent.
 */
public final class SelfLinks {
    private SelfLinks() {}

    /**
     * The collection's path: {@code /api/v1/namespaces/ns/pods}, {@code /apis/g/v/nodes}, or all
     * namespaces.
     */
    public static String collection(ResourceType type, String namespace) {
        String root =
                type.group().isEmpty()
                        ? "/api/" + type.version()
                        : "/apis/" + type.group() + "/" + type.version();
        boolean inNamespace = type.namespaced() && namespace != null && !namespace.isEmpty();
        return root + (inNamespace ? "/namespaces/" + namespace : "") + "/" + type.resource();
    }

    /** The stored object's JSON with its selfLink set. */
    public static byte[] withSelfLink(ResourceType type, byte[] json) {
        ObjectNode object = Json.parseTrusted(json);
        ObjectNode meta = ObjectMeta.of(object);
        meta.put(
                "selfLink",
                collection(type, ObjectMeta.namespace(object)) + "/" + ObjectMeta.name(object));
        return Json.bytes(object);
    }
}
