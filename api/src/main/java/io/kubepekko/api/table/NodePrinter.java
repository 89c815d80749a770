package io.kubepekko.api.table;

import static io.kubepekko.api.table.CoreCells.items;
import static io.kubepekko.api.table.CoreCells.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Nodes as {@code kubectl get nodes} shows them: readiness, schedulability, roles and what they
 * run.
 */
public final class NodePrinter implements TablePrinter {

    public static final NodePrinter INSTANCE = new NodePrinter();

    private static final String ROLE_LABEL_PREFIX = "node-role.kubernetes.io/";
    private static final String ROLE_LABEL = "kubernetes.io/role";

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Status", "The status of the node"),
                    Column.string("Roles", "The roles of the node"),
                    Column.string("Age", Descriptions.CREATION_TIMESTAMP),
                    Column.string("Version", CoreDescriptions.NODE_KUBELET_VERSION),
                    Column.string("Internal-IP", CoreDescriptions.NODE_ADDRESSES).wide(),
                    Column.string("External-IP", CoreDescriptions.NODE_ADDRESSES).wide(),
                    Column.string("OS-Image", CoreDescriptions.NODE_OS_IMAGE).wide(),
                    Column.string("Kernel-Version", CoreDescriptions.NODE_KERNEL_VERSION).wide(),
                    Column.string(
                                    "Container-Runtime",
                                    CoreDescriptions.NODE_CONTAINER_RUNTIME_VERSION)
                            .wide());

    private NodePrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode node, Instant now) {
        JsonNode status = node.path("status");
        JsonNode info = status.path("nodeInfo");
        String roles = String.join(",", roles(node.path("metadata").path("labels")));
        return List.of(
                text(node.path("metadata"), "name"),
                status(node),
                roles.isEmpty() ? CoreCells.NONE : roles,
                Ages.of(node, now),
                text(info, "kubeletVersion"),
                address(status, "InternalIP"),
                address(status, "ExternalIP"),
                orUnknown(text(info, "osImage")),
                orUnknown(text(info, "kernelVersion")),
                orUnknown(text(info, "containerRuntimeVersion")));
    }

    /** Ready, NotReady or Unknown (no Ready condition), then SchedulingDisabled when cordoned. */
    private static String status(JsonNode node) {
        List<String> words = new ArrayList<>();
        JsonNode ready = null;
        for (JsonNode condition : items(node.path("status"), "conditions")) {
            if (text(condition, "type").equals("Ready")) {
                ready = condition; // the last of a duplicated type wins, as in kube's map
            }
        }
        if (ready == null) {
            words.add("Unknown");
        } else {
            words.add(text(ready, "status").equals("True") ? "Ready" : "NotReady");
        }
        if (CoreCells.flag(node.path("spec"), "unschedulable")) {
            words.add("SchedulingDisabled");
        }
        return String.join(",", words);
    }

    /**
     * The roles from node-role.kubernetes.io/ROLE label keys and kubernetes.io/role=ROLE values,
     * sorted.
     */
    private static TreeSet<String> roles(JsonNode labels) {
        TreeSet<String> roles = new TreeSet<>();
        if (!labels.isObject()) {
            return roles;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.properties().iterator();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            String key = label.getKey();
            String value = label.getValue().isTextual() ? label.getValue().asText() : "";
            if (key.startsWith(ROLE_LABEL_PREFIX)) {
                String role = key.substring(ROLE_LABEL_PREFIX.length());
                if (!role.isEmpty()) {
                    roles.add(role);
                }
            } else if (key.equals(ROLE_LABEL) && !value.isEmpty()) {
                roles.add(value);
            }
        }
        return roles;
    }

    /** The first address of a type, or {@code <none>}. */
    private static String address(JsonNode status, String type) {
        for (JsonNode address : items(status, "addresses")) {
            if (text(address, "type").equals(type)) {
                return text(address, "address");
            }
        }
        return CoreCells.NONE;
    }

    private static String orUnknown(String s) {
        return s.isEmpty() ? CoreCells.UNKNOWN : s;
    }
}
