package io.kubepekko.api.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * kube's disruption controller's clean-up of stale {@code DisruptionTarget} conditions: an eviction
 * marks a pod {@code DisruptionTarget=True} before deleting it; when the pod is still not being
 * deleted two minutes later (the delete failed, or a webhook refused it), the condition is reset to
 * {@code False} so that nothing keeps treating the pod as on its way out. Conditions the kubelet
 * set ({@code TerminationByKubelet}) and those of pods in a terminal phase are never stale, as in
 * kube.
 */
public final class StaleDisruptionConditions {

    /** kube-controller-manager's {@code stalePodDisruptionTimeout}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

    private static final String TYPE = "DisruptionTarget";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private StaleDisruptionConditions() {}

    /**
     * How long until the pod's {@code DisruptionTarget} condition is stale ({@link Duration#ZERO}:
     * it is now), or empty when the pod has none that can become stale (kube's {@code
     * nonTerminatingPodHasStaleDisruptionCondition}).
     */
    public static Optional<Duration> staleIn(JsonNode pod, Instant now, Duration timeout) {
        if (present(pod.path("metadata").path("deletionTimestamp"))) {
            return Optional.empty();
        }
        String phase = pod.path("status").path("phase").asText("");
        if (phase.equals("Succeeded") || phase.equals("Failed")) {
            return Optional.empty();
        }
        JsonNode condition = Conditions.find(pod.path("status").path("conditions"), TYPE);
        if (condition == null
                || !condition.path("status").asText("").equals("True")
                || condition.path("reason").asText("").equals("TerminationByKubelet")) {
            return Optional.empty();
        }
        Instant since = DisruptionStatus.time(condition.path("lastTransitionTime"));
        Duration left = since == null ? Duration.ZERO : timeout.minus(Duration.between(since, now));
        return Optional.of(left.isNegative() ? Duration.ZERO : left);
    }

    /**
     * The JSON merge patch of the pod's {@code status} subresource that resets the condition to
     * {@code False} (no reason or message, transition time {@code now}, as kube's {@code
     * UpdatePodCondition} writes it), carrying the pod's resourceVersion so that a pod changed
     * meanwhile answers 409 instead of losing that change; the whole condition list, as a merge
     * patch replaces lists.
     */
    public static ObjectNode resetPatch(JsonNode pod, Instant now) {
        ObjectNode status = F.objectNode();
        if (pod.path("status").get("conditions") != null) {
            status.set("conditions", pod.path("status").get("conditions").deepCopy());
        }
        Conditions.updatePodCondition(status, TYPE, "False", null, null, now);
        ObjectNode patch = F.objectNode();
        String version = pod.path("metadata").path("resourceVersion").asText("");
        if (!version.isEmpty()) {
            patch.putObject("metadata").put("resourceVersion", version);
        }
        patch.set("status", status);
        return patch;
    }

    private static boolean present(JsonNode v) {
        return v != null && !v.isMissingNode() && !v.isNull();
    }
}
