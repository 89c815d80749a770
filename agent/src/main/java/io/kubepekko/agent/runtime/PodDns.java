package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.DNSConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A pod's resolver configuration as pkg/kubelet/network/dns {@code GetPodDNS} computes it: {@code
 * None} → only {@code spec.dnsConfig}; {@code ClusterFirst} (or {@code ClusterFirstWithHostNet}) →
 * the cluster DNS servers, {@code <ns>.svc.<domain> svc.<domain> <domain>} before the host's
 * searches and {@code ndots:5}; {@code Default} and host-network {@code ClusterFirst} → the host's
 * resolv.conf. Without cluster DNS, {@code ClusterFirst} falls back to the host's configuration and
 * the kubelet records a {@code MissingClusterDNS} warning ({@link #warning}). Searches are capped
 * at 32 and servers at 3 ({@code formDNSConfigFitsLimits}).
 */
public final class PodDns {
    private PodDns() {}

    static final int MAX_SEARCHES = 32;
    static final int MAX_SEARCH_CHARS = 2048;
    static final int MAX_SERVERS = 3;

    /** The config, and the warning the kubelet would record when falling back (empty when none). */
    public record Result(DNSConfig config, String warning) {}

    public static Result of(JsonNode pod, NodeContext node) {
        String policy = Json.text(pod, "spec", "dnsPolicy");
        boolean hostNetwork = Json.bool(pod, "spec", "hostNetwork");
        String type =
                switch (policy) {
                    case "None" -> "none";
                    case "ClusterFirstWithHostNet" -> "cluster";
                    case "Default" -> "host";
                    default -> hostNetwork ? "host" : "cluster"; // ClusterFirst, the API's default
                };
        List<String> servers = new ArrayList<>(node.hostResolvConf().servers());
        List<String> searches = new ArrayList<>(node.hostResolvConf().searches());
        List<String> options = new ArrayList<>(node.hostResolvConf().options());
        String warning = "";
        if (type.equals("none")) {
            servers.clear();
            searches.clear();
            options.clear();
        } else if (type.equals("cluster")) {
            if (!node.clusterDns().isEmpty()) {
                servers = new ArrayList<>(node.clusterDns());
                searches =
                        clusterSearches(
                                searches,
                                Json.text(pod, "metadata", "namespace"),
                                node.clusterDomain());
                options = new ArrayList<>(List.of("ndots:5"));
            } else {
                warning =
                        "pod: \""
                                + Json.text(pod, "metadata", "name")
                                + "_"
                                + Json.text(pod, "metadata", "namespace")
                                + "("
                                + Json.text(pod, "metadata", "uid")
                                + ")\". kubelet does not have ClusterDNS IP configured and "
                                + "cannot create Pod using \"ClusterFirst\" policy. Falling back to \"Default\" policy.";
            }
        }
        JsonNode extra = Json.at(pod, "spec", "dnsConfig");
        if (extra.isObject()) {
            servers = distinct(servers, Json.strings(extra, "nameservers"));
            searches = distinct(searches, Json.strings(extra, "searches"));
            options = mergeOptions(options, Json.items(extra, "options"));
        }
        if (searches.size() > MAX_SEARCHES) {
            searches = new ArrayList<>(searches.subList(0, MAX_SEARCHES));
        }
        while (String.join(" ", searches).length() > MAX_SEARCH_CHARS && !searches.isEmpty()) {
            searches.remove(searches.size() - 1);
        }
        if (servers.size() > MAX_SERVERS) {
            servers = new ArrayList<>(servers.subList(0, MAX_SERVERS));
        }
        return new Result(
                DNSConfig.newBuilder()
                        .addAllServers(servers)
                        .addAllSearches(searches)
                        .addAllOptions(options)
                        .build(),
                warning);
    }

    private static List<String> clusterSearches(
            List<String> hostSearches, String ns, String domain) {
        if (domain.isEmpty()) {
            return hostSearches;
        }
        return distinct(List.of(ns + ".svc." + domain, "svc." + domain, domain), hostSearches);
    }

    private static List<String> distinct(List<String> a, List<String> b) {
        LinkedHashSet<String> out = new LinkedHashSet<>(a);
        out.addAll(b);
        return new ArrayList<>(out);
    }

    /** {@code mergeDNSOptions}: options keyed by name, a later value replacing an earlier one. */
    private static List<String> mergeOptions(List<String> existing, List<JsonNode> extra) {
        Map<String, String> byName = new LinkedHashMap<>();
        for (String o : existing) {
            int colon = o.indexOf(':');
            byName.put(
                    colon < 0 ? o : o.substring(0, colon),
                    colon < 0 ? null : o.substring(colon + 1));
        }
        for (JsonNode o : extra) {
            byName.put(
                    Json.text(o, "name"), o.hasNonNull("value") ? o.get("value").asText() : null);
        }
        List<String> out = new ArrayList<>();
        byName.forEach((k, v) -> out.add(v == null ? k : k + ":" + v));
        return out;
    }
}
