package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.Operation;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's pod evaluator ({@code pkg/quota/v1/evaluator/core/pods.go}): a pod counts {@code
 * count/pods} while it is stored, and {@code pods} with its requests and limits while it is not
 * terminal (Succeeded, Failed, or deleted past its grace period); its scopes are Terminating (an
 * {@code activeDeadlineSeconds}), BestEffort, PriorityClass and CrossNamespacePodAffinity. Only
 * creates are charged (in-place resize is not served).
 */
final class PodEvaluator implements QuotaEvaluator {

    static final GroupResource PODS = new GroupResource("", "pods");
    private static final String COUNT = QuotaEvaluator.countName(PODS);

    private static final Set<String> RESOURCES =
            Set.of(
                    COUNT,
                    "cpu",
                    "memory",
                    "ephemeral-storage",
                    "requests.cpu",
                    "requests.memory",
                    "requests.ephemeral-storage",
                    "limits.cpu",
                    "limits.memory",
                    "limits.ephemeral-storage",
                    "pods");

    /**
     * The resources a pod must state for every container when a quota tracks them (kube's {@code
     * validationSet}, kept for compatibility).
     */
    private static final Set<String> MUST_STATE =
            Set.of(
                    "cpu",
                    "memory",
                    "requests.cpu",
                    "requests.memory",
                    "limits.cpu",
                    "limits.memory");

    @Override
    public GroupResource resource() {
        return PODS;
    }

    @Override
    public Set<String> readFields() {
        Set<String> fields = new TreeSet<>(IDENTITY);
        fields.addAll(
                List.of(
                        "metadata.deletionTimestamp",
                        "metadata.deletionGracePeriodSeconds",
                        "spec.containers",
                        "spec.initContainers",
                        "spec.resources",
                        "spec.overhead",
                        "spec.activeDeadlineSeconds",
                        "spec.priorityClassName",
                        "spec.affinity",
                        "status.phase",
                        "status.qosClass"));
        return fields;
    }

    @Override
    public boolean handles(Operation operation, String subresource) {
        return subresource.isEmpty() && operation == Operation.CREATE;
    }

    @Override
    public Set<String> matchingResources(Set<String> hard) {
        Set<String> matching = new TreeSet<>();
        for (String name : hard) {
            if (RESOURCES.contains(name)
                    || name.startsWith("hugepages-")
                    || name.startsWith("requests.hugepages-")
                    || (name.startsWith("requests.") && !isNative(name))) {
                matching.add(name);
            }
        }
        return matching;
    }

    @Override
    public SortedMap<String, QuotaAmount> usage(JsonNode pod, Instant now) {
        SortedMap<String, QuotaAmount> usage = new TreeMap<>();
        usage.put(COUNT, QuotaAmount.ONE);
        if (!counted(pod, now)) {
            return usage;
        }
        JsonNode spec = pod.path("spec");
        return ResourceLists.add(
                usage,
                computeUsage(PodQuotaResources.requests(spec), PodQuotaResources.limits(spec)));
    }

    /**
     * kube's {@code QuotaV1Pod}: a terminal pod, or one deleted past its grace period, is not
     * charged (it could keep its owner from scaling up after its node is lost).
     */
    static boolean counted(JsonNode pod, Instant now) {
        String phase = pod.path("status").path("phase").asText("");
        if (phase.equals("Failed") || phase.equals("Succeeded")) {
            return false;
        }
        JsonNode meta = pod.path("metadata");
        if (meta.hasNonNull("deletionTimestamp") && meta.hasNonNull("deletionGracePeriodSeconds")) {
            try {
                Instant deleted = Instant.parse(meta.get("deletionTimestamp").asText());
                long grace = meta.get("deletionGracePeriodSeconds").asLong();
                return !now.isAfter(deleted.plusSeconds(grace));
            } catch (DateTimeParseException e) {
                return true;
            }
        }
        return true;
    }

    /** kube's {@code podComputeUsageHelper}. */
    private static SortedMap<String, QuotaAmount> computeUsage(
            Map<String, QuotaAmount> requests, Map<String, QuotaAmount> limits) {
        SortedMap<String, QuotaAmount> result = new TreeMap<>();
        result.put("pods", QuotaAmount.ONE);
        for (String name : List.of("cpu", "memory", "ephemeral-storage")) {
            QuotaAmount request = requests.get(name);
            if (request != null) {
                result.put(name, request);
                result.put("requests." + name, request);
            }
            QuotaAmount limit = limits.get(name);
            if (limit != null) {
                result.put("limits." + name, limit);
            }
        }
        requests.forEach(
                (name, request) -> {
                    if (name.startsWith("hugepages-")) {
                        result.put(name, request);
                        result.put("requests." + name, request);
                    } else if (!isNative(name)) {
                        result.put("requests." + name, request);
                    }
                });
        return result;
    }

    /** kube's {@code IsNativeResource}: no domain, or one under kubernetes.io. */
    private static boolean isNative(String name) {
        int slash = name.indexOf('/');
        return slash < 0 || name.substring(0, slash).endsWith("kubernetes.io");
    }

    @Override
    public Optional<String> constraints(Set<String> required, JsonNode pod) {
        Set<String> requiredSet = new TreeSet<>(required);
        requiredSet.retainAll(MUST_STATE);
        if (requiredSet.isEmpty()) {
            return Optional.empty();
        }
        SortedMap<String, SortedSet<String>> missing = new TreeMap<>();
        List<JsonNode> containers = new ArrayList<>();
        pod.path("spec").path("containers").forEach(containers::add);
        pod.path("spec").path("initContainers").forEach(containers::add);
        for (JsonNode c : containers) {
            Set<String> stated =
                    computeUsage(
                                    PodQuotaResources.amounts(c.path("resources").get("requests")),
                                    PodQuotaResources.amounts(c.path("resources").get("limits")))
                            .keySet();
            for (String name : requiredSet) {
                if (!stated.contains(name)) {
                    missing.computeIfAbsent(name, n -> new TreeSet<>())
                            .add(c.path("name").asText(""));
                }
            }
        }
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        missing.forEach((name, names) -> parts.add(name + " for: " + String.join(",", names)));
        return Optional.of("must specify " + String.join("; ", parts));
    }

    @Override
    public boolean inScope(QuotaSpec.Scope scope, JsonNode pod) {
        JsonNode spec = pod.path("spec");
        return switch (scope.name()) {
            case "Terminating" -> terminating(spec);
            case "NotTerminating" -> !terminating(spec);
            case "BestEffort" -> bestEffort(pod);
            case "NotBestEffort" -> !bestEffort(pod);
            case "PriorityClass" -> priorityClass(scope, spec.path("priorityClassName").asText(""));
            case "CrossNamespacePodAffinity" -> crossNamespaceAffinity(spec.path("affinity"));
            default -> false;
        };
    }

    private static boolean terminating(JsonNode spec) {
        JsonNode deadline = spec.get("activeDeadlineSeconds");
        return deadline != null && deadline.isNumber() && deadline.asLong() >= 0;
    }

    /** kube's QoS class BestEffort: no container states a cpu or memory request or limit. */
    static boolean bestEffort(JsonNode pod) {
        String qos = pod.path("status").path("qosClass").asText("");
        if (!qos.isEmpty()) {
            return qos.equals("BestEffort");
        }
        JsonNode spec = pod.path("spec");
        List<JsonNode> resources = new ArrayList<>();
        spec.path("containers").forEach(c -> resources.add(c.path("resources")));
        spec.path("initContainers").forEach(c -> resources.add(c.path("resources")));
        resources.add(spec.path("resources"));
        for (JsonNode r : resources) {
            for (String which : List.of("requests", "limits")) {
                for (String name : List.of("cpu", "memory")) {
                    Optional<QuotaAmount> amount = QuotaAmount.of(r.path(which).get(name));
                    if (amount.isPresent() && !amount.get().isZero()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** The PriorityClass scope: its operator over the label {@code PriorityClass=<class>}. */
    private static boolean priorityClass(QuotaSpec.Scope scope, String className) {
        boolean has = !className.isEmpty();
        return switch (scope.operator()) {
            case "Exists" -> has;
            case "DoesNotExist" -> !has;
            case "In" -> has && scope.values().contains(className);
            case "NotIn" -> !has || !scope.values().contains(className);
            default -> false;
        };
    }

    private static boolean crossNamespaceAffinity(JsonNode affinity) {
        for (String kind : List.of("podAffinity", "podAntiAffinity")) {
            JsonNode a = affinity.path(kind);
            for (JsonNode term : a.path("requiredDuringSchedulingIgnoredDuringExecution")) {
                if (crossNamespace(term)) {
                    return true;
                }
            }
            for (JsonNode w : a.path("preferredDuringSchedulingIgnoredDuringExecution")) {
                if (crossNamespace(w.path("podAffinityTerm"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean crossNamespace(JsonNode term) {
        return term.path("namespaces").size() > 0 || term.hasNonNull("namespaceSelector");
    }
}
