package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.kinds.ServiceNetwork;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.http.audit.AuditSettings;
import io.kubepekko.http.security.SecureServing;
import io.kubepekko.persistence.StorageSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an API server runs, read once from its flags.
 *
 * @param dataDir where the embedded database and {@code admin.kubeconfig} live
 * @param bindAddress the address the HTTPS listener binds
 * @param port the HTTPS port ({@code --secure-port}); 0 picks a free one
 * @param livezGracePeriod how long after start /livez treats unfinished start-up as passing
 * @param shutdownDelay how long the server keeps serving, with /readyz failing, after a shutdown
 *     starts
 * @param reads the list/watch flags
 * @param overrides configuration layered over the server's own, under the flags given: the {@code
 *     --config} file, and tests' tuning (see {@link #resolve()})
 * @param services where Service cluster IPs and node ports come from
 * @param storage which storage profile holds the journal
 * @param cluster how this server's actor system joins the Pekko Cluster
 * @param secure the listener's TLS and who may do what through it (the TLS, authentication and
 *     authorization flags)
 * @param audit what is audited and where the log goes ({@code --audit-*})
 */
public record ApiServerSettings(
        Path dataDir,
        String bindAddress,
        int port,
        Duration livezGracePeriod,
        Duration shutdownDelay,
        ReadFlags reads,
        Config overrides,
        ServiceRanges services,
        StorageFlags storage,
        ClusterFlags cluster,
        SecureServing secure,
        AuditSettings audit) {

    /**
     * The actor system's name: Pekko refuses a member whose system name differs, so every node uses
     * this one.
     */
    public static final String SYSTEM_NAME = "kubepekko";

    /**
     * The cluster-formation flags the operator gave; a null one was not given, and the
     * configuration decides (the {@code --config} file's {@code pekko.cluster.seed-nodes} and
     * {@code pekko.remote.artery.canonical}, else the built-in: no seed nodes, port 0, 127.0.0.1).
     *
     * @param seedNodes {@code --cluster-seed-nodes}: {@code host:port} remoting addresses of the
     *     seed nodes; empty means this node forms a cluster of its own (joins itself)
     * @param port {@code --cluster-port}: the artery port; 0 picks a free one (a seed needs a fixed
     *     one)
     * @param hostname {@code --cluster-hostname}: the address other nodes reach this one at
     */
    public record ClusterFlags(List<String> seedNodes, Integer port, String hostname) {
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
                        SEED_NODES,
                        seedNodes.stream().map(s -> "pekko://" + SYSTEM_NAME + "@" + s).toList());
            }
            return ConfigFactory.parseMap(given, "cluster flags");
        }
    }

    static final String SEED_NODES = "pekko.cluster.seed-nodes";

    /** How a problem of the layered configuration (rather than of one flag) starts. */
    static final String INVALID = "invalid configuration: ";

    private static final String HOSTNAME = "pekko.remote.artery.canonical.hostname";
    private static final String PORT = "pekko.remote.artery.canonical.port";

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides,
            ServiceRanges services,
            StorageFlags storage,
            ClusterFlags cluster) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                SecureServing.generated(),
                AuditSettings.DISABLED);
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides,
            ServiceRanges services,
            StorageFlags storage) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                ClusterFlags.DEFAULT);
    }

    /**
     * The storage flags the operator gave; a null one was not given, and the configuration decides
     * ({@code kubepekko.storage.profile}, {@code kubepekko.storage.cassandra.contact-points} and
     * {@code .keyspace}: by default embedded, 127.0.0.1:9042, kubepekko).
     *
     * @param profile {@code --storage}: embedded or cassandra
     * @param cassandraContactPoints {@code --cassandra-contact-points}: {@code host:port} of
     *     Cassandra nodes
     * @param cassandraKeyspace {@code --cassandra-keyspace}
     * @param quotaBytes {@code --storage-quota-bytes}: the storage quota; 0 for the default (a
     *     share of the heap, see {@link #QUOTA_BYTES})
     */
    public record StorageFlags(
            StorageSettings.Profile profile,
            List<String> cassandraContactPoints,
            String cassandraKeyspace,
            Long quotaBytes) {
        /** No storage flag given. */
        public static final StorageFlags DEFAULT = new StorageFlags(null, null, null, null);

        /**
         * The setting {@code --storage-quota-bytes} sets (reference.conf says how its default is
         * derived).
         */
        public static final String QUOTA_BYTES = "kubepekko.storage.quota-bytes";

        public StorageFlags {
            cassandraContactPoints =
                    cassandraContactPoints == null ? null : List.copyOf(cassandraContactPoints);
        }

        public StorageFlags(
                StorageSettings.Profile profile,
                List<String> cassandraContactPoints,
                String cassandraKeyspace) {
            this(profile, cassandraContactPoints, cassandraKeyspace, null);
        }

        public StorageFlags withQuotaBytes(Long bytes) {
            return new StorageFlags(profile, cassandraContactPoints, cassandraKeyspace, bytes);
        }

        /** The cassandra profile on these contact points and keyspace. */
        public static StorageFlags cassandra(List<String> contactPoints, String keyspace) {
            return new StorageFlags(
                    StorageSettings.Profile.CASSANDRA, contactPoints, keyspace, null);
        }

        /** The storage configuration of the flags given. */
        public Config toConfig() {
            Map<String, Object> given = new LinkedHashMap<>();
            if (profile != null) {
                given.put(StorageSettings.PROFILE, profile.flagValue());
            }
            if (cassandraContactPoints != null) {
                given.put(StorageSettings.CASSANDRA_CONTACT_POINTS, cassandraContactPoints);
            }
            if (cassandraKeyspace != null) {
                given.put(StorageSettings.CASSANDRA_KEYSPACE, cassandraKeyspace);
            }
            if (quotaBytes != null) {
                given.put(QUOTA_BYTES, quotaBytes);
            }
            return ConfigFactory.parseMap(given, "storage flags");
        }
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides,
            ServiceRanges services) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                StorageFlags.DEFAULT);
    }

    /**
     * The storage profile these settings select (the embedded one keeps its database in {@link
     * #dataDir}).
     */
    public StorageSettings storageSettings() {
        return resolve().storage();
    }

    /**
     * What the settings add up to: the actor system's configuration and the storage profile it
     * selects.
     *
     * @param config the resolved configuration
     * @param storage the storage profile
     * @param seedNodes the seed nodes' addresses ({@code pekko://kubepekko@host:port}); empty: this
     *     node forms a cluster of its own
     */
    public record Resolved(Config config, StorageSettings storage, List<String> seedNodes) {}

    /**
     * Layers the configuration, highest first: the flags given ({@link #cluster}, {@link
     * #storage}), the {@link #overrides} (the {@code --config} file, tests' tuning), the built-in
     * {@code kubepekko-server.conf} with the selected storage profile's wiring, then the modules'
     * {@code reference.conf}. A flag left at its default sets nothing, so a file's storage profile
     * or seed nodes hold unless a flag says otherwise. Java system properties ({@code -D}) beat
     * every layer, as Typesafe Config loads them.
     *
     * @throws IllegalArgumentException when the layers together make no valid server: a storage
     *     profile that is not one, or seed nodes on the embedded profile (the message names the
     *     flag or the setting and where it was set); {@link com.typesafe.config.ConfigException}
     *     when a file's value has the wrong type or a substitution is left unresolved
     */
    public Resolved resolve() {
        return ConfigLayering.resolve(this);
    }

    /**
     * The Service ranges.
     *
     * @param clusterIpRange {@code --service-cluster-ip-range}, kube-apiserver's default
     *     10.0.0.0/24
     * @param nodePortRange {@code --service-node-port-range}, default 30000-32767
     */
    public record ServiceRanges(Ipv4Cidr clusterIpRange, PortRange nodePortRange) {
        public static final ServiceRanges DEFAULT =
                new ServiceRanges(
                        ServiceNetwork.DEFAULT_CLUSTER_IP_RANGE, PortRange.DEFAULT_NODE_PORTS);
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay,
            ReadFlags reads,
            Config overrides) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                ServiceRanges.DEFAULT);
    }

    /**
     * The list/watch flags.
     *
     * @param watchCacheWindow how long the watch cache keeps events in memory ({@code
     *     --watch-cache-window})
     * @param continueTokenTtl how long a continue token stays valid ({@code --continue-token-ttl})
     * @param watchHistoryRetention how far back a watch may resume, from the journal when older
     *     than the window ({@code --watch-history-retention})
     * @param featureGates {@code --feature-gates}
     */
    public record ReadFlags(
            Duration watchCacheWindow,
            Duration continueTokenTtl,
            Duration watchHistoryRetention,
            FeatureGates featureGates) {
        public static final ReadFlags DEFAULT =
                new ReadFlags(
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(5),
                        Duration.ofMinutes(5),
                        FeatureGates.defaults());
    }

    public ApiServerSettings(
            Path dataDir,
            String bindAddress,
            int port,
            Duration livezGracePeriod,
            Duration shutdownDelay) {
        this(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                ReadFlags.DEFAULT,
                ConfigFactory.empty());
    }

    public static ApiServerSettings defaults() {
        return new ApiServerSettings(
                Path.of("data"), "127.0.0.1", 8080, Duration.ZERO, Duration.ZERO);
    }

    public ApiServerSettings withDataDir(Path dir) {
        return new ApiServerSettings(
                dir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit);
    }

    public ApiServerSettings withPort(int p) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                p,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit);
    }

    public ApiServerSettings withReads(ReadFlags r) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                r,
                overrides,
                services,
                storage,
                cluster,
                secure,
                audit);
    }

    /** Layers {@code hocon} over the configuration (later calls win). */
    public ApiServerSettings withConfig(String hocon) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                ConfigFactory.parseString(hocon).withFallback(overrides),
                services,
                storage,
                cluster,
                secure,
                audit);
    }

    public ApiServerSettings withServices(ServiceRanges s) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                s,
                storage,
                cluster,
                secure,
                audit);
    }

    public ApiServerSettings withStorage(StorageFlags s) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                s,
                cluster,
                secure,
                audit);
    }

    /** Serves HTTPS and checks access as {@code s} says. */
    public ApiServerSettings withSecure(SecureServing s) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                s,
                audit);
    }

    /** Audits requests as {@code a} says ({@link AuditSettings#DISABLED}: nothing). */
    public ApiServerSettings withAudit(AuditSettings a) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                cluster,
                secure,
                a);
    }

    public ApiServerSettings withCluster(ClusterFlags c) {
        return new ApiServerSettings(
                dataDir,
                bindAddress,
                port,
                livezGracePeriod,
                shutdownDelay,
                reads,
                overrides,
                services,
                storage,
                c,
                secure,
                audit);
    }
}
