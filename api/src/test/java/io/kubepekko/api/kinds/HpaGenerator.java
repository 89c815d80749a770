package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random stored (autoscaling/v2) HorizontalPodAutoscalers filling every field, in the shapes kube's
 * round-trip fuzzer gives them ({@code pkg/apis/autoscaling/fuzzer}): targets whose type matches
 * the values set, an Object target always with a value, a Resource status always with an average
 * value, at most one CPU Resource metric, a CPU utilization target last, a behavior with at least
 * one direction. Those are the shapes kube's v1 conversion keeps; others it changes, as {@link
 * AutoscalingV1ConversionTest} pins.
 */
final class HpaGenerator {
    private HpaGenerator() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<String> QUANTITIES = List.of("1", "500m", "2Gi", "10k", "0.5", "3");
    private static final List<String> RESOURCES =
            List.of("memory", "ephemeral-storage", "nvidia.com/gpu");

    static ObjectNode hpa(Random r) {
        ObjectNode o = F.objectNode();
        o.put("kind", "HorizontalPodAutoscaler");
        o.put("apiVersion", "autoscaling/v2");
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", "hpa-" + r.nextInt(1000));
        meta.put("namespace", "ns");
        if (r.nextBoolean()) {
            meta.putObject("labels").put("app", "web");
        }
        if (r.nextBoolean()) {
            meta.putObject("annotations").put("example.com/note", "n" + r.nextInt(9));
        }
        o.set("spec", spec(r));
        o.set("status", status(r));
        return o;
    }

    private static ObjectNode spec(Random r) {
        ObjectNode spec = F.objectNode();
        ObjectNode ref = spec.putObject("scaleTargetRef");
        ref.put("kind", r.nextBoolean() ? "Deployment" : "StatefulSet");
        ref.put("name", "web" + r.nextInt(9));
        if (r.nextInt(4) > 0) {
            ref.put("apiVersion", "apps/v1");
        }
        if (r.nextInt(4) > 0) {
            spec.put("minReplicas", 1 + r.nextInt(3));
        }
        spec.put("maxReplicas", 4 + r.nextInt(10));
        ArrayNode metrics = spec.putArray("metrics");
        boolean cpuTarget = r.nextBoolean();
        int others = (cpuTarget ? 0 : 1) + r.nextInt(4);
        boolean cpuUsed = cpuTarget;
        for (int i = 0; i < others; i++) {
            int kind = r.nextInt(5);
            if (kind == 2 && !cpuUsed && r.nextInt(3) == 0) {
                // A CPU Resource metric that is not a utilization target lives in the annotation.
                metrics.add(resourceMetric(r, "Resource", "resource", "cpu", false));
                cpuUsed = true;
                continue;
            }
            metrics.add(metric(r, kind));
        }
        if (cpuTarget) {
            ObjectNode m = metrics.addObject();
            m.put("type", "Resource");
            ObjectNode res = m.putObject("resource");
            res.put("name", "cpu");
            res.putObject("target")
                    .put("type", "Utilization")
                    .put("averageUtilization", 1 + r.nextInt(99));
        }
        if (r.nextBoolean()) {
            ObjectNode behavior = spec.putObject("behavior");
            boolean up = r.nextBoolean();
            boolean down = !up || r.nextBoolean();
            if (up) {
                behavior.set("scaleUp", rules(r));
            }
            if (down) {
                behavior.set("scaleDown", rules(r));
            }
        }
        return spec;
    }

    private static ObjectNode rules(Random r) {
        ObjectNode rules = F.objectNode();
        if (r.nextBoolean()) {
            rules.put("stabilizationWindowSeconds", r.nextInt(3600));
        }
        rules.put("selectPolicy", List.of("Max", "Min", "Disabled").get(r.nextInt(3)));
        ArrayNode policies = rules.putArray("policies");
        for (int i = 0; i <= r.nextInt(2); i++) {
            policies.addObject()
                    .put("type", r.nextBoolean() ? "Pods" : "Percent")
                    .put("value", 1 + r.nextInt(100))
                    .put("periodSeconds", 1 + r.nextInt(1800));
        }
        if (r.nextBoolean()) {
            rules.put("tolerance", r.nextBoolean() ? "50m" : "0.1");
        }
        return rules;
    }

    private static ObjectNode metric(Random r, int kind) {
        return switch (kind) {
            case 0 -> {
                ObjectNode m = F.objectNode().put("type", "Object");
                ObjectNode o = m.putObject("object");
                ObjectNode described = o.putObject("describedObject");
                described.put("kind", "Service").put("name", "svc");
                if (r.nextBoolean()) {
                    described.put("apiVersion", "v1");
                }
                ObjectNode target = o.putObject("target");
                if (r.nextBoolean()) {
                    target.put("type", "Value").put("value", q(r));
                } else {
                    target.put("type", "AverageValue").put("value", q(r)).put("averageValue", q(r));
                }
                o.set("metric", identifier(r));
                yield m;
            }
            case 1 -> {
                ObjectNode m = F.objectNode().put("type", "Pods");
                ObjectNode p = m.putObject("pods");
                p.set("metric", identifier(r));
                p.putObject("target").put("type", "AverageValue").put("averageValue", q(r));
                yield m;
            }
            case 2 -> resourceMetric(r, "Resource", "resource", resource(r), r.nextBoolean());
            case 3 ->
                    resourceMetric(
                            r,
                            "ContainerResource",
                            "containerResource",
                            resource(r),
                            r.nextBoolean());
            default -> {
                ObjectNode m = F.objectNode().put("type", "External");
                ObjectNode e = m.putObject("external");
                e.set("metric", identifier(r));
                if (r.nextBoolean()) {
                    e.putObject("target").put("type", "Value").put("value", q(r));
                } else {
                    e.putObject("target").put("type", "AverageValue").put("averageValue", q(r));
                }
                yield m;
            }
        };
    }

    private static ObjectNode resourceMetric(
            Random r, String type, String field, String name, boolean utilization) {
        ObjectNode m = F.objectNode().put("type", type);
        ObjectNode res = m.putObject(field);
        res.put("name", name);
        ObjectNode target = res.putObject("target");
        if (utilization) {
            target.put("type", "Utilization").put("averageUtilization", 1 + r.nextInt(99));
        } else {
            target.put("type", "AverageValue").put("averageValue", q(r));
        }
        if (field.equals("containerResource")) {
            res.put("container", "app");
        }
        return m;
    }

    private static ObjectNode status(Random r) {
        ObjectNode status = F.objectNode();
        if (r.nextBoolean()) {
            status.put("observedGeneration", 1 + r.nextInt(5));
        }
        if (r.nextBoolean()) {
            status.put("lastScaleTime", "2026-11-29T21:0" + r.nextInt(10) + ":00Z");
        }
        if (r.nextBoolean()) {
            status.put("currentReplicas", 1 + r.nextInt(5));
        }
        status.put("desiredReplicas", r.nextInt(5));
        int n = r.nextInt(4);
        if (n > 0) {
            ArrayNode current = status.putArray("currentMetrics");
            List<Integer> kinds = new ArrayList<>(List.of(0, 1, 2, 3, 4));
            Collections.shuffle(kinds, r);
            for (int i = 0; i < n; i++) {
                current.add(metricStatus(r, kinds.get(i)));
            }
        }
        if (r.nextBoolean()) {
            ArrayNode conditions = status.putArray("conditions");
            for (String type : List.of("AbleToScale", "ScalingActive")) {
                if (r.nextBoolean() || type.equals("AbleToScale")) {
                    ObjectNode c = conditions.addObject().put("type", type).put("status", "True");
                    if (r.nextBoolean()) {
                        c.put("lastTransitionTime", "2026-11-29T20:00:00Z");
                    }
                    if (r.nextBoolean()) {
                        c.put("reason", "Ready");
                    }
                    if (r.nextBoolean()) {
                        c.put("message", "ok <&>");
                    }
                }
            }
        }
        return status;
    }

    private static ObjectNode metricStatus(Random r, int kind) {
        return switch (kind) {
            case 0 -> {
                ObjectNode m = F.objectNode().put("type", "Object");
                ObjectNode o = m.putObject("object");
                o.set("metric", identifier(r));
                ObjectNode current = o.putObject("current").put("value", q(r));
                if (r.nextBoolean()) {
                    current.put("averageValue", q(r));
                }
                o.putObject("describedObject").put("kind", "Service").put("name", "svc");
                yield m;
            }
            case 1 -> {
                ObjectNode m = F.objectNode().put("type", "Pods");
                ObjectNode p = m.putObject("pods");
                p.set("metric", identifier(r));
                p.putObject("current").put("averageValue", q(r));
                yield m;
            }
            case 2, 3 -> {
                String field = kind == 2 ? "resource" : "containerResource";
                ObjectNode m =
                        F.objectNode().put("type", kind == 2 ? "Resource" : "ContainerResource");
                ObjectNode res = m.putObject(field);
                res.put("name", r.nextBoolean() ? "cpu" : resource(r));
                ObjectNode current = res.putObject("current").put("averageValue", q(r));
                if (r.nextBoolean()) {
                    current.put("averageUtilization", r.nextInt(200));
                }
                if (kind == 3) {
                    res.put("container", "app");
                }
                yield m;
            }
            default -> {
                ObjectNode m = F.objectNode().put("type", "External");
                ObjectNode e = m.putObject("external");
                e.set("metric", identifier(r));
                ObjectNode current = e.putObject("current").put("value", q(r));
                if (r.nextBoolean()) {
                    current.put("averageValue", q(r));
                }
                yield m;
            }
        };
    }

    private static ObjectNode identifier(Random r) {
        ObjectNode id = F.objectNode().put("name", "metric-" + r.nextInt(9));
        if (r.nextBoolean()) {
            id.putObject("selector").putObject("matchLabels").put("queue", "q" + r.nextInt(3));
        }
        return id;
    }

    private static String resource(Random r) {
        return RESOURCES.get(r.nextInt(RESOURCES.size()));
    }

    private static String q(Random r) {
        return QUANTITIES.get(r.nextInt(QUANTITIES.size()));
    }
}
