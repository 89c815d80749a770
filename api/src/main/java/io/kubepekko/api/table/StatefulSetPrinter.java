package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * apps/v1 StatefulSets as {@code kubectl get statefulsets} shows them: Ready as {@code
 * ready/desired}, Age, and in wide output the containers and images (no selector, as in kube).
 */
public final class StatefulSetPrinter implements TablePrinter {

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    WorkloadColumns.READY_PODS,
                    WorkloadColumns.AGE,
                    WorkloadColumns.CONTAINERS,
                    WorkloadColumns.IMAGES);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        WorkloadCells.Containers containers =
                WorkloadCells.containers(spec.path("template").path("spec"));
        return List.of(
                WorkloadCells.name(object),
                WorkloadCells.count(object.path("status").path("readyReplicas"))
                        + "/"
                        + WorkloadCells.replicas(spec),
                Ages.of(object, now),
                containers.names(),
                containers.images());
    }
}
