package io.kubepekko.agent.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One event of a watch stream.
 *
 * @param type {@code ADDED}, {@code MODIFIED}, {@code DELETED}, {@code BOOKMARK} or {@code ERROR}
 * @param object the object; for {@code ERROR} a {@code Status}
 */
public record WatchEvent(String type, ObjectNode object) {

    public boolean isError() {
        return "ERROR".equals(type);
    }

    public boolean isBookmark() {
        return "BOOKMARK".equals(type);
    }

    /** The object's {@code metadata.resourceVersion}, empty when it has none. */
    public String resourceVersion() {
        return object.path("metadata").path("resourceVersion").asText("");
    }

    /** An {@code ERROR} event's Status as an error value. */
    public ApiError error() {
        return new ApiError.Answered(StatusBodies.status(object.path("code").asInt(500), object));
    }
}
