package io.kubepekko.agent.flags;

import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import io.kubepekko.api.logging.LogSettings;
import io.kubepekko.api.logging.LoggingFlags;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The agent's command-line flags, named and defaulted as the kubelet's (SPEC "Node agent options").
 * Each flag is declared once below, as data; parsing, defaults and {@code --help} all come from
 * that table through the {@link FlagSet} the API server uses too (pflag's syntax and error words);
 * the values are converted here, so errors read as the kubelet's.
 */
public final class AgentFlags {
    private AgentFlags() {}

    static final Flag<Optional<Path>> KUBECONFIG =
            new Flag<>(
                    "kubeconfig",
                    "string",
                    null,
                    "Path to a kubeconfig file, specifying how to connect to the API server. Providing --kubeconfig enables"
                            + " API server mode, omitting --kubeconfig enables standalone mode.",
                    false,
                    false,
                    FlagValues.optional(FlagValues::path));
    static final Flag<Optional<String>> HOSTNAME_OVERRIDE =
            new Flag<>(
                    "hostname-override",
                    "string",
                    null,
                    "If non-empty, will use this string as identification instead of the actual hostname.",
                    false,
                    false,
                    given ->
                            given.isEmpty()
                                    ? Optional.empty()
                                    : FlagValues.hostname(given.get(given.size() - 1)));
    static final Flag<Optional<String>> PROVIDER_ID =
            new Flag<>(
                    "provider-id",
                    "string",
                    null,
                    "Unique identifier for identifying the node in a machine database, i.e cloudprovider.",
                    false,
                    false,
                    given ->
                            given.isEmpty()
                                    ? Optional.empty()
                                    : FlagValues.nonEmpty(given.get(given.size() - 1)));
    static final Flag<List<InetAddress>> NODE_IP =
            new Flag<>(
                    "node-ip",
                    "string",
                    "",
                    "IP address (or comma-separated dual-stack IP addresses) of the node. If unset, the agent uses the"
                            + " node's default IPv4 address, if any, or its default IPv6 address.",
                    false,
                    false,
                    FlagValues.last(FlagValues::nodeIps));
    static final Flag<Map<String, String>> NODE_LABELS =
            new Flag<>(
                    "node-labels",
                    "mapStringString",
                    null,
                    "Labels to add when registering the node in the cluster. Labels must be key=value pairs separated by ','."
                            + " Labels in the 'kubernetes.io' namespace must begin with an allowed prefix ("
                            + String.join(", ", FlagValues.KUBELET_LABEL_NAMESPACES)
                            + ") or be in the specifically allowed set ("
                            + String.join(", ", FlagValues.KUBELET_LABELS)
                            + ")",
                    false,
                    true,
                    FlagValues.nodeLabels());
    static final Flag<Boolean> REGISTER_NODE =
            new Flag<>(
                    "register-node",
                    "",
                    "true",
                    "Register the node with the apiserver. If --kubeconfig is not provided, this flag is irrelevant, as the"
                            + " agent won't have an apiserver to register with.",
                    true,
                    false,
                    FlagValues.last(FlagValues::bool));
    static final Flag<Boolean> REGISTER_SCHEDULABLE =
            new Flag<>(
                    "register-schedulable",
                    "",
                    "true",
                    "Register the node as schedulable. Won't have any effect if register-node is false.",
                    true,
                    false,
                    FlagValues.last(FlagValues::bool));
    static final Flag<Duration> NODE_STATUS_UPDATE_FREQUENCY =
            new Flag<>(
                    "node-status-update-frequency",
                    "duration",
                    "10s",
                    "Specifies how often the agent posts node status to the master.",
                    false,
                    false,
                    FlagValues.last(FlagValues::period));
    static final Flag<Integer> MAX_PODS =
            new Flag<>(
                    "max-pods",
                    "int32",
                    "110",
                    "Number of Pods that can run on this agent.",
                    false,
                    false,
                    FlagValues.last(
                            text -> {
                                int n = FlagValues.int32(text);
                                if (n < 0) {
                                    throw new Flag.InvalidValue(
                                            text, "maxPods must not be a negative number");
                                }
                                return n;
                            }));
    static final Flag<Optional<Path>> POD_MANIFEST_PATH =
            new Flag<>(
                    "pod-manifest-path",
                    "string",
                    null,
                    "Path to the directory containing static pod files to run, or the path to a single static pod file."
                            + " Files starting with dots will be ignored.",
                    false,
                    false,
                    FlagValues.optional(FlagValues::path));
    static final Flag<Duration> FILE_CHECK_FREQUENCY =
            new Flag<>(
                    "file-check-frequency",
                    "duration",
                    "20s",
                    "Duration between checking config files for new data.",
                    false,
                    false,
                    FlagValues.last(FlagValues::period));
    static final Flag<Optional<URI>> MANIFEST_URL =
            new Flag<>(
                    "manifest-url",
                    "string",
                    null,
                    "URL for accessing additional Pod specifications to run.",
                    false,
                    false,
                    FlagValues.optional(FlagValues::httpUrl));
    static final Flag<Map<String, List<String>>> MANIFEST_URL_HEADER =
            new Flag<>(
                    "manifest-url-header",
                    "colonSeparatedMultimapStringString",
                    null,
                    "Comma-separated list of HTTP headers to use when accessing the url provided to --manifest-url. Multiple"
                            + " headers with the same name will be added in the same order provided. This flag can be repeatedly"
                            + " invoked. For example: --manifest-url-header 'a:hello,b:again,c:world' --manifest-url-header 'b:beautiful'",
                    false,
                    true,
                    FlagValues.colonSeparatedMultimap());
    static final Flag<Duration> HTTP_CHECK_FREQUENCY =
            new Flag<>(
                    "http-check-frequency",
                    "duration",
                    "20s",
                    "Duration between checking http for new data.",
                    false,
                    false,
                    FlagValues.last(FlagValues::period));
    static final Flag<URI> CONTAINER_RUNTIME_ENDPOINT =
            new Flag<>(
                    "container-runtime-endpoint",
                    "string",
                    "unix:///run/containerd/containerd.sock",
                    "The endpoint of container runtime service. Unix Domain Sockets are supported. Example: 'unix:///path/to/runtime.sock'.",
                    false,
                    false,
                    FlagValues.last(FlagValues::runtimeEndpoint));
    static final Flag<Path> ROOT_DIR =
            new Flag<>(
                    "root-dir",
                    "string",
                    "/var/lib/kubelet",
                    "Directory path for managing the agent's files (pod directories, volumes, container logs).",
                    false,
                    false,
                    FlagValues.last(FlagValues::path));
    static final Flag<Long> CONTAINER_LOG_MAX_SIZE =
            new Flag<>(
                    "container-log-max-size",
                    "string",
                    "10Mi",
                    "Set the maximum size (e.g. 10Mi) of container log file before it is rotated.",
                    false,
                    false,
                    FlagValues.last(FlagValues::bytes));
    static final Flag<Integer> CONTAINER_LOG_MAX_FILES =
            new Flag<>(
                    "container-log-max-files",
                    "int32",
                    "5",
                    "Set the maximum number of container log files that can be present for a container. The number must be >= 2.",
                    false,
                    false,
                    FlagValues.last(
                            text -> {
                                int n = FlagValues.int32(text);
                                if (n <= 1) {
                                    throw new Flag.InvalidValue(
                                            text, "containerLogMaxFiles must be greater than 1");
                                }
                                return n;
                            }));

    static final Flag<InetAddress> ADDRESS =
            new Flag<>(
                    "address",
                    "ip",
                    "0.0.0.0",
                    "The IP address for the agent to serve on (set to '0.0.0.0' or '::' for listening on all interfaces and IP"
                            + " families)",
                    false,
                    false,
                    FlagValues.last(FlagValues::ip));
    static final Flag<Integer> PORT =
            new Flag<>(
                    "port",
                    "int32",
                    "10250",
                    "The port for the agent to serve on; 0 picks a free port (logged, and reported in the Node's"
                            + " daemonEndpoints).",
                    false,
                    false,
                    FlagValues.last(FlagValues::port));

    /**
     * The agent's command line: every flag above, help listing them by name as pflag sorts them.
     */
    static final FlagSet FLAGS =
            new FlagSet(
                    "agent",
                    """
            The node agent: registers this node with the API server and runs the pods bound to it, and static pods,
            through a CRI container runtime (containerd). Without --kubeconfig it runs static pods alone.
            """,
                    List.of(
                            KUBECONFIG,
                            HOSTNAME_OVERRIDE,
                            PROVIDER_ID,
                            NODE_IP,
                            NODE_LABELS,
                            REGISTER_NODE,
                            REGISTER_SCHEDULABLE,
                            NODE_STATUS_UPDATE_FREQUENCY,
                            MAX_PODS,
                            POD_MANIFEST_PATH,
                            FILE_CHECK_FREQUENCY,
                            MANIFEST_URL,
                            MANIFEST_URL_HEADER,
                            HTTP_CHECK_FREQUENCY,
                            CONTAINER_RUNTIME_ENDPOINT,
                            ROOT_DIR,
                            CONTAINER_LOG_MAX_SIZE,
                            CONTAINER_LOG_MAX_FILES,
                            ADDRESS,
                            PORT,
                            LoggingFlags.LOGGING_FORMAT,
                            LoggingFlags.V),
                    arg -> "unknown command \"" + arg + "\"");

    /** Every flag, in the order help lists them (pflag sorts by name). */
    static final List<Flag<?>> ALL = FLAGS.flags();

    /**
     * The kubelet's logging configuration is the {@code logging} field of its configuration, so its
     * refusals name {@code logging.format} and {@code logging.verbosity}.
     */
    private static final String LOGGING_FIELD = "logging.";

    /** How the kubelet's command wraps a refused logging configuration. */
    private static final String LOGGING_ERROR = "initialize logging: ";

    /** The outcome of parsing the command line. */
    public sealed interface Parsed {
        /**
         * Run with these settings, after applying {@code logging} and printing the warnings
         * (deprecated flags used) to standard error.
         */
        record Run(AgentSettings settings, List<String> warnings, LogSettings logging)
                implements Parsed {
            public Run {
                warnings = List.copyOf(warnings);
            }
        }

        /** {@code -h}/{@code --help}: print {@link #usage()} and exit 0. */
        record Help() implements Parsed {}

        /** {@code --version}: print the version and exit 0. */
        record Version() implements Parsed {}

        /** A usage error: print the one-line message and exit 2. */
        record Invalid(String message) implements Parsed {}
    }

    public static Parsed parse(String... args) {
        FlagSet.Parsed parsed = FLAGS.parse(args);
        if (parsed instanceof FlagSet.Parsed.Values values) {
            try {
                return new Parsed.Run(
                        settings(values),
                        values.warnings(),
                        LoggingFlags.settings(values, LOGGING_FIELD));
            } catch (LoggingFlags.InvalidException e) {
                return new Parsed.Invalid(LOGGING_ERROR + e.getMessage());
            }
        }
        if (parsed instanceof FlagSet.Parsed.Invalid invalid) {
            return new Parsed.Invalid(invalid.message());
        }
        return parsed instanceof FlagSet.Parsed.Help ? new Parsed.Help() : new Parsed.Version();
    }

    private static AgentSettings settings(FlagSet.Parsed.Values v) {
        return new AgentSettings(
                v.get(KUBECONFIG),
                v.get(HOSTNAME_OVERRIDE),
                v.get(PROVIDER_ID),
                v.get(NODE_IP),
                v.get(NODE_LABELS),
                v.get(REGISTER_NODE),
                v.get(REGISTER_SCHEDULABLE),
                v.get(NODE_STATUS_UPDATE_FREQUENCY),
                v.get(MAX_PODS),
                v.get(POD_MANIFEST_PATH),
                v.get(FILE_CHECK_FREQUENCY),
                v.get(MANIFEST_URL),
                v.get(MANIFEST_URL_HEADER),
                v.get(HTTP_CHECK_FREQUENCY),
                v.get(CONTAINER_RUNTIME_ENDPOINT),
                v.get(ROOT_DIR),
                v.get(CONTAINER_LOG_MAX_SIZE),
                v.get(CONTAINER_LOG_MAX_FILES),
                v.get(ADDRESS),
                v.get(PORT));
    }

    /** {@code --help}, generated from the declarations. */
    public static String usage() {
        return FLAGS.usage();
    }
}
