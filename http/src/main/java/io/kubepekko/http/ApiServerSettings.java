package io.kubepekko.http;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.kinds.ServiceNetwork;
import io.kubepekko.api.watch.FeatureGates;

import io.kubepekko.persistence.StorageSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How an API server runs, read once from its flags.
 *
 * @param dataDir            where the embedded database and {@code admin.kubeconfig} live
 * @param bindAddress        the address the HTTP listener binds
 * @param port               the plain-HTTP port; 0 picks a free one
 * @param livezGracePeriod   how long after start /livez treats unfinished start-up as passing
 * @param shutdownDelay      how long the server keeps serving, with /readyz failing, after a shutdown starts
 * @param reads              the list/watch flags
 * @param overrides          configuration layered over the server's own (tests tune timers with it)
 * @param services           where Service cluster IPs and node ports come from
 * @param storage            which storage profile holds the journal
 * @param cluster            how this server's actor system joins the Pekko Cluster
 */
public record ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                                Duration shutdownDelay, ReadFlags reads, Config overrides, ServiceRanges services,
                                StorageFlags storage, ClusterFlags cluster) {

    /** The actor system's name: Pekko refuses a member whose system name differs, so every node uses this one. */
    public static final String SYSTEM_NAME = "kubepekko";

    /**
     * The cluster-formation flags.
     *
     * @param seedNodes {@code --cluster-seed-nodes}: {@code host:port} remoting addresses of the seed nodes;
     *                  empty means this node forms a cluster of its own (joins itself)
     * @param port      {@code --cluster-port}: the artery port; 0 picks a free one (a seed needs a fixed one)
     * @param hostname  {@code --cluster-hostname}: the address other nodes reach this one at
     */
    public record ClusterFlags(List<String> seedNodes, int port, String hostname) {
        public static final ClusterFlags DEFAULT = new ClusterFlags(List.of(), 0, "127.0.0.1");

        public ClusterFlags {
            seedNodes = List.copyOf(seedNodes);
        }

        /** The remoting and seed-node configuration these flags give. */
        public Config toConfig() {
            List<String> seeds = seedNodes.stream().map(s -> "pekko://" + SYSTEM_NAME + "@" + s).toList();
            return ConfigFactory.parseMap(java.util.Map.of(
                    "pekko.remote.artery.canonical.hostname", hostname,
                    "pekko.remote.artery.canonical.port", port,
                    "pekko.cluster.seed-nodes", seeds));
        }
    }

    public ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                             Duration shutdownDelay, ReadFlags reads, Config overrides, ServiceRanges services,
                             StorageFlags storage) {
        this(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, services, storage,
                ClusterFlags.DEFAULT);
    }

    /**
     * The storage flags.
     *
     * @param profile                 {@code --storage}: embedded (the default) or cassandra
     * @param cassandraContactPoints  {@code --cassandra-contact-points}: {@code host:port} of Cassandra nodes
     * @param cassandraKeyspace       {@code --cassandra-keyspace}
     */
    public record StorageFlags(StorageSettings.Profile profile, List<String> cassandraContactPoints,
                               String cassandraKeyspace) {
        public static final StorageFlags DEFAULT = new StorageFlags(StorageSettings.Profile.EMBEDDED,
                List.of("127.0.0.1:9042"), "kubepekko");

        public StorageFlags {
            cassandraContactPoints = List.copyOf(cassandraContactPoints);
        }

        /** The cassandra profile on these contact points and keyspace. */
        public static StorageFlags cassandra(List<String> contactPoints, String keyspace) {
            return new StorageFlags(StorageSettings.Profile.CASSANDRA, contactPoints, keyspace);
        }
    }

    public ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                             Duration shutdownDelay, ReadFlags reads, Config overrides, ServiceRanges services) {
        this(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, services,
                StorageFlags.DEFAULT);
    }

    /** The storage profile these settings select (the embedded one keeps its database in {@link #dataDir}). */
    public StorageSettings storageSettings() {
        return switch (storage.profile()) {
            case EMBEDDED -> new StorageSettings.Embedded(dataDir);
            case CASSANDRA -> new StorageSettings.Cassandra(storage.cassandraContactPoints(), storage.cassandraKeyspace());
        };
    }

    /**
     * The Service ranges.
     *
     * @param clusterIpRange {@code --service-cluster-ip-range}, kube-apiserver's default 10.0.0.0/24
     * @param nodePortRange  {@code --service-node-port-range}, default 30000-32767
     */
    public record ServiceRanges(Ipv4Cidr clusterIpRange, PortRange nodePortRange) {
        public static final ServiceRanges DEFAULT = new ServiceRanges(ServiceNetwork.DEFAULT_CLUSTER_IP_RANGE,
                PortRange.DEFAULT_NODE_PORTS);
    }

    public ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                             Duration shutdownDelay, ReadFlags reads, Config overrides) {
        this(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, ServiceRanges.DEFAULT);
    }

    /**
     * The list/watch flags.
     *
     * @param watchCacheWindow      how long the watch cache keeps events in memory ({@code --watch-cache-window})
     * @param continueTokenTtl      how long a continue token stays valid ({@code --continue-token-ttl})
     * @param watchHistoryRetention how far back a watch may resume, from the journal when older than
     *                              the window ({@code --watch-history-retention})
     * @param featureGates          {@code --feature-gates}
     */
    public record ReadFlags(Duration watchCacheWindow, Duration continueTokenTtl, Duration watchHistoryRetention,
                            FeatureGates featureGates) {
        public static final ReadFlags DEFAULT = new ReadFlags(Duration.ofMinutes(5), Duration.ofMinutes(5),
                Duration.ofMinutes(5), FeatureGates.defaults());
    }

    public ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                             Duration shutdownDelay) {
        this(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, ReadFlags.DEFAULT, ConfigFactory.empty());
    }

    public static ApiServerSettings defaults() {
        return new ApiServerSettings(Path.of("data"), "127.0.0.1", 8080, Duration.ZERO, Duration.ZERO);
    }

    public ApiServerSettings withDataDir(Path dir) {
        return new ApiServerSettings(dir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, services, storage, cluster);
    }

    public ApiServerSettings withPort(int p) {
        return new ApiServerSettings(dataDir, bindAddress, p, livezGracePeriod, shutdownDelay, reads, overrides, services, storage, cluster);
    }

    public ApiServerSettings withReads(ReadFlags r) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, r, overrides, services, storage, cluster);
    }

    /** Layers {@code hocon} over the configuration (later calls win). */
    public ApiServerSettings withConfig(String hocon) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads,
                ConfigFactory.parseString(hocon).withFallback(overrides), services, storage, cluster);
    }

    public ApiServerSettings withServices(ServiceRanges s) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, s, storage, cluster);
    }

    public ApiServerSettings withStorage(StorageFlags s) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, services, s, cluster);
    }

    public ApiServerSettings withCluster(ClusterFlags c) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, services, storage, c);
    }
}
