package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** networking.k8s.io Ingress: Name, Class, Hosts, Address, Ports, Age. */
public final class IngressPrinter implements TablePrinter {
    /** Hosts beyond this many are summarised as {@code + N more...}. */
    private static final int MAX_HOSTS = 3;

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "Class",
                            "The name of the IngressClass resource that should be used for additional configuration"),
                    Column.string(
                            "Hosts",
                            "Hosts that incoming requests are matched against before the ingress rule"),
                    Column.string(
                            "Address",
                            "Address is a list containing ingress points for the load-balancer"),
                    Column.string("Ports", "Ports of TLS configurations that open"),
                    ClusterCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        return List.of(
                ClusterCells.name(object),
                ClusterCells.text(spec.path("ingressClassName"), "<none>"),
                hosts(spec.path("rules")),
                address(object.path("status").path("loadBalancer").path("ingress")),
                ports(spec.path("tls")),
                Ages.of(object, now));
    }

    /**
     * The rules' hosts, {@code *} when none names one. Kube counts the "more" from all rules after
     * the third host, hostless rules included, so the count can exceed the hosts left out.
     */
    static String hosts(JsonNode rules) {
        if (!rules.isArray()) {
            return "*";
        }
        List<String> hosts = new ArrayList<>();
        boolean more = false;
        for (JsonNode rule : rules) {
            if (hosts.size() == MAX_HOSTS) {
                more = true;
            }
            String host = ClusterCells.text(rule.path("host"), "");
            if (!more && !host.isEmpty()) {
                hosts.add(host);
            }
        }
        if (hosts.isEmpty()) {
            return "*";
        }
        String joined = String.join(",", hosts);
        return more ? joined + " + " + (rules.size() - MAX_HOSTS) + " more..." : joined;
    }

    /**
     * The load balancer's IPs (or hostnames where an entry has no IP), sorted and distinct. The API
     * server prints wide, so kube's 16-character clipping for narrow output never applies here.
     */
    static String address(JsonNode ingress) {
        TreeSet<String> points = new TreeSet<>();
        if (ingress.isArray()) {
            for (JsonNode point : ingress) {
                String ip = ClusterCells.text(point.path("ip"), "");
                String hostname = ClusterCells.text(point.path("hostname"), "");
                if (!ip.isEmpty()) {
                    points.add(ip);
                } else if (!hostname.isEmpty()) {
                    points.add(hostname);
                }
            }
        }
        return String.join(",", points);
    }

    /** Kube infers the ports from TLS alone: 80 always, 443 too when any TLS entry exists. */
    static String ports(JsonNode tls) {
        return tls.isArray() && !tls.isEmpty() ? "80, 443" : "80";
    }
}
