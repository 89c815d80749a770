package io.kubepekko.http.server;

import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import io.kubepekko.api.validation.NameValidation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Entry point of {@code cluster-config/bin/node-kubeconfig}: issues a node agent's kubeconfig
 * ({@link NodeKubeconfig}) from a server's data directory, as {@code kubeadm kubeconfig user
 * --client-name system:node:NAME --org system:nodes} does from kubeadm's CA; to {@code --out} or
 * standard output. Exit 2 on a bad command line, 1 when the data directory cannot issue one.
 */
public final class NodeKubeconfigMain {
    private NodeKubeconfigMain() {}

    private static final String STRING = "string";

    static final Flag<Path> DATA_DIR =
            new Flag<>(
                    "data-dir",
                    STRING,
                    "data",
                    "the API server's --data-dir: its client CA (pki/) signs the certificate, its"
                            + " admin.kubeconfig gives the server URL and CA",
                    false,
                    false,
                    Flag.last(ServerFlagValues::dataDir));
    static final Flag<Optional<String>> NODE_NAME =
            new Flag<>(
                    "node-name",
                    STRING,
                    null,
                    "the node's name (the agent's --hostname-override): the certificate is for"
                            + " user system:node:<name> in group system:nodes",
                    false,
                    false,
                    Flag.optional(NodeKubeconfigMain::nodeName));
    static final Flag<Optional<Path>> OUT =
            new Flag<>(
                    "out",
                    STRING,
                    null,
                    "write the kubeconfig to this file (mode 0600, replaced atomically) instead of"
                            + " standard output",
                    false,
                    false,
                    Flag.optional(ServerFlagValues::dataDir));
    static final Flag<Optional<String>> SERVER =
            new Flag<>(
                    "server",
                    STRING,
                    null,
                    "the API server URL the node reaches (default: admin.kubeconfig's)",
                    false,
                    false,
                    Flag.optional(NodeKubeconfigMain::server));

    static final FlagSet FLAGS =
            new FlagSet(
                    "node-kubeconfig",
                    """
                    Issues a kubeconfig for a node agent: a client certificate for system:node:<name>
                    in group system:nodes, signed by the API server's client CA, so the Node
                    authorizer lets the agent reach only its own Node, Lease, pods and what they use.
                    """,
                    List.of(DATA_DIR, NODE_NAME, OUT, SERVER),
                    arg -> "unexpected argument \"" + arg + "\"");

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, Clock.systemUTC()));
    }

    /** Runs the command; returns its exit code. */
    static int run(String[] args, PrintStream out, PrintStream err, Clock clock) {
        FlagSet.Parsed parsed = FLAGS.parse(args);
        if (parsed instanceof FlagSet.Parsed.Help) {
            out.print(FLAGS.usage());
            return 0;
        }
        if (parsed instanceof FlagSet.Parsed.Version) {
            out.println("kubepekko " + ApiServerMain.version());
            return 0;
        }
        if (parsed instanceof FlagSet.Parsed.Invalid invalid) {
            err.println("Error: " + invalid.message());
            return 2;
        }
        FlagSet.Parsed.Values values = (FlagSet.Parsed.Values) parsed;
        Optional<String> node = values.get(NODE_NAME);
        if (node.isEmpty()) {
            err.println("Error: required flag(s) \"node-name\" not set");
            return 2;
        }
        try {
            String kubeconfig =
                    NodeKubeconfig.render(
                            values.get(DATA_DIR), node.get(), values.get(SERVER), clock);
            Optional<Path> file = values.get(OUT);
            if (file.isPresent()) {
                NodeKubeconfig.write(file.get(), kubeconfig);
            } else {
                out.print(kubeconfig);
            }
            return 0;
        } catch (IOException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }
    }

    /** A Node's name as kube validates it (a DNS-1123 subdomain). */
    private static String nodeName(String value) throws Flag.InvalidValue {
        List<String> problems = NameValidation.dns1123Subdomain(value);
        if (!problems.isEmpty()) {
            throw new Flag.InvalidValue(value, String.join("; ", problems));
        }
        return value;
    }

    private static String server(String value) throws Flag.InvalidValue {
        if (!value.startsWith("https://") || value.length() == "https://".length()) {
            throw new Flag.InvalidValue(value, "must be an https:// URL");
        }
        return value;
    }
}
