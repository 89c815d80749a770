package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.ListBody;
import io.kubepekko.api.codec.TextFormat;
import io.kubepekko.api.codec.TreeListBody;
import io.kubepekko.api.meta.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Renders objects as a {@code meta.k8s.io} Table (v1 or v1beta1), the representation {@code kubectl
 * get} asks for. Pure: the objects are their stored JSON bytes.
 */
public final class Tables {
    private Tables() {}

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * The list metadata a Table carries over from the list it shows (or, for one object, the
     * object's resourceVersion alone).
     *
     * @param continueToken may be null
     * @param remainingItemCount may be null
     */
    public record ListMeta(String resourceVersion, String continueToken, Long remainingItemCount) {}

    /**
     * One Table of {@code objects}.
     *
     * @param metaVersion {@code v1} or {@code v1beta1}: the version of the Table and of the
     *     PartialObjectMetadata in its rows
     * @param columns whether to include the column definitions; a watch stream sends them with its
     *     first event only, and {@code null} after, as kube-apiserver does
     */
    public static byte[] render(
            String metaVersion,
            TablePrinter printer,
            List<byte[]> objects,
            IncludeObject include,
            ListMeta meta,
            boolean columns,
            Instant now) {
        List<ObjectNode> parsed = new ArrayList<>(objects.size());
        for (byte[] bytes : objects) {
            parsed.add(Json.parseTrusted(bytes));
        }
        return Json.bytes(table(metaVersion, printer, parsed, include, meta, columns, now));
    }

    /**
     * A Table of one object; its metadata carries the object's resourceVersion, as kube-apiserver's
     * does.
     */
    public static byte[] renderObject(
            String metaVersion,
            TablePrinter printer,
            byte[] object,
            IncludeObject include,
            Instant now) {
        return Json.bytes(
                objectTable(metaVersion, printer, Json.parseTrusted(object), include, true, now));
    }

    /** A Table of one object, with or without the column definitions (a watch event's object). */
    public static ObjectNode objectTable(
            String metaVersion,
            TablePrinter printer,
            ObjectNode object,
            IncludeObject include,
            boolean columns,
            Instant now) {
        JsonNode rv = object.path("metadata").get("resourceVersion");
        return table(
                metaVersion,
                printer,
                List.of(object),
                include,
                new ListMeta(rv == null ? null : rv.asText(), null, null),
                columns,
                now);
    }

    /** A Table without rows that carries only a resourceVersion: a watch bookmark in Table form. */
    public static ObjectNode bookmark(String metaVersion, String resourceVersion) {
        return table(
                metaVersion,
                TablePrinter.DEFAULT,
                List.of(),
                IncludeObject.NONE,
                new ListMeta(resourceVersion, null, null),
                false,
                Instant.EPOCH);
    }

    /**
     * A Table of {@code objects} in {@code format}, one row at a time: only one object's tree
     * exists at a time, however long the list. Written whole, it is byte for byte what {@link
     * #render} gives in that format.
     *
     * @param perItem applied to each object's stored JSON before its row is made (a conversion to
     *     the served version), or null
     */
    public static ListBody listBody(
            TextFormat format,
            String metaVersion,
            TablePrinter printer,
            List<byte[]> objects,
            IncludeObject include,
            ListMeta meta,
            Instant now,
            UnaryOperator<byte[]> perItem) {
        String apiVersion = "meta.k8s.io/" + metaVersion;
        return new TreeListBody(
                format,
                head(apiVersion, printer, meta, true),
                "rows",
                objects,
                bytes ->
                        row(
                                apiVersion,
                                printer,
                                Json.parseTrusted(perItem == null ? bytes : perItem.apply(bytes)),
                                include,
                                now));
    }

    private static ObjectNode table(
            String metaVersion,
            TablePrinter printer,
            List<ObjectNode> objects,
            IncludeObject include,
            ListMeta meta,
            boolean columns,
            Instant now) {
        String apiVersion = "meta.k8s.io/" + metaVersion;
        ObjectNode table = head(apiVersion, printer, meta, columns);
        ArrayNode rows = table.putArray("rows");
        for (ObjectNode object : objects) {
            rows.add(row(apiVersion, printer, object, include, now));
        }
        return table;
    }

    /** The Table's fields before its rows. */
    private static ObjectNode head(
            String apiVersion, TablePrinter printer, ListMeta meta, boolean columns) {
        ObjectNode table = NODES.objectNode();
        table.put("kind", "Table");
        table.put("apiVersion", apiVersion);
        ObjectNode m = table.putObject("metadata");
        if (meta.resourceVersion() != null) {
            m.put("resourceVersion", meta.resourceVersion());
        }
        if (meta.continueToken() != null) {
            m.put("continue", meta.continueToken());
        }
        if (meta.remainingItemCount() != null) {
            m.put("remainingItemCount", meta.remainingItemCount());
        }
        if (columns) {
            ArrayNode defs = table.putArray("columnDefinitions");
            for (Column c : printer.columns()) {
                defs.addObject()
                        .put("name", c.name())
                        .put("type", c.type())
                        .put("format", c.format())
                        .put("description", c.description())
                        .put("priority", c.priority());
            }
        } else {
            table.putNull("columnDefinitions");
        }
        return table;
    }

    private static ObjectNode row(
            String apiVersion,
            TablePrinter printer,
            ObjectNode object,
            IncludeObject include,
            Instant now) {
        ObjectNode row = NODES.objectNode();
        ArrayNode cells = row.putArray("cells");
        for (Object cell : printer.cells(object, now)) {
            cells.add(cell(cell));
        }
        List<TablePrinter.RowCondition> conditions = printer.conditions(object);
        if (!conditions.isEmpty()) {
            ArrayNode c = row.putArray("conditions");
            for (TablePrinter.RowCondition rc : conditions) {
                c.addObject()
                        .put("type", rc.type())
                        .put("status", rc.status())
                        .put("reason", rc.reason())
                        .put("message", rc.message());
            }
        }
        switch (include) {
            case OBJECT -> row.set("object", object);
            case METADATA -> row.set("object", partialObjectMetadata(apiVersion, object));
            case NONE -> {}
        }
        return row;
    }

    /** The object's metadata alone, as kind PartialObjectMetadata of {@code apiVersion}. */
    public static ObjectNode partialObjectMetadata(String apiVersion, JsonNode object) {
        ObjectNode partial = NODES.objectNode();
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", apiVersion);
        JsonNode meta = object.get("metadata");
        partial.set("metadata", meta == null ? NODES.objectNode() : meta);
        return partial;
    }

    private static JsonNode cell(Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof String s) {
            return NODES.textNode(s);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (value instanceof JsonNode n) {
            return n;
        }
        return NODES.textNode(value.toString());
    }
}
