package io.kubepekko.http;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * Command-line flags of the API server, named as kube-apiserver names them. Accepts {@code --flag value}
 * and {@code --flag=value}.
 */
final class ApiServerFlags {
    private ApiServerFlags() {}

    /** A flag problem: the message is printed as one line and the process exits 2. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /** The outcome of parsing: settings to run with, or help/version to print. */
    record Parsed(ApiServerSettings settings, boolean help, boolean version) {}

    static final String USAGE = """
            Usage: apiserver [flags]

            Starts a Kubernetes-compatible API server.

            Flags:
              --data-dir string                   directory for the database and admin.kubeconfig (default "./data")
              --bind-address string               address to listen on (default "127.0.0.1")
              --port int                          plain HTTP port; 0 picks a free port (default 8080)
              --livez-grace-period duration       time after start during which /livez ignores unfinished start-up (default 0s)
              --shutdown-delay-duration duration  time to keep serving, with /readyz failing, after a shutdown signal (default 0s)
              --watch-cache-window duration       how long the watch cache keeps events in memory (default 5m0s)
              --watch-history-retention duration  how far back a watch may resume, read from the journal beyond the
                                                  cache window (default 5m0s)
              --continue-token-ttl duration       how long a list continue token stays valid (default 5m0s)
              --feature-gates mapStringBool       comma list of key=value pairs for the gates APIListChunking,
                                                  EfficientWatchResumption, RemainingItemCount, RemoveSelfLink
                                                  (all beta, default true), AllBeta, AllAlpha
              --service-cluster-ip-range string   IPv4 CIDR range from which Service cluster IPs are assigned; its
                                                  first address is kept for the kubernetes Service (default "10.0.0.0/24")
              --service-node-port-range portRange where NodePort and LoadBalancer Services get node ports:
                                                  low-high, low+offset or one port, both ends included
                                                  (default 30000-32767)
              --storage string                    where the journal lives: embedded (an H2 database in --data-dir)
                                                  or cassandra (default "embedded")
              --cassandra-contact-points strings  comma list of host:port of Cassandra nodes, for --storage=cassandra
                                                  (default "127.0.0.1:9042")
              --cassandra-keyspace string         the keyspace of the journal and snapshots, for --storage=cassandra
                                                  (default "kubepekko")
              --storage-max-object-bytes int      the largest object a write may leave stored, in bytes of its JSON;
                                                  larger ones answer etcd's "request is too large" (default 1572864,
                                                  etcd's --max-request-bytes)
              --storage-quota-bytes int           the most bytes the stored objects may take (their JSON, counted
                                                  over the whole cluster); writes that would add more are refused
                                                  with 507 "database space exceeded". 0: 30% of the JVM's maximum
                                                  heap (-Xmx), which a server filled to it restarts in (default 0)
              --cluster-seed-nodes strings        comma list of host:port Pekko remoting addresses of the seed nodes to join;
                                                  empty: this server forms a cluster of its own (default ""). Needs
                                                  --storage=cassandra: every node of a cluster shares one journal
              --cluster-port int                  the Pekko remoting (artery) port; 0 picks a free one, a seed node
                                                  needs a fixed one (default 0)
              --cluster-hostname string           the address other cluster nodes reach this one at (default "127.0.0.1")
              --config string                     a HOCON configuration file (e.g. cluster-config/profiles/seed-nodes.conf)
                                                  layered under the flags given and over the built-in configuration;
                                                  it may select the storage profile and the seed nodes (default none;
                                                  -Dconfig.file=FILE names it too, but not together with --config)
              -h, --help                          print this help and exit
                  --version                       print the version and exit
            """;

    /** The configuration key {@code --storage-max-object-bytes} sets (see reference.conf). */
    static final String MAX_OBJECT_BYTES = "kubepekko.storage.max-object-bytes";

    static Parsed parse(String[] args) throws UsageException {
        return parse(args, System.getProperties());
    }

    /** Parses {@code args}; {@code systemProperties} may name the configuration file ({@code config.file}). */
    static Parsed parse(String[] args, Properties systemProperties) throws UsageException {
        ApiServerSettings d = ApiServerSettings.defaults();
        Path dataDir = d.dataDir();
        String bind = d.bindAddress();
        int port = d.port();
        Duration grace = d.livezGracePeriod();
        Duration delay = d.shutdownDelay();
        ApiServerSettings.ReadFlags reads = d.reads();
        Duration window = reads.watchCacheWindow();
        Duration ttl = reads.continueTokenTtl();
        Duration retention = reads.watchHistoryRetention();
        io.kubepekko.api.watch.FeatureGates gates = reads.featureGates();
        ApiServerSettings.ServiceRanges services = d.services();
        ApiServerSettings.StorageFlags storage = d.storage();
        ApiServerSettings.ClusterFlags cluster = d.cluster();
        Config file = null;
        Long maxObjectBytes = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                return new Parsed(null, true, false);
            }
            if (arg.equals("--version")) {
                return new Parsed(null, false, true);
            }
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument \"" + arg + "\"");
            }
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (!java.util.Set.of("--data-dir", "--bind-address", "--port", "--livez-grace-period",
                    "--shutdown-delay-duration", "--watch-cache-window", "--watch-history-retention",
                    "--continue-token-ttl", "--feature-gates", "--service-cluster-ip-range",
                    "--service-node-port-range", "--storage", "--cassandra-contact-points",
                    "--cassandra-keyspace", "--storage-quota-bytes", "--cluster-seed-nodes", "--cluster-port",
                    "--cluster-hostname", "--config", "--storage-max-object-bytes").contains(name)) {
                throw new UsageException("unknown flag: " + name);
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException("flag needs an argument: " + name);
                }
                value = args[++i];
            }
            switch (name) {
                case "--data-dir" -> {
                    if (value.isEmpty()) {
                        throw new UsageException("invalid argument \"\" for \"--data-dir\" flag: must not be empty");
                    }
                    dataDir = Path.of(value);
                }
                case "--bind-address" -> bind = address(value);
                case "--port" -> port = port(name, value);
                case "--livez-grace-period" -> grace = duration(name, value);
                case "--watch-cache-window" -> window = positive(name, value);
                case "--watch-history-retention" -> retention = positive(name, value);
                case "--continue-token-ttl" -> ttl = positive(name, value);
                case "--feature-gates" -> gates = featureGates(value);
                case "--service-cluster-ip-range" ->
                        services = new ApiServerSettings.ServiceRanges(clusterIpRange(value), services.nodePortRange());
                case "--service-node-port-range" ->
                        services = new ApiServerSettings.ServiceRanges(services.clusterIpRange(), nodePortRange(value));
                case "--storage" -> storage = new ApiServerSettings.StorageFlags(profile(value),
                        storage.cassandraContactPoints(), storage.cassandraKeyspace(), storage.quotaBytes());
                case "--cassandra-contact-points" -> storage = new ApiServerSettings.StorageFlags(storage.profile(),
                        contactPoints(value), storage.cassandraKeyspace(), storage.quotaBytes());
                case "--cassandra-keyspace" -> storage = new ApiServerSettings.StorageFlags(storage.profile(),
                        storage.cassandraContactPoints(), keyspace(value), storage.quotaBytes());
                case "--storage-quota-bytes" -> storage = storage.withQuotaBytes(quotaBytes(value));
                case "--cluster-seed-nodes" -> cluster = new ApiServerSettings.ClusterFlags(
                        value.isBlank() ? java.util.List.of() : hostPorts(name, value), cluster.port(), cluster.hostname());
                case "--cluster-port" -> cluster = new ApiServerSettings.ClusterFlags(cluster.seedNodes(),
                        port(name, value), cluster.hostname());
                case "--cluster-hostname" -> cluster = new ApiServerSettings.ClusterFlags(cluster.seedNodes(),
                        cluster.port(), hostname(value));
                case "--config" -> file = configFile("invalid argument \"" + value + "\" for \"--config\" flag: ", value);
                case "--storage-max-object-bytes" -> maxObjectBytes = positiveBytes(name, value);
                default -> delay = duration(name, value);
            }
        }
        file = fileFromSystemProperties(file, systemProperties);
        if (maxObjectBytes != null) {
            // Over the configuration file, as every flag is.
            Config flag = ConfigFactory.parseMap(java.util.Map.of(MAX_OBJECT_BYTES, maxObjectBytes), "flags");
            file = file == null ? flag : flag.withFallback(file);
        }
        if (retention.compareTo(window) < 0) {
            retention = window; // the window is always resumable; the retention only reaches further back
        }
        ApiServerSettings settings = new ApiServerSettings(dataDir, bind, port, grace, delay,
                new ApiServerSettings.ReadFlags(window, ttl, retention, gates),
                file == null ? ConfigFactory.empty() : file, services, storage, cluster);
        try {
            settings.resolve(); // the flags and the file together: a file may select the profile and the seeds
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (ConfigException e) {
            throw new UsageException(ApiServerSettings.INVALID + oneLine(e.getMessage()));
        }
        return new Parsed(settings, false, false);
    }

    /**
     * {@code -Dconfig.file} names the configuration file as {@code --config} does (Typesafe Config's own
     * property, which the server's layered configuration would otherwise ignore); both at once, or the
     * resource and URL forms, are refused rather than one silently ignored.
     */
    private static Config fileFromSystemProperties(Config flag,
                                                                        Properties properties)
            throws UsageException {
        for (String unsupported : java.util.List.of("config.resource", "config.url")) {
            if (properties.getProperty(unsupported) != null) {
                throw new UsageException("-D" + unsupported + " is not supported: name the file with --config");
            }
        }
        String path = properties.getProperty("config.file");
        if (path == null) {
            return flag;
        }
        if (flag != null) {
            throw new UsageException("--config and -Dconfig.file both name a configuration file: give one");
        }
        return configFile("invalid value \"" + path + "\" for -Dconfig.file: ", path);
    }

    /** The operator's HOCON file, parsed (its includes relative to it); resolved later, over the rest. */
    private static Config configFile(String problem, String value) throws UsageException {
        Path path = Path.of(value);
        if (!Files.isRegularFile(path)) {
            throw new UsageException(problem + (Files.exists(path) ? "not a file" : "no such file"));
        }
        try {
            return ConfigFactory.parseFile(path.toFile(),
                    ConfigParseOptions.defaults().setAllowMissing(false));
        } catch (ConfigException e) {
            throw new UsageException(problem + oneLine(e.getMessage()));
        }
    }

    private static String oneLine(String message) {
        return message.replaceAll("\\s*\\R\\s*", " ");
    }

    private static io.kubepekko.persistence.StorageSettings.Profile profile(String value) throws UsageException {
        return io.kubepekko.persistence.StorageSettings.Profile.named(value).orElseThrow(() -> new UsageException(
                "invalid argument \"" + value + "\" for \"--storage\" flag: must be embedded or cassandra"));
    }

    /** A byte count, as etcd's {@code --quota-backend-bytes} takes it (0: the default). */
    private static long quotaBytes(String value) throws UsageException {
        try {
            long bytes = Long.parseLong(value);
            if (bytes < 0) {
                throw new NumberFormatException();
            }
            return bytes;
        } catch (NumberFormatException e) {
            throw new UsageException("invalid argument \"" + value + "\" for \"--storage-quota-bytes\" flag: "
                    + "must be a number of bytes, 0 or more");
        }
    }

    private static java.util.List<String> contactPoints(String value) throws UsageException {
        return hostPorts("--cassandra-contact-points", value);
    }

    /** {@code host:port[,host:port...]}; an IPv6 host in brackets ({@code [::1]:9042}). */
    private static java.util.List<String> hostPorts(String flag, String value) throws UsageException {
        java.util.List<String> points = new java.util.ArrayList<>();
        for (String raw : value.split(",", -1)) {
            String point = raw.trim();
            int colon = point.lastIndexOf(':');
            String host = colon > 0 ? point.substring(0, colon) : "";
            boolean portOk = colon > 0 && point.substring(colon + 1).matches("[0-9]{1,5}")
                    && Integer.parseInt(point.substring(colon + 1)) >= 1 && Integer.parseInt(point.substring(colon + 1)) <= 65535;
            boolean hostOk = !host.isEmpty() && (host.matches("\\[[0-9a-fA-F:.]+]") || host.matches("[A-Za-z0-9.-]+"));
            if (!portOk || !hostOk) {
                throw new UsageException("invalid argument \"" + value + "\" for \"" + flag + "\" flag: \""
                        + point + "\" is not host:port");
            }
            points.add(point);
        }
        return points;
    }

    /** Cassandra's own rule for keyspace names (the plugin checks the same). */
    private static String keyspace(String value) throws UsageException {
        if (!value.matches("[a-zA-Z][a-zA-Z0-9_]{0,47}")) {
            throw new UsageException("invalid argument \"" + value + "\" for \"--cassandra-keyspace\" flag: "
                    + "must be a letter followed by at most 47 letters, digits or underscores");
        }
        return value;
    }

    /**
     * One IPv4 CIDR. kube-apiserver's own refusal of a malformed value is kept; IPv6 and a second
     * (dual-stack) range, which kube-apiserver accepts, are refused as not supported here.
     */
    private static io.kubepekko.api.alloc.Ipv4Cidr clusterIpRange(String value) throws UsageException {
        String flag = "invalid argument \"" + value + "\" for \"--service-cluster-ip-range\" flag: ";
        if (value.contains(",")) {
            throw new UsageException(flag + "dual-stack service CIDRs are not supported, give one IPv4 range");
        }
        if (value.contains(":")) {
            throw new UsageException(flag + "IPv6 service CIDRs are not supported, give an IPv4 range");
        }
        try {
            return io.kubepekko.api.alloc.Ipv4Cidr.parse(value.trim());
        } catch (IllegalArgumentException e) {
            throw new UsageException(flag + "service-cluster-ip-range[0] is not a valid cidr");
        }
    }

    private static io.kubepekko.api.alloc.PortRange nodePortRange(String value) throws UsageException {
        try {
            return io.kubepekko.api.alloc.PortRange.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid argument \"" + value + "\" for \"--service-node-port-range\" flag: "
                    + e.getMessage());
        }
    }

    private static String address(String value) throws UsageException {
        if (!value.matches("[0-9.]+|[0-9a-fA-F:]+") || value.isEmpty()) {
            throw new UsageException("invalid argument \"" + value + "\" for \"--bind-address\" flag: not an IP address");
        }
        try {
            java.net.InetAddress.getByName(value);
        } catch (java.net.UnknownHostException e) {
            throw new UsageException("invalid argument \"" + value + "\" for \"--bind-address\" flag: not an IP address");
        }
        return value;
    }

    /** An IP address or a DNS name. */
    private static String hostname(String value) throws UsageException {
        if (!value.matches("[A-Za-z0-9.-]+|[0-9a-fA-F:]+") || value.startsWith("-") || value.startsWith(".")) {
            throw new UsageException("invalid argument \"" + value + "\" for \"--cluster-hostname\" flag: "
                    + "not an IP address or host name");
        }
        return value;
    }

    private static int port(String flag, String value) throws UsageException {
        try {
            int p = Integer.parseInt(value);
            if (p < 0 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new UsageException("invalid argument \"" + value + "\" for \"" + flag + "\" flag: must be a port number 0-65535");
        }
    }

    /** A byte count as etcd's {@code --max-request-bytes} takes it: a positive decimal integer. */
    private static long positiveBytes(String flag, String value) throws UsageException {
        try {
            long n = Long.parseLong(value);
            if (n <= 0 || n > Integer.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException("invalid argument \"" + value + "\" for \"" + flag
                    + "\" flag: must be a number of bytes from 1 to " + Integer.MAX_VALUE);
        }
    }

    private static Duration positive(String flag, String value) throws UsageException {
        Duration d = duration(flag, value);
        if (d.isZero()) {
            throw new UsageException("invalid argument \"" + value + "\" for \"" + flag + "\" flag: must be positive");
        }
        return d;
    }

    private static io.kubepekko.api.watch.FeatureGates featureGates(String value) throws UsageException {
        try {
            return io.kubepekko.api.watch.FeatureGates.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid argument \"" + value + "\" for \"--feature-gates\" flag: " + e.getMessage());
        }
    }

    private static Duration duration(String flag, String value) throws UsageException {
        try {
            Duration d = Duration.ofNanos(io.kubepekko.api.meta.GoDurations.parse(value));
            if (d.isNegative()) {
                throw new IllegalArgumentException();
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid argument \"" + value + "\" for \"" + flag + "\" flag: time: invalid duration \""
                    + value + "\"");
        }
    }
}
