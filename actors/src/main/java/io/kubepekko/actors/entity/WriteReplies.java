package io.kubepekko.actors.entity;

import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.Responses;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.api.store.WriteResult;

/** What a collection answers a write that was carried out. */
final class WriteReplies {

    private WriteReplies() {}

    /**
     * The reply to one write; {@code storedBytes}, when given, is the object's JSON as just
     * persisted.
     */
    static WriteResult written(
            ResourceType type, WriteOutcome outcome, long resourceVersion, byte[] storedBytes) {
        byte[] body =
                storedBytes != null && outcome.view() == WriteOutcome.ResponseView.OBJECT
                        ? storedBytes // the response is the stored object: no second serialization
                        : Json.bytes(Responses.render(type, outcome));
        return outcome.result(body, resourceVersion);
    }
}
