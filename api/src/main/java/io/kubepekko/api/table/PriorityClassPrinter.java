package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** scheduling.k8s.io PriorityClass: Name, Value, Global-Default, Age, PreemptionPolicy. */
public final class PriorityClassPrinter implements TablePrinter {
    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.integer(
                            "Value",
                            "value represents the integer value of this priority class. This is the actual "
                                    + "priority that pods receive when they have the name of this class in their pod spec."),
                    new Column(
                            "Global-Default",
                            "boolean",
                            "",
                            "globalDefault specifies whether this PriorityClass should "
                                    + "be considered as the default priority for pods that do not have any priority class. Only one "
                                    + "PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses "
                                    + "exists with their `globalDefault` field set to true, the smallest value of such global "
                                    + "default PriorityClasses will be used as the default priority.",
                            0),
                    ClusterCells.AGE,
                    // Kube fills this one only in wide output yet declares it priority 0; the
                    // server prints wide.
                    Column.string(
                            "PreemptionPolicy",
                            "preemptionPolicy is the Policy for preempting pods with lower "
                                    + "priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset."));

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return List.of(
                ClusterCells.name(object),
                ClusterCells.int64(object.path("value")),
                ClusterCells.bool(object.path("globalDefault")),
                Ages.of(object, now),
                ClusterCells.text(object.path("preemptionPolicy"), ""));
    }
}
