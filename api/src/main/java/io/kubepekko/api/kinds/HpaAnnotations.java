package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.List;
import java.util.Optional;

/**
 * The annotations in which kube carries what an older HorizontalPodAutoscaler version cannot hold
 * ({@code pkg/apis/autoscaling/annotations.go}), and kube's {@code
 * DropRoundTripHorizontalPodAutoscalerAnnotations}: every conversion to and from the internal type
 * drops them, so they exist only in the views of the versions that need them and never reach
 * storage or the autoscaling/v2 view.
 */
final class HpaAnnotations {
    private HpaAnnotations() {}

    /** The metrics other than a CPU utilization target, as autoscaling/v1 MetricSpecs. */
    static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";

    /** Every current metric, as autoscaling/v1 MetricStatuses. */
    static final String CURRENT_METRICS = "autoscaling.alpha.kubernetes.io/current-metrics";

    /** The status conditions. */
    static final String CONDITIONS = "autoscaling.alpha.kubernetes.io/conditions";

    /** The scaling behavior, as Go marshals the internal type (field names, no json tags). */
    static final String BEHAVIOR = "autoscaling.alpha.kubernetes.io/behavior";

    /** The tolerances autoscaling/v2beta2 cannot hold (dropped like the others). */
    static final String SCALE_DOWN_TOLERANCE =
            "autoscaling.alpha.kubernetes.io/scale-down-tolerance";

    static final String SCALE_UP_TOLERANCE = "autoscaling.alpha.kubernetes.io/scale-up-tolerance";

    static final List<String> ROUND_TRIP =
            List.of(
                    METRICS,
                    BEHAVIOR,
                    SCALE_DOWN_TOLERANCE,
                    SCALE_UP_TOLERANCE,
                    CURRENT_METRICS,
                    CONDITIONS);

    /**
     * {@code metadata} without the round-trip annotations: a new metadata object (sharing the other
     * values) when it had any, whose annotations are left out once none remain (Go omits an empty
     * map); {@code metadata} itself otherwise.
     */
    static JsonNode withoutRoundTrip(JsonNode metadata) {
        JsonNode annotations = metadata == null ? null : metadata.get("annotations");
        if (!(annotations instanceof ObjectNode a) || ROUND_TRIP.stream().noneMatch(a::has)) {
            return metadata;
        }
        ObjectNode kept = a.deepCopy();
        kept.remove(ROUND_TRIP);
        ObjectNode out = ((ObjectNode) metadata).deepCopy();
        if (kept.isEmpty()) {
            out.remove("annotations");
        } else {
            out.set("annotations", kept);
        }
        return out;
    }

    /** Removes the round-trip annotations from {@code obj}'s metadata in place. */
    static void drop(ObjectNode obj) {
        JsonNode meta = obj.get("metadata");
        JsonNode kept = withoutRoundTrip(meta);
        if (kept != meta) {
            obj.set("metadata", kept);
        }
    }

    /** The annotation {@code key} of an object, when it is a string. */
    static Optional<String> get(JsonNode obj, String key) {
        JsonNode v = obj.path("metadata").path("annotations").get(key);
        return v != null && v.isTextual() ? Optional.of(v.textValue()) : Optional.empty();
    }

    /** The JSON text Go's {@code json.Marshal} writes for a value ({@link Json#goString}). */
    static String goJson(JsonNode value) {
        return Json.goString(value);
    }

    /** An annotation's JSON, or empty when it does not parse (kube moves only well-formed data). */
    static Optional<JsonNode> parse(String text) {
        try {
            return Optional.ofNullable(Json.MAPPER.readTree(text));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
