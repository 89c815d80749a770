package io.kubepekko.e2e.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real kubectl against one server. Every invocation gets the server's kubeconfig, the
 * discovery and OpenAPI cache of this instance (so one test class never sees another's cached
 * discovery), a home directory of its own (so no user kuberc or kubeconfig leaks in) and a deadline
 * after which the process is killed.
 */
public final class Kubectl {
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final Path binary;
    private final Path kubeconfig;
    private final Path cacheDir;
    private final Path workDir;
    private final Duration timeout;
    private final Map<String, String> extraEnvironment;

    /**
     * @param binary the kubectl executable
     * @param kubeconfig the server's kubeconfig
     * @param scratchDir a directory owned by the caller (a test class's temp dir): the cache and
     *     home live under it
     * @param workDir the working directory, where relative manifest paths are resolved
     */
    public Kubectl(Path binary, Path kubeconfig, Path scratchDir, Path workDir) {
        this(
                binary,
                kubeconfig,
                scratchDir.resolve("kubectl-cache"),
                workDir,
                DEFAULT_TIMEOUT,
                Map.of());
    }

    private Kubectl(
            Path binary,
            Path kubeconfig,
            Path cacheDir,
            Path workDir,
            Duration timeout,
            Map<String, String> extraEnvironment) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
        this.cacheDir = cacheDir;
        this.workDir = workDir;
        this.timeout = timeout;
        this.extraEnvironment = extraEnvironment;
    }

    /** The same kubectl with another per-command deadline. */
    public Kubectl withTimeout(Duration perCommand) {
        return new Kubectl(binary, kubeconfig, cacheDir, workDir, perCommand, extraEnvironment);
    }

    /**
     * The same kubectl with one more environment variable ({@code KUBE_EDITOR}, {@code
     * KUBECTL_EXTERNAL_DIFF}).
     */
    public Kubectl withEnvironment(String name, String value) {
        Map<String, String> env = new HashMap<>(extraEnvironment);
        env.put(name, value);
        return new Kubectl(binary, kubeconfig, cacheDir, workDir, timeout, Map.copyOf(env));
    }

    /**
     * Runs {@code kubectl <args>} and returns what it printed; never throws for a non-zero exit.
     */
    public ProcessResult run(String... args) {
        return Processes.run(command(args), workDir, environment(), timeout);
    }

    /** Starts {@code kubectl <args>} in the background (a watch, a wait); the caller closes it. */
    public RunningProcess start(String... args) {
        return RunningProcess.start(command(args), workDir, environment());
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.add("--kubeconfig=" + kubeconfig);
        command.add("--cache-dir=" + cacheDir);
        command.addAll(Arrays.asList(args));
        return command;
    }

    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", cacheDir.getParent().toString());
        env.put("KUBECONFIG", null);
        env.put("KUBERC", "off");
        env.putAll(extraEnvironment);
        return env;
    }
}
