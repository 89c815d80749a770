package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The node conditions the kubelet owns, computed as its setters in
 * pkg/kubelet/nodestatus/setters.go do: MemoryPressure, DiskPressure, PIDPressure, then Ready, in
 * that order. Every condition gets the current time as {@code lastHeartbeatTime}; {@code
 * lastTransitionTime} moves only when its status changes (a new condition transitions now). A
 * pressure condition's reason and message are set on a transition only; Ready's are rewritten every
 * time.
 */
public final class NodeConditions {
    private NodeConditions() {}

    /** Ready's reason while the node is healthy. */
    public static final String READY_REASON = "KubeletReady";

    public static final String READY_MESSAGE = "kubelet is posting ready status";

    /** Ready's reason when any check fails; the message lists what failed. */
    public static final String NOT_READY_REASON = "KubeletNotReady";

    /**
     * What the conditions are computed from: the failures that make the node not ready, and the
     * pressures.
     */
    public record Inputs(
            List<String> notReadyErrors,
            boolean memoryPressure,
            boolean diskPressure,
            boolean pidPressure) {
        public Inputs {
            notReadyErrors = List.copyOf(notReadyErrors);
        }

        public static Inputs healthy() {
            return new Inputs(List.of(), false, false, false);
        }
    }

    private record Pressure(
            String type,
            String trueReason,
            String trueMessage,
            String falseReason,
            String falseMessage) {}

    private static final List<Pressure> PRESSURES =
            List.of(
                    new Pressure(
                            "MemoryPressure",
                            "KubeletHasInsufficientMemory",
                            "kubelet has insufficient memory available",
                            "KubeletHasSufficientMemory",
                            "kubelet has sufficient memory available"),
                    new Pressure(
                            "DiskPressure",
                            "KubeletHasDiskPressure",
                            "kubelet has disk pressure",
                            "KubeletHasNoDiskPressure",
                            "kubelet has no disk pressure"),
                    new Pressure(
                            "PIDPressure",
                            "KubeletHasInsufficientPID",
                            "kubelet has insufficient PID available",
                            "KubeletHasSufficientPID",
                            "kubelet has sufficient PID available"));

    /** The kubelet's error aggregate: one error as is, several as {@code [a, b]}. */
    public static String aggregate(List<String> errors) {
        return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    }

    /**
     * The node's conditions after this update: those of {@code previous} that the agent does not
     * own stay where they were; its own four are updated in place or appended in the kubelet's
     * order.
     */
    public static ArrayNode update(JsonNode previous, Inputs in, Instant now) {
        String t = NodeTimes.time(now);
        List<ObjectNode> conditions = new ArrayList<>();
        for (JsonNode c : previous) {
            if (c instanceof ObjectNode o) {
                conditions.add(o.deepCopy());
            }
        }
        boolean[] pressures = {in.memoryPressure(), in.diskPressure(), in.pidPressure()};
        for (int i = 0; i < PRESSURES.size(); i++) {
            Pressure p = PRESSURES.get(i);
            ObjectNode c =
                    find(conditions, p.type())
                            .orElseGet(
                                    () -> {
                                        ObjectNode n = Json.MAPPER.createObjectNode();
                                        n.put("type", p.type());
                                        n.put("status", "Unknown");
                                        conditions.add(n);
                                        return n;
                                    });
            String want = pressures[i] ? "True" : "False";
            c.put("lastHeartbeatTime", t);
            if (!want.equals(c.path("status").asText())) {
                c.put("status", want);
                c.put("lastTransitionTime", t);
                c.put("reason", pressures[i] ? p.trueReason() : p.falseReason());
                c.put("message", pressures[i] ? p.trueMessage() : p.falseMessage());
            }
            reorder(c);
        }
        boolean ready = in.notReadyErrors().isEmpty();
        ObjectNode r = Json.MAPPER.createObjectNode();
        r.put("type", "Ready");
        r.put("status", ready ? "True" : "False");
        r.put("lastHeartbeatTime", t);
        Optional<ObjectNode> old = find(conditions, "Ready");
        r.put(
                "lastTransitionTime",
                old.filter(o -> o.path("status").asText().equals(r.path("status").asText()))
                        .map(o -> o.path("lastTransitionTime").asText(t))
                        .orElse(t));
        r.put("reason", ready ? READY_REASON : NOT_READY_REASON);
        r.put("message", ready ? READY_MESSAGE : aggregate(in.notReadyErrors()));
        if (old.isPresent()) {
            conditions.set(conditions.indexOf(old.get()), r);
        } else {
            conditions.add(r);
        }
        ArrayNode out = Json.MAPPER.createArrayNode();
        conditions.forEach(out::add);
        return out;
    }

    /**
     * Field order as the API writes a NodeCondition, so a condition reads the same whoever wrote
     * it.
     */
    private static void reorder(ObjectNode c) {
        ObjectNode copy = c.deepCopy();
        c.removeAll();
        for (String f :
                List.of(
                        "type",
                        "status",
                        "lastHeartbeatTime",
                        "lastTransitionTime",
                        "reason",
                        "message")) {
            if (copy.has(f)) {
                c.set(f, copy.get(f));
            }
        }
        copy.fields()
                .forEachRemaining(
                        e -> {
                            if (!c.has(e.getKey())) {
                                c.set(e.getKey(), e.getValue());
                            }
                        });
    }

    private static Optional<ObjectNode> find(List<ObjectNode> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.path("type").asText())).findFirst();
    }
}
