package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * ServiceAccounts: Name, Age. Kubernetes 1.35 dropped the Secrets count column (kubernetes#117160):
 * nothing has filled {@code secrets} since 1.24, so the count misled.
 */
public final class ServiceAccountPrinter implements TablePrinter {

    private static final List<Column> COLUMNS = List.of(Column.NAME, ConfigCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return List.of(ConfigCells.name(object), Ages.of(object, now));
    }
}
