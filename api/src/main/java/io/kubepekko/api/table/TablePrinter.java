package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * How the objects of one kind print as Table rows: the columns, and each object's cells. This is
 * the SPI a kind implements to look in {@code kubectl get} as it does against Kubernetes; kinds
 * without one get {@link #DEFAULT} (Name, Created At), as kube-apiserver's default convertor does.
 *
 * <p>Implementations are pure and stateless; they read the stored JSON and never fail on a missing
 * or oddly typed field (a cell shows what kube's printer shows for an unset field instead).
 */
public interface TablePrinter {

    /** The columns, in order. */
    List<Column> columns();

    /**
     * The cells of one object, one per column in the same order: {@code String}, {@code Long} or
     * {@code Integer}, {@code Boolean}, or {@code null}.
     *
     * @param now the time ages are measured to
     */
    List<Object> cells(JsonNode object, Instant now);

    /**
     * The row's conditions ({@code type}, {@code status}, {@code reason}, {@code message}); most
     * kinds have none. kube-apiserver marks finished pods {@code Completed} this way.
     */
    default List<RowCondition> conditions(JsonNode object) {
        return List.of();
    }

    /** One condition of a Table row. */
    record RowCondition(String type, String status, String reason, String message) {}

    /**
     * Name and creation time, for kinds without their own printer, as kube-apiserver's default
     * convertor prints them: the time in UTC to the second, Go's zero time when unset.
     */
    TablePrinter DEFAULT =
            new TablePrinter() {
                private static final String ZERO_TIME = "0001-01-01T00:00:00Z";
                private static final DateTimeFormatter RFC3339 =
                        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'")
                                .withZone(ZoneOffset.UTC);
                private final List<Column> columns =
                        List.of(
                                Column.NAME,
                                new Column(
                                        "Created At",
                                        "date",
                                        "",
                                        Descriptions.CREATION_TIMESTAMP,
                                        0));

                @Override
                public List<Column> columns() {
                    return columns;
                }

                @Override
                public List<Object> cells(JsonNode object, Instant now) {
                    JsonNode meta = object.path("metadata");
                    return List.of(
                            meta.path("name").asText(""),
                            createdAt(meta.path("creationTimestamp").asText("")));
                }

                private String createdAt(String text) {
                    try {
                        return text.isEmpty()
                                ? ZERO_TIME
                                : RFC3339.format(
                                        Instant.parse(text).truncatedTo(ChronoUnit.SECONDS));
                    } catch (DateTimeParseException e) {
                        return ZERO_TIME;
                    }
                }
            };
}
