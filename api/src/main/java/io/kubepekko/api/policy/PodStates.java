package io.kubepekko.api.policy;

import com.fasterxml.jackson.databind.JsonNode;

/** What eviction and the disruption controller read of a pod. */
public final class PodStates {
    private PodStates() {}

    /** kube's {@code IsPodReady}: the {@code Ready} condition is {@code True}. */
    public static boolean ready(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText("").equals("Ready")) {
                return c.path("status").asText("").equals("True");
            }
        }
        return false;
    }

    /** {@code status.phase}, empty when unset. */
    public static String phase(JsonNode pod) {
        return pod.path("status").path("phase").asText("");
    }

    /** Succeeded or Failed. */
    public static boolean terminal(JsonNode pod) {
        String phase = phase(pod);
        return phase.equals("Succeeded") || phase.equals("Failed");
    }

    /** Whether the pod is being deleted ({@code metadata.deletionTimestamp} set). */
    public static boolean terminating(JsonNode pod) {
        JsonNode t = pod.path("metadata").path("deletionTimestamp");
        return t.isTextual() && !t.asText().isEmpty();
    }

    /**
     * The owner reference marked {@code controller: true} ({@code metav1.GetControllerOf}), or
     * null.
     */
    public static JsonNode controllerRef(JsonNode object) {
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref;
            }
        }
        return null;
    }
}
