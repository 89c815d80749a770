package io.kubepekko.api.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.ResourceType;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What is left of one resource type in a terminating namespace after the controller deleted its
 * content: how many objects, which finalizers hold them, and the error of that type's pass.
 *
 * @param group the type's API group ("" for core)
 * @param version the version it was listed at
 * @param resource the resource name
 * @param remaining objects still present
 * @param finalizers objects held per finalizer name
 * @param error why the pass over this type failed, or {@code null}
 */
public record ContentRemaining(
        String group,
        String version,
        String resource,
        int remaining,
        Map<String, Integer> finalizers,
        String error) {

    public ContentRemaining {
        finalizers = Map.copyOf(finalizers);
    }

    /**
     * The objects of {@code type} still listed after their deletion. Objects nothing holds should
     * have gone: as kube's namespace controller, that is reported as an error of the type.
     */
    public static ContentRemaining of(ResourceType type, String namespace, List<ObjectNode> left) {
        Map<String, Integer> finalizers = new TreeMap<>();
        for (ObjectNode obj : left) {
            for (JsonNode f : obj.path("metadata").path("finalizers")) {
                finalizers.merge(f.asText(), 1, Integer::sum);
            }
        }
        String error =
                !left.isEmpty() && finalizers.isEmpty()
                        ? "unexpected items still remain in namespace: "
                                + namespace
                                + " for gvr: "
                                + type.group()
                                + "/"
                                + type.version()
                                + ", Resource="
                                + type.resource()
                        : null;
        return new ContentRemaining(
                type.group(), type.version(), type.resource(), left.size(), finalizers, error);
    }

    /** A type whose pass failed before anything could be counted. */
    public static ContentRemaining failed(ResourceType type, String error) {
        return new ContentRemaining(
                type.group(), type.version(), type.resource(), 0, Map.of(), error);
    }
}
