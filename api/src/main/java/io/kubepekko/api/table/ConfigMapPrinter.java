package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** ConfigMaps: Name, Data (the number of keys, text and binary together), Age. */
public final class ConfigMapPrinter implements TablePrinter {

    private static final String DATA =
            "Data contains the configuration data. Each key must consist of alphanumeric "
                    + "characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The "
                    + "keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during "
                    + "validation process.";

    private static final List<Column> COLUMNS =
            List.of(Column.NAME, Column.string("Data", DATA), ConfigCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        long keys =
                ConfigCells.size(object.get("data")) + ConfigCells.size(object.get("binaryData"));
        return List.of(ConfigCells.name(object), keys, Ages.of(object, now));
    }
}
