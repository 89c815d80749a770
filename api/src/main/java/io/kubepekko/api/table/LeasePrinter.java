package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** coordination.k8s.io Lease: Name, Holder, Age. */
public final class LeasePrinter implements TablePrinter {
    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "Holder",
                            "holderIdentity contains the identity of the holder of a current lease. If "
                                    + "Coordinated Leader Election is used, the holder identity must be equal to the elected "
                                    + "LeaseCandidate.metadata.name field."),
                    ClusterCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return List.of(
                ClusterCells.name(object),
                ClusterCells.text(object.path("spec").path("holderIdentity"), ""),
                Ages.of(object, now));
    }
}
