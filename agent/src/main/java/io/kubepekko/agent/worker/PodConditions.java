package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.pod.PodPhase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A pod's {@code status.conditions} as the kubelet writes them: {@code generateAPIPodStatus}
 * (pkg/kubelet/kubelet_pods.go) with the generators of pkg/kubelet/status/generate.go, and the
 * status manager's {@code updateLastTransitionTime} (a condition whose status did not change keeps
 * its transition time). Pure.
 *
 * <p>Conditions the kubelet does not own (a readiness gate's, {@code DisruptionTarget}, ...) are
 * carried over from the pod as the API has it, first; then the kubelet's own, in its order.
 */
public final class PodConditions {
    private PodConditions() {}

    public static final String POD_READY_TO_START_CONTAINERS = "PodReadyToStartContainers";
    public static final String INITIALIZED = "Initialized";
    public static final String READY = "Ready";
    public static final String CONTAINERS_READY = "ContainersReady";
    public static final String POD_SCHEDULED = "PodScheduled";

    /** The kubelet's condition reasons (pkg/kubelet/status/generate.go). */
    public static final String UNKNOWN_CONTAINER_STATUSES = "UnknownContainerStatuses";

    public static final String POD_COMPLETED = "PodCompleted";
    public static final String POD_FAILED = "PodFailed";
    public static final String CONTAINERS_NOT_READY = "ContainersNotReady";
    public static final String CONTAINERS_NOT_INITIALIZED = "ContainersNotInitialized";
    public static final String READINESS_GATES_NOT_READY = "ReadinessGatesNotReady";

    /** The types the kubelet owns ({@code PodConditionByKubelet}, resize conditions aside). */
    static final Set<String> KUBELET_OWNED =
            Set.of(
                    POD_READY_TO_START_CONTAINERS,
                    INITIALIZED,
                    READY,
                    CONTAINERS_READY,
                    POD_SCHEDULED);

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** One condition without its times; reason and message are "" when absent. */
    public record Condition(String type, String status, String reason, String message) {
        static Condition isTrue(String type) {
            return new Condition(type, "True", "", "");
        }

        static Condition isFalse(String type, String reason, String message) {
            return new Condition(type, "False", reason, message);
        }
    }

    /**
     * The kubelet's own conditions, in its order.
     *
     * @param pod the pod as the API has it (spec, and status.conditions for readiness gates)
     * @param statuses the init and app container statuses just computed (JSON as published)
     * @param phase the phase just computed
     * @param sandboxReady a ready sandbox with its network exists (no new sandbox is needed)
     */
    public static List<Condition> generate(
            JsonNode pod, List<JsonNode> statuses, PodPhase phase, boolean sandboxReady) {
        Map<String, JsonNode> byName = new HashMap<>();
        statuses.forEach(s -> byName.putIfAbsent(s.path("name").asText(), s));
        List<Condition> out = new ArrayList<>();
        out.add(
                sandboxReady
                        ? Condition.isTrue(POD_READY_TO_START_CONTAINERS)
                        : Condition.isFalse(POD_READY_TO_START_CONTAINERS, "", ""));
        out.add(initialized(pod.path("spec"), byName, phase));
        Condition containersReady = containersReady(pod.path("spec"), byName, phase);
        out.add(ready(pod, containersReady));
        out.add(containersReady);
        out.add(Condition.isTrue(POD_SCHEDULED));
        return out;
    }

    /** {@code GeneratePodInitializedCondition}. */
    static Condition initialized(JsonNode spec, Map<String, JsonNode> byName, PodPhase phase) {
        List<String> unknown = new ArrayList<>();
        List<String> incomplete = new ArrayList<>();
        for (JsonNode c : spec.path("initContainers")) {
            String name = c.path("name").asText();
            JsonNode s = byName.get(name);
            if (s == null) {
                unknown.add(name);
            } else if (sidecar(c)
                    ? !s.path("started").asBoolean(false)
                    : !s.path("ready").asBoolean(false)) {
                incomplete.add(name);
            }
        }
        if (phase == PodPhase.SUCCEEDED && unknown.isEmpty()) {
            return new Condition(INITIALIZED, "True", POD_COMPLETED, "");
        }
        if (anyRegularContainerStarted(spec, byName)) {
            return Condition.isTrue(
                    INITIALIZED); // initialized before: sidecars restarting do not undo it
        }
        String message =
                messages(
                        "containers with unknown status: ",
                        unknown,
                        "containers with incomplete status: ",
                        incomplete);
        return message.isEmpty()
                ? Condition.isTrue(INITIALIZED)
                : Condition.isFalse(INITIALIZED, CONTAINERS_NOT_INITIALIZED, message);
    }

    /** {@code GenerateContainersReadyCondition}: sidecars and app containers all ready. */
    static Condition containersReady(JsonNode spec, Map<String, JsonNode> byName, PodPhase phase) {
        List<String> unknown = new ArrayList<>();
        List<String> unready = new ArrayList<>();
        List<JsonNode> counted = new ArrayList<>();
        spec.path("initContainers")
                .forEach(
                        c -> {
                            if (sidecar(c)) {
                                counted.add(c);
                            }
                        });
        spec.path("containers").forEach(counted::add);
        for (JsonNode c : counted) {
            String name = c.path("name").asText();
            JsonNode s = byName.get(name);
            if (s == null) {
                unknown.add(name);
            } else if (!s.path("ready").asBoolean(false)) {
                unready.add(name);
            }
        }
        if ((phase == PodPhase.SUCCEEDED && unknown.isEmpty()) || phase == PodPhase.FAILED) {
            return Condition.isFalse(
                    CONTAINERS_READY, phase == PodPhase.SUCCEEDED ? POD_COMPLETED : POD_FAILED, "");
        }
        String message =
                messages(
                        "containers with unknown status: ",
                        unknown,
                        "containers with unready status: ",
                        unready);
        return message.isEmpty()
                ? Condition.isTrue(CONTAINERS_READY)
                : Condition.isFalse(CONTAINERS_READY, CONTAINERS_NOT_READY, message);
    }

    /**
     * {@code GeneratePodReadyCondition}: ContainersReady, then every readiness gate's condition
     * True.
     */
    static Condition ready(JsonNode pod, Condition containersReady) {
        if (!containersReady.status().equals("True")) {
            return new Condition(
                    READY,
                    containersReady.status(),
                    containersReady.reason(),
                    containersReady.message());
        }
        List<String> unready = new ArrayList<>();
        for (JsonNode gate : pod.path("spec").path("readinessGates")) {
            String type = gate.path("conditionType").asText();
            Optional<JsonNode> c = find(pod.path("status").path("conditions"), type);
            if (c.isEmpty()) {
                unready.add(
                        "corresponding condition of pod readiness gate \""
                                + type
                                + "\" does not exist.");
            } else if (!c.get().path("status").asText().equals("True")) {
                unready.add(
                        "the status of pod readiness gate \""
                                + type
                                + "\" is not \"True\", but "
                                + c.get().path("status").asText());
            }
        }
        return unready.isEmpty()
                ? Condition.isTrue(READY)
                : Condition.isFalse(READY, READINESS_GATES_NOT_READY, String.join(", ", unready));
    }

    /**
     * The whole {@code conditions} array: the pod's conditions the kubelet does not own, then
     * {@code generated} with their times.
     *
     * @param pod the pod as the API has it
     * @param generated the kubelet's conditions ({@link #generate})
     * @param previous the conditions last published for the pod, else the API's ({@code
     *     status.conditions})
     * @param now the time of a transition
     */
    public static ArrayNode render(
            JsonNode pod, List<Condition> generated, JsonNode previous, Instant now) {
        ArrayNode out = JSON.arrayNode();
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (!KUBELET_OWNED.contains(c.path("type").asText())) {
                out.add(c.deepCopy());
            }
        }
        long generation = pod.path("metadata").path("generation").asLong(0);
        for (Condition c : generated) {
            ObjectNode node = out.addObject();
            node.put("type", c.type());
            if (generation > 0) {
                node.put("observedGeneration", generation);
            }
            node.put("status", c.status());
            node.putNull("lastProbeTime");
            Optional<JsonNode> before =
                    find(previous, c.type())
                            .filter(
                                    p ->
                                            p.path("status").asText().equals(c.status())
                                                    && p.hasNonNull("lastTransitionTime"));
            node.put(
                    "lastTransitionTime",
                    before.map(p -> p.path("lastTransitionTime").asText())
                            .orElseGet(() -> PodStatusBuilder.time(now)));
            if (!c.reason().isEmpty()) {
                node.put("reason", c.reason());
            }
            if (!c.message().isEmpty()) {
                node.put("message", c.message());
            }
        }
        return out;
    }

    /** {@code HasAnyRegularContainerStarted}: an app container is running or has terminated. */
    private static boolean anyRegularContainerStarted(JsonNode spec, Map<String, JsonNode> byName) {
        for (JsonNode c : spec.path("containers")) {
            JsonNode s = byName.get(c.path("name").asText());
            if (s != null
                    && (s.path("state").has("running") || s.path("state").has("terminated"))) {
                return true;
            }
        }
        return false;
    }

    private static boolean sidecar(JsonNode initContainer) {
        return "Always".equals(initContainer.path("restartPolicy").asText(""));
    }

    /**
     * The kubelet's messages: Go prints a list of names as {@code [a b]}; two parts are joined by
     * ", ".
     */
    private static String messages(
            String first, List<String> firstNames, String second, List<String> secondNames) {
        List<String> parts = new ArrayList<>();
        if (!firstNames.isEmpty()) {
            parts.add(first + "[" + String.join(" ", firstNames) + "]");
        }
        if (!secondNames.isEmpty()) {
            parts.add(second + "[" + String.join(" ", secondNames) + "]");
        }
        return String.join(", ", parts);
    }

    private static Optional<JsonNode> find(JsonNode conditions, String type) {
        for (JsonNode c : conditions) {
            if (c.path("type").asText().equals(type)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
