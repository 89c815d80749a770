package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * autoscaling HorizontalPodAutoscaler, printed from its autoscaling/v2 form: Name, Reference
 * ({@code Kind/name}), Targets (kube's {@code formatHPAMetrics}: {@code current/target} per metric,
 * the i-th current metric paired with the i-th spec, {@code <unknown>} until one is reported, at
 * most two then {@code + N more...}), MinPods ({@code <unset>} without one), MaxPods, Replicas,
 * Age.
 */
public final class HorizontalPodAutoscalerPrinter implements TablePrinter {

    public static final HorizontalPodAutoscalerPrinter INSTANCE =
            new HorizontalPodAutoscalerPrinter();

    private static final String UNKNOWN = "<unknown>";
    private static final int SHOWN = 2;

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "Reference",
                            "scaleTargetRef points to the target resource to scale, and is used to"
                                    + " the pods for which metrics should be collected, as well as"
                                    + " to actually change the replica count."),
                    Column.string(
                            "Targets",
                            "metrics contains the specifications for which to use to calculate"
                                    + " the desired replica count (the maximum replica count across"
                                    + " all metrics will be used).  The desired replica count is"
                                    + " calculated multiplying the ratio between the target value"
                                    + " and the current value by the current number of pods.  Ergo,"
                                    + " metrics used must decrease as the pod count is increased,"
                                    + " and vice-versa.  See the individual metric source types for"
                                    + " more information about how each type of metric must"
                                    + " respond. If not set, the default metric will be set to 80%"
                                    + " average CPU utilization."),
                    Column.string(
                            "MinPods",
                            "minReplicas is the lower limit for the number of replicas to which"
                                    + " the autoscaler can scale down.  It defaults to 1 pod. "
                                    + " minReplicas is allowed to be 0 if the alpha feature gate"
                                    + " HPAScaleToZero is enabled and at least one Object or"
                                    + " External metric is configured.  Scaling is active as long"
                                    + " as at least one metric value is available."),
                    Column.integer(
                            "MaxPods",
                            "maxReplicas is the upper limit for the number of replicas to which"
                                    + " the autoscaler can scale up. It cannot be less that"
                                    + " minReplicas."),
                    Column.integer(
                            "Replicas",
                            "currentReplicas is current number of replicas of pods managed by"
                                    + " this autoscaler, as last seen by the autoscaler."),
                    ClusterCells.AGE);

    private HorizontalPodAutoscalerPrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        JsonNode status = object.path("status");
        JsonNode ref = spec.path("scaleTargetRef");
        JsonNode min = spec.get("minReplicas");
        return List.of(
                ClusterCells.name(object),
                ClusterCells.text(ref.get("kind"), "")
                        + "/"
                        + ClusterCells.text(ref.get("name"), ""),
                targets(spec.path("metrics"), status.path("currentMetrics")),
                min != null && min.isNumber() ? Long.toString(min.asLong()) : "<unset>",
                ClusterCells.int64(spec.get("maxReplicas")),
                ClusterCells.int64(status.get("currentReplicas")),
                Ages.of(object, now));
    }

    /** kube's {@code formatHPAMetrics}. */
    static String targets(JsonNode specs, JsonNode statuses) {
        if (!specs.isArray() || specs.isEmpty()) {
            return "<none>";
        }
        List<String> list = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            JsonNode spec = specs.get(i);
            JsonNode status = statuses.isArray() && statuses.size() > i ? statuses.get(i) : null;
            list.add(target(spec, status));
        }
        if (list.size() <= SHOWN) {
            return String.join(", ", list);
        }
        return String.join(", ", list.subList(0, SHOWN))
                + " + "
                + (list.size() - SHOWN)
                + " more...";
    }

    private static String target(JsonNode spec, JsonNode status) {
        String type = ClusterCells.text(spec.get("type"), "");
        switch (type) {
            case "External", "Object" -> {
                String field = type.equals("External") ? "external" : "object";
                JsonNode target = spec.path(field).path("target");
                JsonNode current = status == null ? null : status.get(field);
                boolean hasCurrent = current != null && !current.isNull();
                if (present(target.get("averageValue"))) {
                    String now =
                            hasCurrent && present(current.path("current").get("averageValue"))
                                    ? Quantity.print(current.path("current").get("averageValue"))
                                    : UNKNOWN;
                    return now + "/" + Quantity.print(target.get("averageValue")) + " (avg)";
                }
                String now =
                        hasCurrent ? Quantity.print(current.path("current").get("value")) : UNKNOWN;
                return now + "/" + Quantity.print(target.get("value"));
            }
            case "Pods" -> {
                JsonNode current = status == null ? null : status.get("pods");
                String now =
                        current != null && !current.isNull()
                                ? Quantity.print(current.path("current").get("averageValue"))
                                : UNKNOWN;
                return now
                        + "/"
                        + Quantity.print(spec.path("pods").path("target").get("averageValue"));
            }
            case "Resource", "ContainerResource" -> {
                String field = type.equals("Resource") ? "resource" : "containerResource";
                JsonNode source = spec.path(field);
                JsonNode target = source.path("target");
                JsonNode current = status == null ? null : status.get(field);
                boolean hasCurrent = current != null && !current.isNull();
                String name = ClusterCells.text(source.get("name"), "");
                if (present(target.get("averageValue"))) {
                    String now =
                            hasCurrent
                                    ? Quantity.print(current.path("current").get("averageValue"))
                                    : UNKNOWN;
                    return name + ": " + now + "/" + Quantity.print(target.get("averageValue"));
                }
                JsonNode utilization =
                        hasCurrent ? current.path("current").get("averageUtilization") : null;
                String now = present(utilization) ? utilization.asLong() + "%" : UNKNOWN;
                JsonNode goal = target.get("averageUtilization");
                String want = present(goal) ? goal.asLong() + "%" : "<auto>";
                return name + ": " + now + "/" + want;
            }
            default -> {
                return "<unknown type>";
            }
        }
    }

    private static boolean present(JsonNode v) {
        return v != null && !v.isNull();
    }
}
