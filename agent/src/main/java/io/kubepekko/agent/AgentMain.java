package io.kubepekko.agent;

import io.kubepekko.agent.flags.AgentFlags;
import io.kubepekko.agent.flags.AgentSettings;
import io.kubepekko.api.openapi.OpenApiV3;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of {@code cluster-config/bin/agent}. For now it reads the flags and says what it would run
 * with; the actors that register the node and run pods are wired in here later.
 */
public final class AgentMain {
    private AgentMain() {}

    private static final Logger LOG = LoggerFactory.getLogger(AgentMain.class);

    /** The exit code of a command line the agent does not accept, as the API server's. */
    static final int EXIT_USAGE = 2;

    public static void main(String[] args) {
        int code = run(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Parses {@code args} and acts on them; returns the exit code. */
    static int run(String[] args) {
        AgentFlags.Parsed parsed = AgentFlags.parse(args);
        if (parsed instanceof AgentFlags.Parsed.Invalid invalid) {
            System.err.println("Error: " + invalid.message());
            return EXIT_USAGE;
        }
        if (parsed instanceof AgentFlags.Parsed.Help) {
            System.out.print(AgentFlags.usage());
        } else if (parsed instanceof AgentFlags.Parsed.Version) {
            System.out.println(version());
        } else if (parsed instanceof AgentFlags.Parsed.Run run) {
            start(run.settings());
        }
        return 0;
    }

    private static void start(AgentSettings settings) {
        LOG.info("kubepekko agent {} starting ({} mode) with {}", versionNumber(),
                settings.standalone() ? "standalone" : "API server", settings);
    }

    static String version() {
        return "kubepekko-agent " + versionNumber() + " (Kubernetes " + OpenApiV3.DEFAULT_KUBERNETES_VERSION + ")";
    }

    private static String versionNumber() {
        String v = AgentMain.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
