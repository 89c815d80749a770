package io.kubepekko.api.table;

import static io.kubepekko.api.table.CoreCells.items;
import static io.kubepekko.api.table.CoreCells.orNone;
import static io.kubepekko.api.table.CoreCells.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * Pods as {@code kubectl get pods} shows them: readiness, the condensed status, restarts, and where
 * they run.
 */
public final class PodPrinter implements TablePrinter {

    public static final PodPrinter INSTANCE = new PodPrinter();

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "Ready",
                            "The aggregate readiness state of this pod for accepting traffic."),
                    Column.string("Status", "The aggregate status of the containers in this pod."),
                    Column.string(
                            "Restarts",
                            "The number of times the containers in this pod have been restarted and "
                                    + "when the last container in this pod has restarted."),
                    Column.string("Age", Descriptions.CREATION_TIMESTAMP),
                    Column.string("IP", CoreDescriptions.POD_IP).wide(),
                    Column.string("Node", CoreDescriptions.POD_NODE_NAME).wide(),
                    Column.string("Nominated Node", CoreDescriptions.POD_NOMINATED_NODE_NAME)
                            .wide(),
                    Column.string("Readiness Gates", CoreDescriptions.POD_READINESS_GATES).wide());

    private PodPrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<RowCondition> conditions(JsonNode pod) {
        // As kube's printer: a finished pod's row is Completed, with why.
        return switch (pod.path("status").path("phase").asText("")) {
            case "Succeeded" ->
                    List.of(
                            new RowCondition(
                                    "Completed",
                                    "True",
                                    "Succeeded",
                                    "The pod has completed successfully."));
            case "Failed" ->
                    List.of(new RowCondition("Completed", "True", "Failed", "The pod failed."));
            default -> List.of();
        };
    }

    @Override
    public List<Object> cells(JsonNode pod, Instant now) {
        CorePodSummary summary = CorePodSummary.of(pod);
        JsonNode spec = pod.path("spec");
        JsonNode status = pod.path("status");
        String restarts =
                summary.restarts() != 0 && summary.lastRestart() != null
                        ? summary.restarts()
                                + " ("
                                + CoreCells.since(summary.lastRestart(), now)
                                + " ago)"
                        : Long.toString(summary.restarts());
        return List.of(
                text(pod.path("metadata"), "name"),
                summary.ready() + "/" + summary.total(),
                summary.status(),
                restarts,
                Ages.of(pod, now),
                orNone(podIP(status)),
                orNone(text(spec, "nodeName")),
                orNone(text(status, "nominatedNodeName")),
                readinessGates(spec, status));
    }

    /** The primary IP: podIP wins over podIPs when both are set, as in kube's v1 conversion. */
    private static String podIP(JsonNode status) {
        String ip = text(status, "podIP");
        if (ip.isEmpty()) {
            List<JsonNode> ips = items(status, "podIPs");
            if (!ips.isEmpty()) {
                ip = text(ips.get(0), "ip");
            }
        }
        return ip;
    }

    /**
     * {@code true/total} over the readiness gates, each judged by the first condition of its type.
     */
    private static String readinessGates(JsonNode spec, JsonNode status) {
        List<JsonNode> gates = items(spec, "readinessGates");
        if (gates.isEmpty()) {
            return CoreCells.NONE;
        }
        List<JsonNode> conditions = items(status, "conditions");
        int satisfied = 0;
        for (JsonNode gate : gates) {
            String type = text(gate, "conditionType");
            for (JsonNode condition : conditions) {
                if (text(condition, "type").equals(type)) {
                    if (text(condition, "status").equals("True")) {
                        satisfied++;
                    }
                    break;
                }
            }
        }
        return satisfied + "/" + gates.size();
    }
}
