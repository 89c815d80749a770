package io.kubepekko.api.table;

import static io.kubepekko.api.table.CoreCells.integer;
import static io.kubepekko.api.table.CoreCells.object;
import static io.kubepekko.api.table.CoreCells.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * core/v1 Events as {@code kubectl get events} shows them. Events written through the newer
 * events.k8s.io API lack the old timestamps and count, so those cells fall back to eventTime and
 * the series like kube's.
 */
public final class EventPrinter implements TablePrinter {

    public static final EventPrinter INSTANCE = new EventPrinter();

    private static final List<Column> COLUMNS =
            List.of(
                    Column.string("Last Seen", CoreDescriptions.EVENT_LAST_TIMESTAMP),
                    Column.string("Type", CoreDescriptions.EVENT_TYPE),
                    Column.string("Reason", CoreDescriptions.EVENT_REASON),
                    Column.string("Object", CoreDescriptions.EVENT_INVOLVED_OBJECT),
                    Column.string("Subobject", CoreDescriptions.EVENT_FIELD_PATH).wide(),
                    Column.string("Source", CoreDescriptions.EVENT_SOURCE).wide(),
                    Column.string("Message", CoreDescriptions.EVENT_MESSAGE),
                    Column.string("First Seen", CoreDescriptions.EVENT_FIRST_TIMESTAMP).wide(),
                    // Declared a string column by kube, yet its cells are integers.
                    Column.string("Count", CoreDescriptions.EVENT_COUNT).wide(),
                    Column.NAME.wide());

    private EventPrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode event, Instant now) {
        Instant firstTimestamp = CoreCells.time(event, "firstTimestamp");
        String firstSeen =
                CoreCells.since(
                        firstTimestamp != null
                                ? firstTimestamp
                                : CoreCells.time(event, "eventTime"),
                        now);
        Instant lastTimestamp = CoreCells.time(event, "lastTimestamp");
        String lastSeen = lastTimestamp != null ? CoreCells.since(lastTimestamp, now) : firstSeen;
        long count = integer(event, "count");
        JsonNode series = object(event, "series");
        if (series != null) {
            lastSeen = CoreCells.since(CoreCells.time(series, "lastObservedTime"), now);
            count = integer(series, "count");
        } else if (count == 0) {
            count = 1; // a singleton event written through events.k8s.io carries no count
        }
        JsonNode involved = event.path("involvedObject");
        return List.of(
                lastSeen,
                text(event, "type"),
                text(event, "reason"),
                target(involved),
                text(involved, "fieldPath"),
                source(event),
                CoreCells.trimSpace(text(event, "message")),
                firstSeen,
                count,
                text(event.path("metadata"), "name"));
    }

    /** {@code kind/name} in lower-case kind, or the kind alone for an unnamed object. */
    private static String target(JsonNode involved) {
        String kind = text(involved, "kind").toLowerCase(Locale.ROOT);
        String name = text(involved, "name");
        return name.isEmpty() ? kind : kind + "/" + name;
    }

    /**
     * {@code component, host}, each taken from the reporting controller and instance when unset.
     */
    private static String source(JsonNode event) {
        JsonNode source = event.path("source");
        String component = text(source, "component");
        if (component.isEmpty()) {
            component = text(event, "reportingComponent");
        }
        String host = text(source, "host");
        if (host.isEmpty()) {
            host = text(event, "reportingInstance");
        }
        return host.isEmpty() ? component : component + ", " + host;
    }
}
