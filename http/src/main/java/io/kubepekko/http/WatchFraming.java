package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.StreamEvent;
import org.apache.pekko.util.ByteString;

import io.kubepekko.api.table.IncludeObject;
import io.kubepekko.api.table.TablePrinter;
import io.kubepekko.api.table.Tables;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

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
    /** Set when events are Tables of one row each; null for plain objects. */
    private final TableRows tableRows;
    /** Whether the column definitions went out already: only the stream's first Table carries them. */
    private boolean columnsSent;

    /**
     * How a Table watch renders its events.
     *
     * @param metaVersion the Table's {@code meta.k8s.io} version
     */
    record TableRows(String metaVersion, TablePrinter printer, IncludeObject include, Clock clock) {}

    /**
     * Frames events of one kind; bookmarks carry its kind and apiVersion. {@code objects} may
     * decorate each object's JSON (selfLink with RemoveSelfLink off); usually it is the identity.
     */
    WatchFraming(String kind, String apiVersion, java.util.function.UnaryOperator<byte[]> objects) {
        this(kind, apiVersion, objects, null);
    }

    private WatchFraming(String kind, String apiVersion, java.util.function.UnaryOperator<byte[]> objects,
                         TableRows tableRows) {
        this.kind = kind;
        this.apiVersion = apiVersion;
        this.objects = objects;
        this.tableRows = tableRows;
    }

    /**
     * Frames each event's object as a Table of one row, as {@code kubectl get -w} asks; the first
     * event carries the column definitions and later ones {@code null}, as kube-apiserver's do.
     * One instance frames one stream (it remembers whether the columns went out).
     */
    static WatchFraming table(String kind, String apiVersion, java.util.function.UnaryOperator<byte[]> objects,
                              TableRows rows) {
        return new WatchFraming(kind, apiVersion, objects, rows);
    }

    private static ByteString prefix(String type) {
        return ByteString.fromString("{\"type\":\"" + type + "\",\"object\":", StandardCharsets.UTF_8);
    }

    ByteString frame(StreamEvent event) {
        if (tableRows != null && !(event instanceof StreamEvent.Failure)) {
            return tableFrame(event);
        }
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

    private ByteString tableFrame(StreamEvent event) {
        ObjectNode frame = Json.MAPPER.createObjectNode();
        if (event instanceof Delivery d) {
            frame.put("type", d.type().name());
            frame.set("object", Tables.objectTable(tableRows.metaVersion(), tableRows.printer(),
                    Json.parseTrusted(objects.apply(d.object().json())), tableRows.include(), !columnsSent,
                    tableRows.clock().instant()));
            columnsSent = true;
        } else {
            StreamEvent.Bookmark b = (StreamEvent.Bookmark) event;
            frame.put("type", "BOOKMARK");
            frame.set("object", Tables.bookmark(tableRows.metaVersion(), Long.toString(b.resourceVersion())));
        }
        return ByteString.fromArrayUnsafe(Json.bytes(frame)).concat(ByteString.fromString("\n"));
    }
}
