package io.kubepekko.api.table;

import static io.kubepekko.api.table.CoreCells.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** Namespaces as {@code kubectl get namespaces} shows them: the phase (Active, Terminating). */
public final class NamespacePrinter implements TablePrinter {

    public static final NamespacePrinter INSTANCE = new NamespacePrinter();

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Status", "The status of the namespace"),
                    Column.string("Age", Descriptions.CREATION_TIMESTAMP));

    private NamespacePrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode namespace, Instant now) {
        return List.of(
                text(namespace.path("metadata"), "name"),
                text(namespace.path("status"), "phase"),
                Ages.of(namespace, now));
    }
}
