package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * LimitRanges: Name, Created At. Kubernetes has no printer for them; their storage uses the generic
 * apiserver's default convertor, which prints the creation time in UTC to the second, and Go's zero
 * time when it is unset.
 */
final class LimitRangePrinter implements TablePrinter {

    private static final String ZERO_TIME = "0001-01-01T00:00:00Z";
    private static final DateTimeFormatter RFC3339 =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

    private static final List<Column> COLUMNS = List.of(Column.NAME,
            new Column("Created At", "date", "", Descriptions.CREATION_TIMESTAMP, 0));

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return List.of(ConfigCells.name(object), createdAt(object.path("metadata").get("creationTimestamp")));
    }

    private static String createdAt(JsonNode timestamp) {
        String text = ConfigCells.text(timestamp);
        if (text.isEmpty()) {
            return ZERO_TIME;
        }
        try {
            return RFC3339.format(Instant.parse(text).truncatedTo(ChronoUnit.SECONDS));
        } catch (DateTimeParseException e) {
            return ZERO_TIME;
        }
    }
}
