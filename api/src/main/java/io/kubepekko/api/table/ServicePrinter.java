package io.kubepekko.api.table;

import static io.kubepekko.api.table.CoreCells.integer;
import static io.kubepekko.api.table.CoreCells.items;
import static io.kubepekko.api.table.CoreCells.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Services as {@code kubectl get services} shows them: type, addresses, ports and selector. */
public final class ServicePrinter implements TablePrinter {

    public static final ServicePrinter INSTANCE = new ServicePrinter();

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Type", CoreDescriptions.SERVICE_TYPE),
                    Column.string("Cluster-IP", CoreDescriptions.SERVICE_CLUSTER_IP),
                    Column.string("External-IP", CoreDescriptions.SERVICE_EXTERNAL_IPS),
                    Column.string("Port(s)", CoreDescriptions.SERVICE_PORTS),
                    Column.string("Age", Descriptions.CREATION_TIMESTAMP),
                    Column.string("Selector", CoreDescriptions.SERVICE_SELECTOR).wide());

    private ServicePrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode service, Instant now) {
        JsonNode spec = service.path("spec");
        String ports = ports(spec);
        return List.of(
                text(service.path("metadata"), "name"),
                text(spec, "type"),
                clusterIP(spec),
                externalIP(service),
                ports.isEmpty() ? CoreCells.NONE : ports,
                Ages.of(service, now),
                CoreCells.labels(spec.get("selector")));
    }

    /** The primary cluster IP; clusterIP stands in while clusterIPs is not filled. */
    private static String clusterIP(JsonNode spec) {
        List<JsonNode> ips = items(spec, "clusterIPs");
        if (!ips.isEmpty()) {
            return ips.get(0).isTextual() ? ips.get(0).asText() : "";
        }
        return CoreCells.orNone(text(spec, "clusterIP"));
    }

    private static String externalIP(JsonNode service) {
        JsonNode spec = service.path("spec");
        List<String> externalIPs = new ArrayList<>();
        for (JsonNode ip : items(spec, "externalIPs")) {
            externalIPs.add(ip.isTextual() ? ip.asText() : "");
        }
        switch (text(spec, "type")) {
            case "ClusterIP":
            case "NodePort":
                return externalIPs.isEmpty() ? CoreCells.NONE : String.join(",", externalIPs);
            case "LoadBalancer":
                List<String> all = new ArrayList<>(loadBalancerIngress(service.path("status")));
                all.addAll(externalIPs);
                // The server always prints wide, so the ingress list is never clipped.
                return all.isEmpty() ? "<pending>" : String.join(",", all);
            case "ExternalName":
                return text(spec, "externalName");
            default:
                return CoreCells.UNKNOWN;
        }
    }

    /**
     * The load balancer's ingress points, each its IP or else its hostname, distinct and sorted.
     */
    private static TreeSet<String> loadBalancerIngress(JsonNode status) {
        TreeSet<String> points = new TreeSet<>();
        for (JsonNode ingress : items(status.path("loadBalancer"), "ingress")) {
            if (!text(ingress, "ip").isEmpty()) {
                points.add(text(ingress, "ip"));
            } else if (!text(ingress, "hostname").isEmpty()) {
                points.add(text(ingress, "hostname"));
            }
        }
        return points;
    }

    /** {@code port/protocol}, or {@code port:nodePort/protocol} where a node port is allocated. */
    private static String ports(JsonNode spec) {
        List<String> pieces = new ArrayList<>();
        for (JsonNode port : items(spec, "ports")) {
            long nodePort = integer(port, "nodePort");
            pieces.add(
                    integer(port, "port")
                            + (nodePort > 0 ? ":" + nodePort : "")
                            + "/"
                            + text(port, "protocol"));
        }
        return String.join(",", pieces);
    }
}
