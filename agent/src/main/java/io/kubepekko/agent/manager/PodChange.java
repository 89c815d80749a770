package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What of a pod its worker acts on, to tell a change worth an {@code Update} from the echo of our
 * own status writes: the object without {@code status} and without the metadata every write moves
 * ({@code resourceVersion}, {@code managedFields}, {@code generation}).
 */
public final class PodChange {
    private PodChange() {}

    /** The pod as its worker sees it. */
    public static JsonNode desired(JsonNode pod) {
        ObjectNode copy = ((ObjectNode) pod).deepCopy();
        copy.remove("status");
        if (copy.get("metadata") instanceof ObjectNode meta) {
            meta.remove("resourceVersion");
            meta.remove("managedFields");
            meta.remove("generation");
        }
        return copy;
    }

    /** Whether {@code now} differs from {@code before} in anything its worker acts on. */
    public static boolean changed(JsonNode before, JsonNode now) {
        return !desired(before).equals(desired(now));
    }

    /** Whether the pod is being deleted (the API server set {@code metadata.deletionTimestamp}). */
    public static boolean deleting(JsonNode pod) {
        JsonNode ts = pod.path("metadata").path("deletionTimestamp");
        return ts.isTextual() && !ts.asText().isEmpty();
    }

    public static String uid(JsonNode pod) {
        return pod.path("metadata").path("uid").asText("");
    }

    /** {@code namespace/name}. */
    public static String key(JsonNode pod) {
        return pod.path("metadata").path("namespace").asText("")
                + "/"
                + pod.path("metadata").path("name").asText("");
    }
}
