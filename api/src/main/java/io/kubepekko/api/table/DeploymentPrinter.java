package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * apps/v1 Deployments as {@code kubectl get deployments} shows them: Ready as {@code
 * ready/desired}, Up-to-date, Available, Age, and in wide output the containers, images and
 * selector.
 */
public final class DeploymentPrinter implements TablePrinter {

    // Kubernetes declares these two as strings although their cells are integers; clients rely on
    // the declared types only for formatting, so they are kept as kube sends them.
    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    WorkloadColumns.READY_PODS,
                    Column.string(
                            "Up-to-date",
                            "Total number of non-terminating pods targeted by this deployment that have "
                                    + "the desired template spec."),
                    Column.string(
                            "Available",
                            "Total number of available non-terminating pods (ready for at least "
                                    + "minReadySeconds) targeted by this deployment."),
                    WorkloadColumns.AGE,
                    WorkloadColumns.CONTAINERS,
                    WorkloadColumns.IMAGES,
                    Column.string(
                                    "Selector",
                                    "Label selector for pods. Existing ReplicaSets whose pods are selected by this "
                                            + "will be the ones affected by this deployment.")
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
        // Unlike the other workloads, kube prints a Deployment's selector unformatted: empty rather
        // than <none>, and <invalid> rather than <error>.
        String selector = WorkloadCells.selectorString(spec.path("selector")).orElse("<invalid>");
        return List.of(
                WorkloadCells.name(object),
                WorkloadCells.count(status.path("readyReplicas"))
                        + "/"
                        + WorkloadCells.replicas(spec),
                WorkloadCells.count(status.path("updatedReplicas")),
                WorkloadCells.count(status.path("availableReplicas")),
                Ages.of(object, now),
                containers.names(),
                containers.images(),
                selector);
    }
}
