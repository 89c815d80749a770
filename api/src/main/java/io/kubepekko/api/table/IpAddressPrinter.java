package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * networking.k8s.io IPAddress: Name and ParentRef ({@code <resource>.<group>/[<namespace>/]<name>},
 * {@code <none>} without one). kube's printer also appends the age to each row although it declares
 * only those two columns; the rows here carry the same three cells.
 */
public final class IpAddressPrinter implements TablePrinter {

    public static final IpAddressPrinter INSTANCE = new IpAddressPrinter();

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "ParentRef",
                            "parentRef references the resource that an IPAddress is attached to. An IPAddress"
                                    + " must reference a parent object."));

    private IpAddressPrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return List.of(ClusterCells.name(object), parentRef(object), Ages.of(object, now));
    }

    private static String parentRef(JsonNode object) {
        JsonNode ref = object.path("spec").get("parentRef");
        if (ref == null || !ref.isObject()) {
            return "<none>";
        }
        String group = ref.path("group").asText("");
        String resource = ref.path("resource").asText("");
        // schema.GroupResource.String(): the resource alone for the core group.
        String out = (group.isEmpty() ? resource : resource + "." + group).toLowerCase(Locale.ROOT);
        String namespace = ref.path("namespace").asText("");
        if (!namespace.isEmpty()) {
            out += "/" + namespace;
        }
        return out + "/" + ref.path("name").asText("");
    }
}
