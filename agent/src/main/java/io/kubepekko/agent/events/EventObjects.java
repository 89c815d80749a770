package io.kubepekko.agent.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** The core/v1 Event objects and patches the kubelet's recorder sends. */
final class EventObjects {
    private EventObjects() {}

    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ISO_INSTANT;

    static String namespace(JsonNode pod) {
        return pod.path("metadata").path("namespace").asText("default");
    }

    /**
     * The whole Event {@code name} about {@code r}'s pod, counted {@code count} times since {@code
     * first}, last at {@code last}, as {@code source.component: kubelet} of {@code nodeName}.
     */
    static ObjectNode event(
            String name,
            EventRecorder.Record r,
            String nodeName,
            int count,
            Instant first,
            Instant last) {
        JsonNode meta = r.pod().path("metadata");
        String namespace = namespace(r.pod());
        ObjectNode e = JsonNodeFactory.instance.objectNode();
        e.put("apiVersion", "v1").put("kind", "Event");
        e.putObject("metadata").put("name", name).put("namespace", namespace);
        ObjectNode involved = e.putObject("involvedObject");
        involved.put("kind", "Pod")
                .put("namespace", namespace)
                .put("name", meta.path("name").asText())
                .put("uid", meta.path("uid").asText())
                .put("apiVersion", "v1");
        if (!meta.path("resourceVersion").asText("").isEmpty()) {
            involved.put("resourceVersion", meta.path("resourceVersion").asText());
        }
        if (!r.fieldPath().isEmpty()) {
            involved.put("fieldPath", r.fieldPath());
        }
        e.put("reason", r.reason()).put("message", r.message()).put("type", r.type());
        e.putObject("source").put("component", "kubelet").put("host", nodeName);
        e.put("firstTimestamp", timestamp(first))
                .put("lastTimestamp", timestamp(last))
                .put("count", count);
        e.put("reportingComponent", "kubelet").put("reportingInstance", nodeName);
        return e;
    }

    /** The merge patch that counts a repeat of an Event: its {@code count} and last time. */
    static ObjectNode repeat(int count, Instant last) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("count", count).put("lastTimestamp", timestamp(last));
        return body;
    }

    private static String timestamp(Instant at) {
        return RFC3339.format(at.truncatedTo(ChronoUnit.SECONDS));
    }
}
