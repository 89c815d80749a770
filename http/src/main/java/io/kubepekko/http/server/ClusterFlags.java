package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster-formation flags the operator gave; a null one was not given, and the configuration
 * decides (the {@code --config} file's {@code pekko.cluster.seed-nodes} and {@code
 * pekko.remote.artery.canonical}, else the built-in: no seed nodes, port 0, 127.0.0.1).
 *
 * @param seedNodes {@code --cluster-seed-nodes}: {@code host:port} remoting addresses of the seed
 *     nodes; empty means this node forms a cluster of its own (joins itself)
 * @param port {@code --cluster-port}: the artery port; 0 picks a free one (a seed needs a fixed
 *     one)
 * @param hostname {@code --cluster-hostname}: the address other nodes reach this one at
 */
public record ClusterFlags(List<String> seedNodes, Integer port, String hostname) {
    private static final String HOSTNAME = "pekko.remote.artery.canonical.hostname";
    private static final String PORT = "pekko.remote.artery.canonical.port";

    /** No cluster flag given. */
    public static final ClusterFlags DEFAULT = new ClusterFlags(null, null, null);

    public ClusterFlags {
        seedNodes = seedNodes == null ? null : List.copyOf(seedNodes);
    }

    /** The remoting and seed-node configuration of the flags given. */
    public Config toConfig() {
        Map<String, Object> given = new LinkedHashMap<>();
        if (hostname != null) {
            given.put(HOSTNAME, hostname);
        }
        if (port != null) {
            given.put(PORT, port);
        }
        if (seedNodes != null) {
            given.put(
                    ApiServerSettings.SEED_NODES,
                    seedNodes.stream()
                            .map(s -> "pekko://" + ApiServerSettings.SYSTEM_NAME + "@" + s)
                            .toList());
        }
        return ConfigFactory.parseMap(given, "cluster flags");
    }
}
