package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Values the downward API exposes, for env ({@code fieldRef}, {@code resourceFieldRef}) and
 * downwardAPI volumes: kubelet_pods.go {@code podFieldSelectorRuntimeValue}, fieldpath {@code
 * ExtractFieldPathAsString} and {@code FormatMap}, resource helpers {@code
 * ExtractContainerResourceValue} with limits defaulted to node allocatable ({@code
 * defaultPodLimitsForDownwardAPI}).
 */
final class DownwardApi {
    private DownwardApi() {}

    /**
     * The value of {@code fieldPath} for the pod.
     *
     * @param podIps the pod's addresses, primary first (empty before the sandbox has one)
     */
    static String field(JsonNode pod, String fieldPath, NodeContext node, List<String> podIps)
            throws PodConfigException {
        switch (fieldPath) {
            case "spec.nodeName":
                return Json.text(pod, "spec", "nodeName");
            case "spec.serviceAccountName":
                return Json.text(pod, "spec", "serviceAccountName");
            case "status.hostIP":
                return node.hostIps().isEmpty() ? "" : node.hostIps().get(0);
            case "status.hostIPs":
                return String.join(",", node.hostIps());
            case "status.podIP":
                return podIps.isEmpty() ? "" : podIps.get(0);
            case "status.podIPs":
                return String.join(",", podIps);
            case "spec.terminationGracePeriodSeconds":
                return Long.toString(
                        Json.optLong(pod, "spec", "terminationGracePeriodSeconds").orElse(30L));
            case "metadata.name":
                return Json.text(pod, "metadata", "name");
            case "metadata.namespace":
                return Json.text(pod, "metadata", "namespace");
            case "metadata.uid":
                return Json.text(pod, "metadata", "uid");
            case "metadata.labels":
                return formatMap(Json.stringMap(pod, "metadata", "labels"));
            case "metadata.annotations":
                return formatMap(Json.stringMap(pod, "metadata", "annotations"));
            default:
                break;
        }
        for (String map : List.of("labels", "annotations")) {
            String prefix = "metadata." + map + "['";
            if (fieldPath.startsWith(prefix) && fieldPath.endsWith("']")) {
                String key = fieldPath.substring(prefix.length(), fieldPath.length() - 2);
                return Json.stringMap(pod, "metadata", map).getOrDefault(key, "");
            }
        }
        throw PodConfigException.containerConfig("unsupported fieldPath: " + fieldPath);
    }

    /**
     * {@code FormatMap}: one {@code key="value"} line per entry, keys sorted, values quoted as Go's
     * %q.
     */
    static String formatMap(Map<String, String> m) {
        StringBuilder out = new StringBuilder();
        for (var e : new TreeMap<>(m).entrySet()) {
            out.append(e.getKey()).append('=').append(goQuote(e.getValue())).append('\n');
        }
        // kube trims the final newline (strings.TrimSuffix in FormatMap)
        return out.length() > 0 ? out.substring(0, out.length() - 1) : "";
    }

    static String goQuote(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.codePoints()
                .forEach(
                        cp -> {
                            switch (cp) {
                                case '"' -> out.append("\\\"");
                                case '\\' -> out.append("\\\\");
                                case '\n' -> out.append("\\n");
                                case '\t' -> out.append("\\t");
                                case '\r' -> out.append("\\r");
                                case 0x07 -> out.append("\\a");
                                case 0x08 -> out.append("\\b");
                                case 0x0c -> out.append("\\f");
                                case 0x0b -> out.append("\\v");
                                default -> {
                                    if (cp < 0x20 || cp == 0x7f) {
                                        out.append(String.format("\\x%02x", cp));
                                    } else {
                                        out.appendCodePoint(cp);
                                    }
                                }
                            }
                        });
        return out.append('"').toString();
    }

    /**
     * The value of a {@code resourceFieldRef} for {@code container} ({@code
     * containerResourceRuntimeValue}): {@code limits.*} unset default to node allocatable; cpu
     * rounds up to whole divisor units of millicores, memory and ephemeral storage to whole divisor
     * units of bytes.
     */
    static String resource(
            JsonNode container, String resource, String divisorText, NodeContext node)
            throws PodConfigException {
        Quantity divisor =
                divisorText == null || divisorText.isEmpty()
                        ? Quantity.ONE
                        : Quantity.parse(divisorText).orElse(Quantity.ONE);
        JsonNode res = Json.at(container, "resources");
        return switch (resource) {
            case "limits.cpu" ->
                    cpu(
                            Quantity.of(res.path("limits").get("cpu"))
                                    .map(Quantity::milliValue)
                                    .filter(v -> v != 0)
                                    .orElse(node.allocatableMilliCpu()),
                            divisor);
            case "requests.cpu" ->
                    cpu(
                            Quantity.of(res.path("requests").get("cpu"))
                                    .map(Quantity::milliValue)
                                    .orElse(0L),
                            divisor);
            case "limits.memory" ->
                    bytes(
                            Quantity.of(res.path("limits").get("memory"))
                                    .map(Quantity::value)
                                    .filter(v -> v != 0)
                                    .orElse(node.allocatableMemory()),
                            divisor);
            case "requests.memory" ->
                    bytes(
                            Quantity.of(res.path("requests").get("memory"))
                                    .map(Quantity::value)
                                    .orElse(0L),
                            divisor);
            case "limits.ephemeral-storage" ->
                    bytes(
                            Quantity.of(res.path("limits").get("ephemeral-storage"))
                                    .map(Quantity::value)
                                    .filter(v -> v != 0)
                                    .orElse(node.allocatableEphemeralStorage()),
                            divisor);
            case "requests.ephemeral-storage" ->
                    bytes(
                            Quantity.of(res.path("requests").get("ephemeral-storage"))
                                    .map(Quantity::value)
                                    .orElse(0L),
                            divisor);
            default -> {
                if (resource.startsWith("limits.hugepages-")
                        || resource.startsWith("requests.hugepages-")) {
                    int dot = resource.indexOf('.');
                    Optional<Quantity> q =
                            Quantity.of(
                                    res.path(resource.substring(0, dot))
                                            .get(resource.substring(dot + 1)));
                    yield bytes(q.map(Quantity::value).orElse(0L), divisor);
                }
                throw PodConfigException.containerConfig(
                        "unsupported container resource : " + resource);
            }
        };
    }

    private static String cpu(long milliCpu, Quantity divisor) {
        long d = Math.max(1, divisor.milliValue());
        return Long.toString((long) Math.ceil((double) milliCpu / (double) d));
    }

    private static String bytes(long value, Quantity divisor) {
        long d = Math.max(1, divisor.value());
        return Long.toString((long) Math.ceil((double) value / (double) d));
    }
}
