package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** networking.k8s.io NetworkPolicy: Name, Pod-Selector, Age. */
public final class NetworkPolicyPrinter implements TablePrinter {
    /**
     * Kube describes the column with the podSelector documentation of the long-gone
     * extensions/v1beta1 NetworkPolicySpec, not networking/v1's.
     */
    static final String POD_SELECTOR_DESCRIPTION =
            "Selects the pods to which this NetworkPolicy object applies.  "
                    + "The array of ingress rules is applied to any pods selected by this field. Multiple network policies "
                    + "can select the same set of pods.  In this case, the ingress rules for each are combined additively. "
                    + "This field is NOT optional and follows standard label selector semantics. An empty podSelector "
                    + "matches all pods in this namespace.";

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Pod-Selector", POD_SELECTOR_DESCRIPTION),
                    ClusterCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return List.of(
                ClusterCells.name(object),
                ClusterCells.labelSelector(object.path("spec").path("podSelector")),
                Ages.of(object, now));
    }
}
