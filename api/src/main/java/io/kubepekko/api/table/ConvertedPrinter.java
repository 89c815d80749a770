package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.VersionConversion;
import java.time.Instant;
import java.util.List;

/**
 * The printer of a version whose objects are stored as another: kube-apiserver prints every version
 * of a kind from the internal object, so the columns and cells are the storage version's printer's,
 * read from the object converted back to that version.
 */
public final class ConvertedPrinter implements TablePrinter {

    private final TablePrinter storage;
    private final VersionConversion conversion;

    /**
     * @param storage the storage version's printer
     * @param conversion how an object of the printed version becomes the storage version's
     */
    public ConvertedPrinter(TablePrinter storage, VersionConversion conversion) {
        this.storage = storage;
        this.conversion = conversion;
    }

    @Override
    public List<Column> columns() {
        return storage.columns();
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return storage.cells(stored(object), now);
    }

    @Override
    public List<RowCondition> conditions(JsonNode object) {
        return storage.conditions(stored(object));
    }

    private JsonNode stored(JsonNode object) {
        return object instanceof ObjectNode o ? conversion.toStorage(o) : object;
    }
}
