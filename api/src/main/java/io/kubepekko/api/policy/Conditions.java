package io.kubepekko.api.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.store.Timestamps;
import java.time.Instant;

/**
 * Condition lists as apimachinery's {@code meta.SetStatusCondition} ({@code metav1.Condition}) and
 * kube's {@code podutil.UpdatePodCondition} (pod conditions) change them: the transition time moves
 * only when the status does.
 */
final class Conditions {
    private Conditions() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * Sets a {@code metav1.Condition} of {@code type} in {@code owner.conditions} (created when
     * absent), in its JSON field order.
     */
    static void setStatusCondition(
            ObjectNode owner,
            String type,
            String status,
            String reason,
            String message,
            long observedGeneration,
            Instant now) {
        ArrayNode conditions =
                owner.get("conditions") instanceof ArrayNode a ? a : owner.putArray("conditions");
        ObjectNode existing = find(conditions, type);
        String transition =
                existing != null && existing.path("status").asText("").equals(status)
                        ? existing.path("lastTransitionTime").asText(Timestamps.format(now))
                        : Timestamps.format(now);
        ObjectNode c = F.objectNode();
        c.put("type", type);
        c.put("status", status);
        if (observedGeneration != 0) {
            c.put("observedGeneration", observedGeneration);
        }
        c.put("lastTransitionTime", transition);
        c.put("reason", reason);
        c.put("message", message);
        replace(conditions, existing, c);
    }

    /**
     * Sets a pod condition of {@code type} in {@code status.conditions}; the transition time stays
     * when the status does not change.
     */
    static void updatePodCondition(
            ObjectNode podStatus,
            String type,
            String status,
            String reason,
            String message,
            Instant now) {
        ArrayNode conditions =
                podStatus.get("conditions") instanceof ArrayNode a
                        ? a
                        : podStatus.putArray("conditions");
        ObjectNode existing = find(conditions, type);
        ObjectNode c = F.objectNode();
        c.put("type", type);
        c.put("status", status);
        c.set(
                "lastProbeTime",
                existing != null && existing.has("lastProbeTime")
                        ? existing.get("lastProbeTime")
                        : F.nullNode());
        c.put(
                "lastTransitionTime",
                existing != null && existing.path("status").asText("").equals(status)
                        ? existing.path("lastTransitionTime").asText(Timestamps.format(now))
                        : Timestamps.format(now));
        if (reason != null) {
            c.put("reason", reason);
        }
        if (message != null) {
            c.put("message", message);
        }
        replace(conditions, existing, c);
    }

    static ObjectNode find(JsonNode conditions, String type) {
        for (JsonNode c : conditions) {
            if (c instanceof ObjectNode o && o.path("type").asText("").equals(type)) {
                return o;
            }
        }
        return null;
    }

    private static void replace(ArrayNode conditions, ObjectNode existing, ObjectNode c) {
        if (existing == null) {
            conditions.add(c);
            return;
        }
        for (int i = 0; i < conditions.size(); i++) {
            if (conditions.get(i) == existing) {
                conditions.set(i, c);
                return;
            }
        }
    }
}
