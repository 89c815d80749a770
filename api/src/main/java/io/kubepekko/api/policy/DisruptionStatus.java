package io.kubepekko.api.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.selector.LabelSelector;
import io.kubepekko.api.status.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The disruption controller's arithmetic (kube-controller-manager's {@code disruption} package):
 * the pods a PodDisruptionBudget selects, how many it expects and needs healthy (from {@code
 * minAvailable} or {@code maxUnavailable}, scaled from the pods' controllers where a percentage or
 * {@code maxUnavailable} needs it), which recent evictions still count as disruptions (for {@link
 * #DELETION_TIMEOUT}), and the status that follows, with the {@code DisruptionAllowed} condition.
 * Pure: the controllers' scales are looked up by the caller and handed in.
 */
public final class DisruptionStatus {
    private DisruptionStatus() {}

    /** How long an eviction's entry in {@code status.disruptedPods} counts (kube: 2 minutes). */
    public static final Duration DELETION_TIMEOUT = Duration.ofMinutes(2);

    public static final String CONDITION = "DisruptionAllowed";
    public static final String SUFFICIENT_PODS = "SufficientPods";
    public static final String INSUFFICIENT_PODS = "InsufficientPods";
    public static final String SYNC_FAILED = "SyncFailed";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * How many pods a budget expects and needs healthy.
     *
     * @param unmanagedPods selected pods without a controller, when the count needed their scale
     */
    public record Expectation(int expectedCount, int desiredHealthy, List<String> unmanagedPods) {
        public Expectation {
            unmanagedPods = List.copyOf(unmanagedPods);
        }
    }

    /**
     * The controller a pod's controller reference leads to and its scale: for a ReplicaSet of a
     * Deployment, the Deployment's.
     */
    public record ControllerScale(String uid, int scale) {}

    /**
     * The evictions still pending: pod name to the time the eviction was granted, and when the
     * earliest of them expires (null for none).
     */
    public record Disrupted(Map<String, String> pods, Instant recheckAt) {
        public Disrupted {
            pods = Collections.unmodifiableMap(new TreeMap<>(pods));
        }
    }

    /**
     * The budget's selector ({@code metav1.LabelSelectorAsSelector}: absent selects nothing, empty
     * selects everything).
     *
     * @throws IllegalArgumentException for a selector that does not parse
     */
    public static LabelSelector selector(JsonNode pdb) {
        try {
            return LabelSelector.fromObject(pdb.path("spec").get("selector"));
        } catch (ApiException e) {
            throw new IllegalArgumentException(e.status().message(), e);
        }
    }

    /** Whether {@code pdb} selects {@code pod}: same namespace, and its selector matches. */
    public static boolean selects(JsonNode pdb, JsonNode pod) {
        if (!pdb.path("metadata")
                .path("namespace")
                .asText("")
                .equals(pod.path("metadata").path("namespace").asText(""))) {
            return false;
        }
        try {
            return selector(pdb).matches(labels(pod));
        } catch (IllegalArgumentException e) {
            return false; // kube: an invalid selector matches no pod
        }
    }

    /** Of {@code pods} (one namespace's), those the budget's selector matches. */
    public static List<JsonNode> selectedPods(JsonNode pdb, Collection<? extends JsonNode> pods) {
        LabelSelector selector = selector(pdb);
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode pod : pods) {
            if (selector.matches(labels(pod))) {
                out.add(pod);
            }
        }
        return out;
    }

    /**
     * Whether the expected count comes from the pods' controllers: for {@code maxUnavailable} and
     * for a percentage {@code minAvailable}.
     */
    public static boolean needsScale(JsonNode pdb) {
        JsonNode spec = pdb.path("spec");
        if (present(spec.get("maxUnavailable"))) {
            return true;
        }
        return IntOrPercent.isPercent(spec.get("minAvailable"));
    }

    /**
     * The controller references whose scale {@link #expectation} needs, once per uid, in pod order;
     * empty when the budget needs none.
     */
    public static List<JsonNode> controllersToResolve(JsonNode pdb, List<JsonNode> pods) {
        if (!needsScale(pdb)) {
            return List.of();
        }
        Map<String, JsonNode> byUid = new LinkedHashMap<>();
        for (JsonNode pod : pods) {
            JsonNode ref = PodStates.controllerRef(pod);
            if (ref != null) {
                byUid.putIfAbsent(ref.path("uid").asText(""), ref);
            }
        }
        return List.copyOf(byUid.values());
    }

    /**
     * kube's {@code getExpectedPodCount}: with {@code maxUnavailable}, the controllers' total scale
     * minus it (rounded up for a percentage; never below 0); with an integer {@code minAvailable},
     * it and the number of selected pods; with a percentage, it of the controllers' total (rounded
     * up).
     *
     * @param scales the controller found for each controller reference, by the uid the pods'
     *     references name; a reference without an entry found none
     * @throws IllegalArgumentException with kube's message ({@code found no controllers for pod
     *     "p"}), which becomes the budget's SyncFailed condition
     */
    public static Expectation expectation(
            JsonNode pdb, List<JsonNode> pods, Map<String, ControllerScale> scales) {
        JsonNode spec = pdb.path("spec");
        JsonNode maxUnavailable = spec.get("maxUnavailable");
        JsonNode minAvailable = spec.get("minAvailable");
        if (present(maxUnavailable)) {
            Scale scale = expectedScale(pods, scales);
            int unavailable = IntOrPercent.scaled(maxUnavailable, scale.total, true);
            return new Expectation(
                    scale.total, Math.max(0, scale.total - unavailable), scale.unmanaged);
        }
        if (present(minAvailable)) {
            if (!IntOrPercent.isPercent(minAvailable)) {
                return new Expectation(pods.size(), minAvailable.asInt(), List.of());
            }
            Scale scale = expectedScale(pods, scales);
            return new Expectation(
                    scale.total,
                    IntOrPercent.scaled(minAvailable, scale.total, true),
                    scale.unmanaged);
        }
        return new Expectation(0, 0, List.of());
    }

    private record Scale(int total, List<String> unmanaged) {}

    private static Scale expectedScale(List<JsonNode> pods, Map<String, ControllerScale> scales) {
        Map<String, Integer> counted = new LinkedHashMap<>();
        List<String> unmanaged = new ArrayList<>();
        for (JsonNode pod : pods) {
            JsonNode ref = PodStates.controllerRef(pod);
            String name = pod.path("metadata").path("name").asText("");
            if (ref == null) {
                unmanaged.add(name);
                continue;
            }
            ControllerScale controller = scales.get(ref.path("uid").asText(""));
            if (controller == null) {
                throw new IllegalArgumentException("found no controllers for pod \"" + name + "\"");
            }
            counted.put(controller.uid(), controller.scale());
        }
        int total = 0;
        for (int s : counted.values()) {
            total += s;
        }
        return new Scale(total, unmanaged);
    }

    /**
     * kube's {@code buildDisruptedPodMap}: the entries of {@code status.disruptedPods} for selected
     * pods not yet being deleted whose eviction is younger than {@link #DELETION_TIMEOUT}, and when
     * the first of them expires.
     */
    public static Disrupted disrupted(JsonNode pdb, List<JsonNode> pods, Instant now) {
        JsonNode recorded = pdb.path("status").path("disruptedPods");
        Map<String, String> kept = new TreeMap<>();
        Instant recheck = null;
        if (!recorded.isObject()) {
            return new Disrupted(kept, null);
        }
        for (JsonNode pod : pods) {
            if (PodStates.terminating(pod)) {
                continue;
            }
            String name = pod.path("metadata").path("name").asText("");
            Instant at = time(recorded.get(name));
            if (at == null) {
                continue;
            }
            Instant expires = at.plus(DELETION_TIMEOUT);
            if (!expires.isBefore(now)) {
                if (recheck == null || expires.isBefore(recheck)) {
                    recheck = expires;
                }
                kept.put(name, recorded.get(name).asText());
            }
        }
        return new Disrupted(kept, recheck);
    }

    /**
     * kube's {@code countHealthyPods}: Ready pods, except those being deleted and those whose
     * eviction is pending.
     */
    public static int currentHealthy(List<JsonNode> pods, Disrupted disrupted, Instant now) {
        int healthy = 0;
        for (JsonNode pod : pods) {
            if (PodStates.terminating(pod)) {
                continue;
            }
            String name = pod.path("metadata").path("name").asText("");
            Instant at = time(F.textNode(disrupted.pods().getOrDefault(name, "")));
            if (at != null && at.plus(DELETION_TIMEOUT).isAfter(now)) {
                continue;
            }
            if (PodStates.ready(pod)) {
                healthy++;
            }
        }
        return healthy;
    }

    /**
     * kube's {@code updatePdbStatus}: the budget with its new status, or empty when the status it
     * has already says all this. Disruptions are allowed only while pods are expected.
     */
    public static Optional<ObjectNode> updated(
            ObjectNode pdb,
            int currentHealthy,
            Expectation expectation,
            Disrupted disrupted,
            Instant now) {
        int allowed = currentHealthy - expectation.desiredHealthy();
        if (expectation.expectedCount() <= 0 || allowed <= 0) {
            allowed = 0;
        }
        JsonNode status = pdb.path("status");
        long generation = generation(pdb);
        if (status.path("currentHealthy").asInt(0) == currentHealthy
                && status.path("desiredHealthy").asInt(0) == expectation.desiredHealthy()
                && status.path("expectedPods").asInt(0) == expectation.expectedCount()
                && status.path("disruptionsAllowed").asInt(0) == allowed
                && disruptedOf(status).equals(disrupted.pods())
                && status.path("observedGeneration").asLong(0) == generation
                && conditionsUpToDate(pdb)) {
            return Optional.empty();
        }
        ObjectNode out = pdb.deepCopy();
        ObjectNode next = F.objectNode();
        if (generation != 0) {
            next.put("observedGeneration", generation);
        }
        if (!disrupted.pods().isEmpty()) {
            ObjectNode d = next.putObject("disruptedPods");
            disrupted.pods().forEach(d::put);
        }
        next.put("disruptionsAllowed", allowed);
        next.put("currentHealthy", currentHealthy);
        next.put("desiredHealthy", expectation.desiredHealthy());
        next.put("expectedPods", expectation.expectedCount());
        if (status.get("conditions") instanceof ArrayNode c) {
            next.set("conditions", c.deepCopy());
        }
        updateAllowedCondition(next, now);
        out.set("status", next);
        return Optional.of(out);
    }

    /**
     * kube's {@code failSafe}: what a budget whose status could not be computed says — no
     * disruption allowed, the {@code SyncFailed} reason and why.
     */
    public static ObjectNode failSafe(ObjectNode pdb, String message, Instant now) {
        ObjectNode out = pdb.deepCopy();
        ObjectNode status = out.get("status") instanceof ObjectNode s ? s : out.putObject("status");
        status.put("disruptionsAllowed", 0);
        Conditions.setStatusCondition(
                status,
                CONDITION,
                "False",
                SYNC_FAILED,
                message,
                status.path("observedGeneration").asLong(0),
                now);
        return out;
    }

    /**
     * component-helpers' {@code UpdateDisruptionAllowedCondition}: True with {@code SufficientPods}
     * while disruptions are allowed, else False with {@code InsufficientPods}.
     */
    static void updateAllowedCondition(ObjectNode status, Instant now) {
        boolean allowed = status.path("disruptionsAllowed").asInt(0) > 0;
        Conditions.setStatusCondition(
                status,
                CONDITION,
                allowed ? "True" : "False",
                allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
                "",
                status.path("observedGeneration").asLong(0),
                now);
    }

    /** component-helpers' {@code ConditionsAreUpToDate}. */
    static boolean conditionsUpToDate(JsonNode pdb) {
        JsonNode status = pdb.path("status");
        ObjectNode c = Conditions.find(status.path("conditions"), CONDITION);
        if (c == null) {
            return false;
        }
        if (status.path("observedGeneration").asLong(0) != generation(pdb)) {
            return false;
        }
        String s = c.path("status").asText("");
        String reason = c.path("reason").asText("");
        return status.path("disruptionsAllowed").asInt(0) > 0
                ? s.equals("True") && reason.equals(SUFFICIENT_PODS)
                : s.equals("False") && reason.equals(INSUFFICIENT_PODS);
    }

    private static long generation(JsonNode obj) {
        return obj.path("metadata").path("generation").asLong(0);
    }

    private static Map<String, String> disruptedOf(JsonNode status) {
        Map<String, String> out = new TreeMap<>();
        JsonNode d = status.path("disruptedPods");
        d.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText("")));
        return out;
    }

    private static Map<String, String> labels(JsonNode pod) {
        Map<String, String> out = new TreeMap<>();
        pod.path("metadata")
                .path("labels")
                .properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asText("")));
        return out;
    }

    static Instant time(JsonNode t) {
        if (t == null || !t.isTextual() || t.asText().isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(t.asText());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static boolean present(JsonNode v) {
        return v != null && !v.isMissingNode() && !v.isNull();
    }
}
