package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Hands a {@link PodWorker}'s pod status to its {@link StatusSink} when it changed, and keeps the
 * last one: its conditions are the previous ones the next status builds on (the API object's before
 * the first).
 */
final class StatusPublisher {
    private final StatusSink sink;
    private ObjectNode last;

    StatusPublisher(StatusSink sink) {
        this.sink = sink;
    }

    /**
     * The conditions the next status builds on: the last one's, else those of {@code pod} as the
     * API shows it.
     */
    JsonNode previousConditions(JsonNode pod) {
        return last != null ? last.path("conditions") : pod.path("status").path("conditions");
    }

    /** Publishes {@code status} of {@code pod} if it differs from the last one. */
    void publish(JsonNode pod, ObjectNode status) {
        if (!status.equals(last)) {
            last = status;
            JsonNode meta = pod.path("metadata");
            sink.podStatus(
                    meta.path("namespace").asText(),
                    meta.path("name").asText(),
                    meta.path("uid").asText(),
                    status.deepCopy());
        }
    }

    /** The last status built (null before the first). */
    ObjectNode last() {
        return last;
    }
}
