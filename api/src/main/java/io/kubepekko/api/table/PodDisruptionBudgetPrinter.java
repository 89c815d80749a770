package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** policy PodDisruptionBudget: Name, Min Available, Max Unavailable, Allowed Disruptions, Age. */
public final class PodDisruptionBudgetPrinter implements TablePrinter {
    private static final String UNSET = "N/A";

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "Min Available", "The minimum number of pods that must be available."),
                    Column.string(
                            "Max Unavailable",
                            "The maximum number of pods that may be unavailable."),
                    Column.integer(
                            "Allowed Disruptions",
                            "Calculated number of pods that may be disrupted at this time."),
                    ClusterCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        return List.of(
                ClusterCells.name(object),
                ClusterCells.intOrString(spec.get("minAvailable"), UNSET),
                ClusterCells.intOrString(spec.get("maxUnavailable"), UNSET),
                ClusterCells.int64(object.path("status").path("disruptionsAllowed")),
                Ages.of(object, now));
    }
}
