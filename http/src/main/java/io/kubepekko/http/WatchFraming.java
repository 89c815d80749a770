package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.StreamEvent;
import org.apache.pekko.util.ByteString;

import java.nio.charset.StandardCharsets;

/**
 * Frames watch events as kube-apiserver's JSON stream does: one {@code {"type":T,"object":O}} document
 * per event followed by a newline, each its own chunk. Object bytes are the stored JSON, not
 * re-serialized.
 */
final class WatchFraming {

    /** Kubernetes' annotation on the bookmark that ends a WatchList's initial events. */
    static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    private static final ByteString[] PREFIXES = {
            prefix("ADDED"), prefix("MODIFIED"), prefix("DELETED")};
    private static final ByteString ERROR = prefix("ERROR");
    private static final ByteString SUFFIX = ByteString.fromString("}\n");

    private final String kind;
    private final String apiVersion;
    private final java.util.function.UnaryOperator<byte[]> objects;

    /**
     * Frames events of one kind; bookmarks carry its kind and apiVersion. {@code objects} may
     * decorate each object's JSON (selfLink with RemoveSelfLink off); usually it is the identity.
     */
    WatchFraming(String kind, String apiVersion, java.util.function.UnaryOperator<byte[]> objects) {
        this.kind = kind;
        this.apiVersion = apiVersion;
        this.objects = objects;
    }

    private static ByteString prefix(String type) {
        return ByteString.fromString("{\"type\":\"" + type + "\",\"object\":", StandardCharsets.UTF_8);
    }

    ByteString frame(StreamEvent event) {
        if (event instanceof Delivery d) {
            return PREFIXES[d.type().ordinal()].concat(ByteString.fromArrayUnsafe(objects.apply(d.object().json()))).concat(SUFFIX);
        }
        if (event instanceof StreamEvent.Bookmark b) {
            ObjectNode object = Json.MAPPER.createObjectNode().put("kind", kind).put("apiVersion", apiVersion);
            ObjectNode metadata = object.putObject("metadata").put("resourceVersion", Long.toString(b.resourceVersion()));
            if (b.initialEventsEnd()) {
                metadata.putObject("annotations").put(INITIAL_EVENTS_END, "true");
            }
            ObjectNode frame = Json.MAPPER.createObjectNode().put("type", "BOOKMARK");
            frame.set("object", object);
            return ByteString.fromArrayUnsafe(Json.bytes(frame)).concat(ByteString.fromString("\n"));
        }
        StreamEvent.Failure f = (StreamEvent.Failure) event;
        return ERROR.concat(ByteString.fromArrayUnsafe(Json.bytes(f.status().toJson()))).concat(SUFFIX);
    }
}
