package io.kubepekko.http.encoding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedOutputStream;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.table.IncludeObject;
import io.kubepekko.api.table.TablePrinter;
import io.kubepekko.api.table.Tables;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.StreamEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.function.UnaryOperator;
import org.apache.pekko.util.ByteString;

/**
 * Frames watch events as kube-apiserver's JSON stream does: one {@code {"type":T,"object":O}}
 * document per event followed by a newline, each its own chunk. Object bytes are the stored JSON,
 * not re-serialized.
 */
public final class WatchFraming {

    /** Kubernetes' annotation on the bookmark that ends a WatchList's initial events. */
    static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    private static final ByteString[] PREFIXES = {
        prefix("ADDED"), prefix("MODIFIED"), prefix("DELETED")
    };
    private static final ByteString ERROR = prefix("ERROR");
    private static final ByteString SUFFIX = ByteString.fromString("}\n");

    private final String kind;
    private final String apiVersion;
    private final UnaryOperator<byte[]> objects;

    /** Set when events are Tables of one row each; null for plain objects. */
    private final TableRows tableRows;

    /** Length-prefixed protobuf WatchEvents instead of JSON lines. */
    private final boolean protobuf;

    /**
     * Whether the column definitions went out already: only the stream's first Table carries them.
     */
    private boolean columnsSent;

    /**
     * How a Table watch renders its events.
     *
     * @param metaVersion the Table's {@code meta.k8s.io} version
     */
    public record TableRows(
            String metaVersion, TablePrinter printer, IncludeObject include, Clock clock) {}

    /**
     * Frames events of one kind; bookmarks carry its kind and apiVersion. {@code objects} may turn
     * each object's JSON into the served version; usually it is the identity.
     */
    public WatchFraming(String kind, String apiVersion, UnaryOperator<byte[]> objects) {
        this(kind, apiVersion, objects, null, false);
    }

    private WatchFraming(
            String kind,
            String apiVersion,
            UnaryOperator<byte[]> objects,
            TableRows tableRows,
            boolean protobuf) {
        this.kind = kind;
        this.apiVersion = apiVersion;
        this.objects = objects;
        this.tableRows = tableRows;
        this.protobuf = protobuf;
    }

    /**
     * Frames events as kube-apiserver's protobuf watch stream: each a 4-byte big-endian length,
     * then a bare {@code WatchEvent{type, object: RawExtension{raw}}} whose raw is the object in
     * the protobuf envelope.
     */
    public static WatchFraming protobuf(
            String kind, String apiVersion, UnaryOperator<byte[]> objects) {
        return new WatchFraming(kind, apiVersion, objects, null, true);
    }

    /**
     * Frames each event's object as a Table of one row, as {@code kubectl get -w} asks; the first
     * event carries the column definitions and later ones {@code null}, as kube-apiserver's do. One
     * instance frames one stream (it remembers whether the columns went out).
     */
    public static WatchFraming table(
            String kind, String apiVersion, UnaryOperator<byte[]> objects, TableRows rows) {
        return new WatchFraming(kind, apiVersion, objects, rows, false);
    }

    private static ByteString prefix(String type) {
        return ByteString.fromString(
                "{\"type\":\"" + type + "\",\"object\":", StandardCharsets.UTF_8);
    }

    public ByteString frame(StreamEvent event) {
        if (protobuf) {
            return protobufFrame(event);
        }
        if (tableRows != null && !(event instanceof StreamEvent.Failure)) {
            return tableFrame(event);
        }
        if (event instanceof Delivery d) {
            return PREFIXES[d.type().ordinal()]
                    .concat(ByteString.fromArrayUnsafe(objects.apply(d.object().json())))
                    .concat(SUFFIX);
        }
        if (event instanceof StreamEvent.Bookmark b) {
            ObjectNode object =
                    Json.MAPPER.createObjectNode().put("kind", kind).put("apiVersion", apiVersion);
            ObjectNode metadata =
                    object.putObject("metadata")
                            .put("resourceVersion", Long.toString(b.resourceVersion()));
            if (b.initialEventsEnd()) {
                metadata.putObject("annotations").put(INITIAL_EVENTS_END, "true");
            }
            ObjectNode frame = Json.MAPPER.createObjectNode().put("type", "BOOKMARK");
            frame.set("object", object);
            return ByteString.fromArrayUnsafe(Json.bytes(frame))
                    .concat(ByteString.fromString("\n"));
        }
        StreamEvent.Failure f = (StreamEvent.Failure) event;
        return ERROR.concat(ByteString.fromArrayUnsafe(Json.bytes(f.status().toJson())))
                .concat(SUFFIX);
    }

    private ByteString protobufFrame(StreamEvent event) {
        String type;
        JsonNode object;
        if (event instanceof Delivery d) {
            type = d.type().name();
            object = Json.parseTrusted(objects.apply(d.object().json()));
        } else if (event instanceof StreamEvent.Bookmark b) {
            type = "BOOKMARK";
            ObjectNode o =
                    Json.MAPPER.createObjectNode().put("kind", kind).put("apiVersion", apiVersion);
            ObjectNode metadata =
                    o.putObject("metadata")
                            .put("resourceVersion", Long.toString(b.resourceVersion()));
            if (b.initialEventsEnd()) {
                metadata.putObject("annotations").put(INITIAL_EVENTS_END, "true");
            }
            object = o;
        } else {
            type = "ERROR";
            object = ((StreamEvent.Failure) event).status().toJson();
        }
        byte[] enveloped = ProtobufBodies.builtin().encode(object, ProtobufBodies.kindOf(object));
        try {
            ByteArrayOutputStream raw = new ByteArrayOutputStream(enveloped.length + 8);
            CodedOutputStream ext = CodedOutputStream.newInstance(raw);
            ext.writeByteArray(1, enveloped);
            ext.flush();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(enveloped.length + 32);
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeString(1, type);
            out.writeByteArray(2, raw.toByteArray());
            out.flush();
            byte[] message = bytes.toByteArray();
            return ByteString.fromArrayUnsafe(ByteBuffer.allocate(4).putInt(message.length).array())
                    .concat(ByteString.fromArrayUnsafe(message));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private ByteString tableFrame(StreamEvent event) {
        ObjectNode frame = Json.MAPPER.createObjectNode();
        if (event instanceof Delivery d) {
            frame.put("type", d.type().name());
            frame.set(
                    "object",
                    Tables.objectTable(
                            tableRows.metaVersion(),
                            tableRows.printer(),
                            Json.parseTrusted(objects.apply(d.object().json())),
                            tableRows.include(),
                            !columnsSent,
                            tableRows.clock().instant()));
            columnsSent = true;
        } else {
            StreamEvent.Bookmark b = (StreamEvent.Bookmark) event;
            frame.put("type", "BOOKMARK");
            frame.set(
                    "object",
                    Tables.bookmark(tableRows.metaVersion(), Long.toString(b.resourceVersion())));
        }
        return ByteString.fromArrayUnsafe(Json.bytes(frame)).concat(ByteString.fromString("\n"));
    }
}
