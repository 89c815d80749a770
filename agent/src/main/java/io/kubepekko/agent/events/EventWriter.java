package io.kubepekko.agent.events;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.PatchType;
import java.util.concurrent.CompletionStage;

/**
 * Where {@link EventRecorder} writes core/v1 Events (client-go's {@code EventSink}). A failed stage
 * carries an {@link io.kubepekko.agent.api.ApiError}: answered by the server, or not reached.
 */
public interface EventWriter {

    /** POST {@code event} to {@code /api/v1/namespaces/{namespace}/events}. */
    CompletionStage<?> create(String namespace, ObjectNode event);

    /** A JSON merge patch of the Event {@code namespace/name}. */
    CompletionStage<?> patch(String namespace, String name, ObjectNode mergePatch);

    /** Writes through {@code client}. */
    static EventWriter of(ApiClient client) {
        return new EventWriter() {
            @Override
            public CompletionStage<?> create(String namespace, ObjectNode event) {
                return client.create(collection(namespace), event);
            }

            @Override
            public CompletionStage<?> patch(String namespace, String name, ObjectNode mergePatch) {
                return client.patch(
                        collection(namespace) + "/" + name, PatchType.MERGE, mergePatch);
            }

            private String collection(String namespace) {
                return "/api/v1/namespaces/" + namespace + "/events";
            }
        };
    }
}
