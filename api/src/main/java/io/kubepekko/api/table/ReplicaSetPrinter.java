package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * apps/v1 ReplicaSets as {@code kubectl get replicasets} shows them: Desired, Current, Ready, Age,
 * and in wide output the containers, images and selector.
 */
public final class ReplicaSetPrinter implements TablePrinter {

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.integer(
                            "Desired",
                            "Replicas is the number of desired pods. This is a pointer to distinguish "
                                    + "between explicit zero and unspecified. Defaults to 1."
                                    + WorkloadColumns.REPLICA_SET_INFO),
                    Column.integer(
                            "Current",
                            "Replicas is the most recently observed number of non-terminating pods."
                                    + WorkloadColumns.REPLICA_SET_INFO),
                    Column.integer(
                            "Ready",
                            "The number of non-terminating pods targeted by this ReplicaSet with a Ready "
                                    + "Condition."),
                    WorkloadColumns.AGE,
                    WorkloadColumns.CONTAINERS,
                    WorkloadColumns.IMAGES,
                    Column.string(
                                    "Selector",
                                    "Selector is a label query over pods that should match the replica count. "
                                            + "If the selector is empty, it is defaulted to the labels present on the pod template. Label keys "
                                            + "and values that must match in order to be controlled by this replica set."
                                            + WorkloadColumns.LABEL_SELECTORS_INFO)
                            .wide());

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        JsonNode status = object.path("status");
        WorkloadCells.Containers containers =
                WorkloadCells.containers(spec.path("template").path("spec"));
        return List.of(
                WorkloadCells.name(object),
                WorkloadCells.replicas(spec),
                WorkloadCells.count(status.path("replicas")),
                WorkloadCells.count(status.path("readyReplicas")),
                Ages.of(object, now),
                containers.names(),
                containers.images(),
                WorkloadCells.labelSelector(spec.path("selector")));
    }
}
