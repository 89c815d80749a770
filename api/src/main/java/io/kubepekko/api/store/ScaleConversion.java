package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.ScaleSpec;
import io.kubepekko.api.selector.LabelSelector;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;

/** Converts between a scalable object and its {@code autoscaling/v1 Scale} view. */
public final class ScaleConversion {
    private ScaleConversion() {}

    public static final String API_VERSION = "autoscaling/v1";
    public static final String KIND = "Scale";
    public static final GroupVersionKind GVK = new GroupVersionKind("autoscaling", "v1", KIND);

    /**
     * The Scale view of {@code obj}; replicas absent from the object read as Kubernetes' default of
     * 1.
     */
    public static ObjectNode toScale(ResourceType type, ObjectNode obj) {
        ScaleSpec spec = type.scale();
        ObjectNode scale = Json.MAPPER.createObjectNode();
        scale.put("kind", KIND);
        scale.put("apiVersion", API_VERSION);
        ObjectNode meta = scale.putObject("metadata");
        JsonNode m = obj.path("metadata");
        for (String f :
                List.of("name", "namespace", "uid", "resourceVersion", "creationTimestamp")) {
            if (m.hasNonNull(f)) {
                meta.set(f, m.get(f));
            }
        }
        scale.putObject("spec").put("replicas", at(obj, spec.specReplicasPath()).asInt(1));
        ObjectNode status = scale.putObject("status");
        status.put("replicas", at(obj, spec.statusReplicasPath()).asInt(0));
        JsonNode selector = at(obj, spec.selectorPath());
        if (selector.isObject()) {
            status.put("selector", LabelSelector.format(selector));
        }
        return scale;
    }

    /**
     * Writes the desired replicas of {@code scale} into a copy of {@code obj}. Invalid replicas
     * answer 422 on the {@code Scale.autoscaling} kind, as Kubernetes does.
     */
    public static ObjectNode applyScale(ResourceType type, ObjectNode obj, ObjectNode scale) {
        String name = obj.path("metadata").path("name").asText();
        JsonNode replicas = scale.path("spec").path("replicas");
        if (!replicas.isMissingNode() && !replicas.isNull() && !replicas.isIntegralNumber()) {
            throw ApiStatus.invalid(
                            "autoscaling",
                            KIND,
                            name,
                            List.of(
                                    FieldError.typeInvalid(
                                            "spec.replicas",
                                            replicas.toString(),
                                            "must be an integer")))
                    .exception();
        }
        long value = replicas.asLong(0);
        if (value < 0) {
            throw ApiStatus.invalid(
                            "autoscaling",
                            KIND,
                            name,
                            List.of(
                                    FieldError.invalid(
                                            "spec.replicas",
                                            value,
                                            "must be greater than or equal to 0")))
                    .exception();
        }
        ObjectNode out = obj.deepCopy();
        set(out, type.scale().specReplicasPath(), (int) value);
        return out;
    }

    private static JsonNode at(JsonNode obj, String dotted) {
        JsonNode n = obj;
        for (String part : dotted.split("\\.")) {
            n = n.path(part);
        }
        return n;
    }

    private static void set(ObjectNode obj, String dotted, int value) {
        String[] parts = dotted.split("\\.");
        ObjectNode n = obj;
        for (int i = 0; i < parts.length - 1; i++) {
            JsonNode next = n.get(parts[i]);
            n = next instanceof ObjectNode o ? o : n.putObject(parts[i]);
        }
        n.put(parts[parts.length - 1], value);
    }
}
