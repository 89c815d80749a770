package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * ResourceQuotas: Name, Request, Limit, Age. Each enforced resource of {@code status.hard}, in name
 * order, shows as {@code name: used/hard}; those named {@code limits.*} go to Limit, all others to
 * Request.
 */
public final class ResourceQuotaPrinter implements TablePrinter {

    private static final String REQUEST =
            "Request represents a minimum amount of cpu/memory that a container may " + "consume.";
    private static final String LIMIT =
            "Limits control the maximum amount of cpu/memory that a container may use "
                    + "independent of contention on the node.";

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Request", REQUEST),
                    Column.string("Limit", LIMIT),
                    ConfigCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode hard = object.path("status").path("hard");
        JsonNode used = object.path("status").path("used");
        List<String> resources = new ArrayList<>();
        if (hard.isObject()) {
            hard.fieldNames().forEachRemaining(resources::add);
        }
        // Resource names are validated ASCII, so String order is Go's byte order.
        resources.sort(null);
        List<String> requests = new ArrayList<>();
        List<String> limits = new ArrayList<>();
        for (String resource : resources) {
            String entry =
                    resource
                            + ": "
                            + Quantity.print(used.get(resource))
                            + "/"
                            + Quantity.print(hard.get(resource));
            (isLimit(resource) ? limits : requests).add(entry);
        }
        return List.of(
                ConfigCells.name(object),
                String.join(", ", requests),
                String.join(", ", limits),
                Ages.of(object, now));
    }

    /** {@code limits.cpu} is a limit; {@code limits} alone or {@code requests.cpu} is not. */
    private static boolean isLimit(String resource) {
        int dot = resource.indexOf('.');
        return dot >= 0 && resource.substring(0, dot).equals("limits");
    }
}
