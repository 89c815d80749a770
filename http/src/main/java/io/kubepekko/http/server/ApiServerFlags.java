package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.definition.ApiEnablement;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.definition.RuntimeConfig;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import io.kubepekko.api.logging.LogSettings;
import io.kubepekko.api.logging.LoggingFlags;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.persistence.StorageSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Command-line flags of the API server, named as kube-apiserver names them, each declared once
 * below as a {@link Flag}: its name, type word, default, help and value check. Parsing ({@code
 * --flag value}, {@code --flag=value}), unknown flags and {@code --help} come from the shared
 * {@link FlagSet} (the agent's too); a flag not declared here is an unknown flag.
 *
 * <p>This class is the flag table and the step from parsed values to {@link ApiServerSettings}.
 * Adding a flag happens here: declare it beside the others (its value converter from {@link
 * ServerFlagValues}, a new one added there), list it in {@link #FLAGS} (the order of {@code
 * --help}), and carry its value into the settings in {@link #parse(String[], Properties)}. The
 * configuration file ({@code --config}, {@code -Dconfig.file}) is read by {@link ConfigFileFlag}.
 */
public final class ApiServerFlags {
    private ApiServerFlags() {}

    /** A flag problem: the message is printed as one line and the process exits 2. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /**
     * The outcome of parsing: settings to run with (after printing the warnings about deprecated
     * flags to standard error), or help/version to print.
     */
    public record Parsed(
            ApiServerSettings settings,
            boolean help,
            boolean version,
            List<String> warnings,
            LogSettings logging) {
        Parsed(ApiServerSettings settings, boolean help, boolean version) {
            this(settings, help, version, List.of(), LogSettings.DEFAULT);
        }
    }

    /** The configuration key {@code --storage-max-object-bytes} sets (see reference.conf). */
    static final String MAX_OBJECT_BYTES = "kubepekko.storage.max-object-bytes";

    private static final String STRING = "string";
    private static final String DURATION = "duration";

    static final Flag<Path> DATA_DIR =
            new Flag<>(
                    "data-dir",
                    STRING,
                    "data",
                    "directory for the database and admin.kubeconfig",
                    false,
                    false,
                    Flag.last(ServerFlagValues::dataDir));
    static final Flag<String> BIND_ADDRESS =
            new Flag<>(
                    "bind-address",
                    STRING,
                    "0.0.0.0",
                    "The IP address on which to listen for the --secure-port port; 0.0.0.0 or :: listens on"
                            + " every interface",
                    false,
                    false,
                    Flag.last(ServerFlagValues::address));
    static final Flag<Duration> LIVEZ_GRACE_PERIOD =
            new Flag<>(
                    "livez-grace-period",
                    DURATION,
                    "0s",
                    "time after start during which /livez ignores unfinished start-up",
                    false,
                    false,
                    Flag.last(ServerFlagValues::duration));
    static final Flag<Duration> SHUTDOWN_DELAY_DURATION =
            new Flag<>(
                    "shutdown-delay-duration",
                    DURATION,
                    "0s",
                    "time to keep serving, with /readyz failing, after a shutdown signal",
                    false,
                    false,
                    Flag.last(ServerFlagValues::duration));
    static final Flag<Duration> WATCH_CACHE_WINDOW =
            new Flag<>(
                    "watch-cache-window",
                    DURATION,
                    "5m0s",
                    "how long the watch cache keeps events in memory",
                    false,
                    false,
                    Flag.last(ServerFlagValues::positive));
    static final Flag<Duration> WATCH_HISTORY_RETENTION =
            new Flag<>(
                    "watch-history-retention",
                    DURATION,
                    "5m0s",
                    "how far back a watch may resume, read from the journal beyond the cache window (never less than it)",
                    false,
                    false,
                    Flag.last(ServerFlagValues::positive));
    static final Flag<Duration> CONTINUE_TOKEN_TTL =
            new Flag<>(
                    "continue-token-ttl",
                    DURATION,
                    "5m0s",
                    "how long a list continue token stays valid",
                    false,
                    false,
                    Flag.last(ServerFlagValues::positive));

    /**
     * Kept as given, every occurrence: as kube-apiserver's component registry, the gates are set
     * once the flags are parsed, and a gate refused then is reported in the gate's own words.
     */
    static final Flag<String> FEATURE_GATES =
            new Flag<>(
                    "feature-gates",
                    "colonSeparatedMultimapStringString",
                    null,
                    "Comma-separated list of component:key=value pairs that describe feature gates for"
                            + " alpha/experimental features; the component defaults to \"kube\", and the flag"
                            + " may be repeated. The gates are every gate kube-apiserver 1.35 knows, the"
                            + " kubelet's, scheduler's and controllers' too (docs/operations.md), AllAlpha"
                            + " and AllBeta",
                    false,
                    true,
                    given -> String.join(",", given));

    // Every occurrence adds to one map, as kube's ConfigurationMap; what the keys mean is checked
    // against the served versions once all are read (parse below), as kube-apiserver does.
    static final Flag<RuntimeConfig> RUNTIME_CONFIG =
            new Flag<>(
                    "runtime-config",
                    "mapStringString",
                    null,
                    "A set of key=value pairs that enable or disable built-in APIs: v1=true|false for the core API"
                            + " group, <group>/<version>=true|false for a specific API group and version (e.g."
                            + " apps/v1=true), <group>/<version>/<resource>=true|false for one resource, api/all,"
                            + " api/ga, api/beta and api/alpha=true|false for every version, the versions of the"
                            + " form v[0-9]+, v[0-9]+beta[0-9]+ and v[0-9]+alpha[0-9]+; api/legacy is deprecated and"
                            + " ignored",
                    false,
                    true,
                    RuntimeConfig::parse);
    static final Flag<Ipv4Cidr> SERVICE_CLUSTER_IP_RANGE =
            new Flag<>(
                    "service-cluster-ip-range",
                    STRING,
                    "10.0.0.0/24",
                    "IPv4 CIDR range from which Service cluster IPs are assigned; its first address is kept"
                            + " for the kubernetes Service",
                    false,
                    false,
                    Flag.last(ServerFlagValues::clusterIpRange));
    static final Flag<PortRange> SERVICE_NODE_PORT_RANGE =
            new Flag<>(
                    "service-node-port-range",
                    "portRange",
                    "30000-32767",
                    "where NodePort and LoadBalancer Services get node ports: low-high, low+offset or one"
                            + " port, both ends included",
                    false,
                    false,
                    Flag.last(ServerFlagValues::nodePortRange));
    // The storage and cluster flags below set only what is given: their defaults are the built-in
    // configuration's (reference.conf), and a --config file may set them instead.
    static final Flag<StorageSettings.Profile> STORAGE =
            new Flag<>(
                    "storage",
                    STRING,
                    "embedded",
                    "where the journal lives: embedded (an H2 database in --data-dir) or cassandra",
                    false,
                    false,
                    Flag.last(ServerFlagValues::profile));
    static final Flag<List<String>> CASSANDRA_CONTACT_POINTS =
            new Flag<>(
                    "cassandra-contact-points",
                    "strings",
                    "127.0.0.1:9042",
                    "comma list of host:port of Cassandra nodes, for --storage=cassandra",
                    false,
                    false,
                    Flag.last(ServerFlagValues::hostPorts));
    static final Flag<String> CASSANDRA_KEYSPACE =
            new Flag<>(
                    "cassandra-keyspace",
                    STRING,
                    "kubepekko",
                    "the keyspace of the journal and snapshots, for --storage=cassandra",
                    false,
                    false,
                    Flag.last(ServerFlagValues::keyspace));
    static final Flag<Long> STORAGE_MAX_OBJECT_BYTES =
            new Flag<>(
                    "storage-max-object-bytes",
                    "int",
                    "1572864",
                    "the largest object a write may leave stored, in bytes of its JSON; larger ones answer etcd's"
                            + " \"request is too large\" (the default is etcd's --max-request-bytes)",
                    false,
                    false,
                    Flag.last(ServerFlagValues::positiveBytes));
    static final Flag<Long> STORAGE_QUOTA_BYTES =
            new Flag<>(
                    "storage-quota-bytes",
                    "int",
                    "0",
                    "the most bytes the stored objects may take (their JSON, counted over the whole cluster); writes that"
                            + " would add more are refused with 507 \"database space exceeded\". 0: 30% of the JVM's maximum"
                            + " heap (-Xmx), which a server filled to it restarts in",
                    false,
                    false,
                    Flag.last(ServerFlagValues::quotaBytes));
    static final Flag<List<String>> CLUSTER_SEED_NODES =
            new Flag<>(
                    "cluster-seed-nodes",
                    "strings",
                    "",
                    "comma list of host:port Pekko remoting addresses of the seed nodes to join; empty: this server forms"
                            + " a cluster of its own. Needs --storage=cassandra: every node of a cluster shares one journal",
                    false,
                    false,
                    Flag.last(
                            value ->
                                    value.isBlank()
                                            ? List.of()
                                            : ServerFlagValues.hostPorts(value)));
    static final Flag<Integer> CLUSTER_PORT =
            new Flag<>(
                    "cluster-port",
                    "int",
                    "0",
                    "the Pekko remoting (artery) port; 0 picks a free one, a seed node needs a fixed one",
                    false,
                    false,
                    Flag.last(ServerFlagValues::port));
    static final Flag<String> CLUSTER_HOSTNAME =
            new Flag<>(
                    "cluster-hostname",
                    STRING,
                    "127.0.0.1",
                    "the address other cluster nodes reach this one at",
                    false,
                    false,
                    Flag.last(ServerFlagValues::hostname));
    static final Flag<Optional<Config>> CONFIG =
            new Flag<>(
                    "config",
                    STRING,
                    null,
                    "a HOCON configuration file (e.g. cluster-config/profiles/seed-nodes.conf) layered under the flags given"
                            + " and over the built-in configuration; it may select the storage profile and the seed nodes"
                            + " (-Dconfig.file=FILE names it too, but not together with --config)",
                    false,
                    false,
                    Flag.optional(ConfigFileFlag::configFile));

    /** The server's command line. */
    static final FlagSet FLAGS =
            new FlagSet(
                    "apiserver",
                    "Starts a Kubernetes-compatible API server.",
                    List.of(
                            DATA_DIR,
                            BIND_ADDRESS,
                            SecureServingFlags.SECURE_PORT,
                            SecureServingFlags.ADVERTISE_ADDRESS,
                            SecureServingFlags.TLS_CERT_FILE,
                            SecureServingFlags.TLS_PRIVATE_KEY_FILE,
                            SecureServingFlags.CLIENT_CA_FILE,
                            SecureServingFlags.TLS_MIN_VERSION,
                            SecureServingFlags.TLS_CIPHER_SUITES,
                            SecureServingFlags.AUTHORIZATION_MODE,
                            SecureServingFlags.ANONYMOUS_AUTH,
                            SecureServingFlags.TOKEN_AUTH_FILE,
                            ServiceAccountFlags.API_AUDIENCES,
                            ServiceAccountFlags.SERVICE_ACCOUNT_ISSUER,
                            ServiceAccountFlags.SERVICE_ACCOUNT_JWKS_URI,
                            ServiceAccountFlags.SERVICE_ACCOUNT_KEY_FILE,
                            ServiceAccountFlags.SERVICE_ACCOUNT_MAX_TOKEN_EXPIRATION,
                            ServiceAccountFlags.SERVICE_ACCOUNT_EXTEND_TOKEN_EXPIRATION,
                            ServiceAccountFlags.SERVICE_ACCOUNT_SIGNING_KEY_FILE,
                            LIVEZ_GRACE_PERIOD,
                            SHUTDOWN_DELAY_DURATION,
                            WATCH_CACHE_WINDOW,
                            WATCH_HISTORY_RETENTION,
                            CONTINUE_TOKEN_TTL,
                            FEATURE_GATES,
                            RUNTIME_CONFIG,
                            SERVICE_CLUSTER_IP_RANGE,
                            SERVICE_NODE_PORT_RANGE,
                            STORAGE,
                            CASSANDRA_CONTACT_POINTS,
                            CASSANDRA_KEYSPACE,
                            STORAGE_MAX_OBJECT_BYTES,
                            STORAGE_QUOTA_BYTES,
                            CLUSTER_SEED_NODES,
                            CLUSTER_PORT,
                            CLUSTER_HOSTNAME,
                            CONFIG,
                            AuditFlags.AUDIT_POLICY_FILE,
                            AuditFlags.AUDIT_LOG_PATH,
                            AuditFlags.AUDIT_LOG_MAXAGE,
                            AuditFlags.AUDIT_LOG_MAXBACKUP,
                            AuditFlags.AUDIT_LOG_MAXSIZE,
                            AuditFlags.AUDIT_LOG_FORMAT,
                            AuditFlags.AUDIT_LOG_MODE,
                            AuditFlags.AUDIT_LOG_BATCH_BUFFER_SIZE,
                            AdmissionFlags.ENABLE_ADMISSION_PLUGINS,
                            AdmissionFlags.DISABLE_ADMISSION_PLUGINS,
                            AdmissionFlags.DEFAULT_NOT_READY_TOLERATION_SECONDS,
                            AdmissionFlags.DEFAULT_UNREACHABLE_TOLERATION_SECONDS,
                            LoggingFlags.LOGGING_FORMAT,
                            LoggingFlags.V),
                    arg -> "unexpected argument \"" + arg + "\"");

    /** {@code --help}, generated from the declarations above. */
    static final String USAGE = FLAGS.usage();

    static Parsed parse(String[] args) throws UsageException {
        return parse(args, System.getProperties());
    }

    /**
     * Parses {@code args}; {@code systemProperties} may name the configuration file ({@code
     * config.file}).
     */
    public static Parsed parse(String[] args, Properties systemProperties) throws UsageException {
        FlagSet.Parsed parsed = FLAGS.parse(args);
        if (parsed instanceof FlagSet.Parsed.Invalid invalid) {
            throw new UsageException(invalid.message());
        }
        if (!(parsed instanceof FlagSet.Parsed.Values v)) {
            return new Parsed(
                    null,
                    parsed instanceof FlagSet.Parsed.Help,
                    parsed instanceof FlagSet.Parsed.Version);
        }
        Config file =
                ConfigFileFlag.fileFromSystemProperties(
                        v.get(CONFIG).orElse(null), systemProperties);
        if (v.given(STORAGE_MAX_OBJECT_BYTES).isPresent()) {
            // Over the configuration file, as every flag is.
            Config flag =
                    ConfigFactory.parseMap(
                            Map.of(MAX_OBJECT_BYTES, v.get(STORAGE_MAX_OBJECT_BYTES)), "flags");
            file = file == null ? flag : flag.withFallback(file);
        }
        FeatureGates gates;
        try {
            gates = FeatureGates.parse(v.get(FEATURE_GATES));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Duration window = v.get(WATCH_CACHE_WINDOW);
        Duration retention = v.get(WATCH_HISTORY_RETENTION);
        if (retention.compareTo(window) < 0) {
            // the window is always resumable; the retention only reaches further back
            retention = window;
        }
        ApiServerSettings settings =
                new ApiServerSettings(
                        v.get(DATA_DIR),
                        v.get(BIND_ADDRESS),
                        v.get(SecureServingFlags.SECURE_PORT),
                        v.get(LIVEZ_GRACE_PERIOD),
                        v.get(SHUTDOWN_DELAY_DURATION),
                        new ReadFlags(window, v.get(CONTINUE_TOKEN_TTL), retention, gates),
                        file == null ? ConfigFactory.empty() : file,
                        new ServiceRanges(
                                v.get(SERVICE_CLUSTER_IP_RANGE), v.get(SERVICE_NODE_PORT_RANGE)),
                        new StorageFlags(
                                v.given(STORAGE).orElse(null),
                                v.given(CASSANDRA_CONTACT_POINTS).orElse(null),
                                v.given(CASSANDRA_KEYSPACE).orElse(null),
                                v.given(STORAGE_QUOTA_BYTES).orElse(null)),
                        new ClusterFlags(
                                v.given(CLUSTER_SEED_NODES).orElse(null),
                                v.given(CLUSTER_PORT).orElse(null),
                                v.given(CLUSTER_HOSTNAME).orElse(null)));
        settings = settings.withSecure(SecureServingFlags.secureServing(v));
        settings = settings.withAudit(AuditFlags.settings(v));
        settings = settings.withAdmission(AdmissionFlags.settings(v));
        RuntimeConfig runtimeConfig = v.get(RUNTIME_CONFIG);
        try {
            Registry.builtin(runtimeConfig);
        } catch (ApiEnablement.InvalidException e) {
            throw new UsageException(e.getMessage());
        }
        settings = settings.withRuntimeConfig(runtimeConfig);
        try {
            // the flags and the file together: a file may select the profile and the seeds
            settings.resolve();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        } catch (ConfigException e) {
            throw new UsageException(
                    ApiServerSettings.INVALID + ConfigFileFlag.oneLine(e.getMessage()));
        }
        List<String> warnings = new ArrayList<>(v.warnings());
        warnings.addAll(gates.warnings());
        try {
            return new Parsed(settings, false, false, warnings, LoggingFlags.settings(v));
        } catch (LoggingFlags.InvalidException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
