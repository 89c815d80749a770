package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** admissionregistration.k8s.io webhook configurations (both kinds): Name, Webhooks, Age. */
public final class WebhookConfigurationPrinter implements TablePrinter {

    /** The printer of both kinds, which kube prints alike. */
    public static final WebhookConfigurationPrinter INSTANCE = new WebhookConfigurationPrinter();

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.integer(
                            "Webhooks",
                            "Webhooks indicates the number of webhooks included in this configuration."),
                    ClusterCells.AGE);

    private WebhookConfigurationPrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode hooks = object.path("webhooks");
        return List.of(
                ClusterCells.name(object),
                (long) (hooks.isArray() ? hooks.size() : 0),
                Ages.of(object, now));
    }
}
