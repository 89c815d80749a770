package io.kubepekko.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * {@code cluster-config/bin/agent} as a user starts it, for the end-to-end tests: as its node
 * ({@code system:node:<name>}, the credentials the script issues with {@code --apiserver-data-dir}
 * from the server's data directory into {@code <root-dir>/kubeconfig}), with a runtime endpoint,
 * its state under a root directory, its output in a log. {@link #close()} stops it as a supervisor
 * would (SIGTERM, SIGKILL after 30 s) and prints the end of its log.
 */
public final class AgentProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private AgentProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Skips the test unless this JVM runs as root: containerd and runc need it. */
    public static void assumeRoot() throws IOException {
        Assumptions.assumeTrue(
                (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0,
                "containerd and runc need root");
    }

    /**
     * Starts the agent of {@code node} with credentials issued from the server's {@code
     * serverDataDir}; {@code flags} come after the ones every test gives.
     */
    public static AgentProcess start(
            Path serverDataDir,
            String runtimeEndpoint,
            Path rootDir,
            String node,
            Path log,
            String... flags)
            throws IOException {
        return start(serverDataDir, runtimeEndpoint, rootDir, node, log, List.of(), flags);
    }

    /**
     * As {@link #start(Path, String, Path, String, Path, String...)}, the agent's JVM with {@code
     * systemProperties} ({@code name=value}) besides the script's heap.
     */
    public static AgentProcess start(
            Path serverDataDir,
            String runtimeEndpoint,
            Path rootDir,
            String node,
            Path log,
            List<String> systemProperties,
            String... flags)
            throws IOException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                "bash",
                                RepositoryRoot.find()
                                        .resolve("cluster-config/bin/agent")
                                        .toString(),
                                "--apiserver-data-dir",
                                serverDataDir.toString(),
                                "--container-runtime-endpoint",
                                runtimeEndpoint,
                                "--root-dir",
                                rootDir.toString(),
                                "--hostname-override",
                                node,
                                // The agent's own server: loopback only, a free port (tests and
                                // helpers share the machine).
                                "--address",
                                "127.0.0.1",
                                "--port",
                                "0"));
        command.addAll(List.of(flags));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        // The build running the test has just packaged the agent: the script must not build again.
        builder.environment().put("KUBEPEKKO_SKIP_BUILD", "1");
        if (!systemProperties.isEmpty()) {
            // Replaces the script's default options: its heap is repeated here.
            List<String> options = new ArrayList<>(List.of("-Xms64m", "-Xmx512m"));
            systemProperties.forEach(p -> options.add("-D" + p));
            builder.environment().put("KUBEPEKKO_AGENT_JAVA_OPTS", String.join(" ", options));
        }
        return new AgentProcess(builder.start(), log);
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook runs, nothing is stopped on the way out. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    public Path log() {
        return log;
    }

    /** The last 40 lines of the agent's log. */
    public String tail() throws IOException {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        System.out.println("agent log " + log + "\n" + tail());
    }
}
