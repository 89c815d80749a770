package io.kubepekko.e2e.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real helm against one server, like {@link Kubectl}: the server's kubeconfig, helm's
 * cache, configuration and data directories and a home of its own under the caller's scratch
 * directory (so no user repositories or plugins leak in), and a deadline per command.
 */
public final class Helm {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private final Path binary;
    private final Path kubeconfig;
    private final Path home;

    /**
     * @param binary the helm executable
     * @param kubeconfig the server's kubeconfig
     * @param scratchDir a directory owned by the caller; helm's home lives under it
     */
    public Helm(Path binary, Path kubeconfig, Path scratchDir) {
        this.binary = binary;
        this.kubeconfig = kubeconfig;
        this.home = scratchDir.resolve("helm-home");
    }

    /** Runs {@code helm <args>} in {@code workDir}; never throws for a non-zero exit. */
    public ProcessResult run(Path workDir, String... args) {
        List<String> command =
                new ArrayList<>(List.of(binary.toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(Arrays.asList(args));
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("KUBECONFIG", null);
        env.put("HELM_CACHE_HOME", home.resolve("cache").toString());
        env.put("HELM_CONFIG_HOME", home.resolve("config").toString());
        env.put("HELM_DATA_HOME", home.resolve("data").toString());
        return Processes.run(command, workDir, env, TIMEOUT);
    }
}
