package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * apps/v1 DaemonSets as {@code kubectl get daemonsets} shows them: Desired, Current, Ready,
 * Up-to-date, Available, the pod template's Node Selector, Age, and in wide output the containers,
 * images and selector.
 */
public final class DaemonSetPrinter implements TablePrinter {

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.integer(
                            "Desired",
                            "The total number of nodes that should be running the daemon pod (including "
                                    + "nodes correctly running the daemon pod)."
                                    + WorkloadColumns.DAEMON_SET_INFO),
                    Column.integer(
                            "Current",
                            "The number of nodes that are running at least 1 daemon pod and are supposed "
                                    + "to run the daemon pod."
                                    + WorkloadColumns.DAEMON_SET_INFO),
                    Column.integer(
                            "Ready",
                            "The number of nodes that should be running the daemon pod and have one or more "
                                    + "of the daemon pod running and ready."),
                    Column.integer(
                            "Up-to-date",
                            "The total number of nodes that are running updated daemon pod"),
                    Column.integer(
                            "Available",
                            "The number of nodes that should be running the daemon pod and have one or "
                                    + "more of the daemon pod running and available (ready for at least spec.minReadySeconds)"),
                    Column.string(
                            "Node Selector",
                            "NodeSelector is a selector which must be true for the pod to fit on a "
                                    + "node. Selector which must match a node's labels for the pod to be scheduled on that node. More "
                                    + "info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
                    WorkloadColumns.AGE,
                    WorkloadColumns.CONTAINERS,
                    WorkloadColumns.IMAGES,
                    Column.string(
                                    "Selector",
                                    "A label query over pods that are managed by the daemon set. Must match in "
                                            + "order to be controlled. If empty, defaulted to labels on Pod template."
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
        JsonNode podSpec = spec.path("template").path("spec");
        WorkloadCells.Containers containers = WorkloadCells.containers(podSpec);
        return List.of(
                WorkloadCells.name(object),
                WorkloadCells.count(status.path("desiredNumberScheduled")),
                WorkloadCells.count(status.path("currentNumberScheduled")),
                WorkloadCells.count(status.path("numberReady")),
                WorkloadCells.count(status.path("updatedNumberScheduled")),
                WorkloadCells.count(status.path("numberAvailable")),
                WorkloadCells.labels(podSpec.path("nodeSelector")),
                Ages.of(object, now),
                containers.names(),
                containers.images(),
                WorkloadCells.labelSelector(spec.path("selector")));
    }
}
