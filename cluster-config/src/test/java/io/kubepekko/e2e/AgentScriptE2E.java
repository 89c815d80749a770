package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.RepositoryRoot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cluster-config/bin/agent} run as a process: version, help, a bad flag's one line with exit
 * 2, and the script's own {@code --apiserver-data-dir} refused beside {@code --kubeconfig} or
 * stopping with {@code bin/node-kubeconfig}'s error when no server made the data directory.
 */
class AgentScriptE2E {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Path SCRIPT = RepositoryRoot.find().resolve("cluster-config/bin/agent");

    @Test
    void versionPrintsVersionAndExitsZero() {
        ProcessResult result = agent("--version");
        assertEquals(0, result.exitCode(), result.describe());
        assertTrue(
                result.stdoutText().matches("kubepekko-agent \\S+ \\(Kubernetes v1\\.35\\.0\\)"),
                result.describe());
    }

    @Test
    void helpListsTheKubeletFlagsAndExitsZero() {
        ProcessResult result = agent("-h");
        assertEquals(0, result.exitCode(), result.describe());
        assertTrue(result.stdout().startsWith("Usage: agent [flags]"), result.describe());
        assertTrue(
                result.stdout().contains("--container-runtime-endpoint string"), result.describe());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--foo                    | Error: unknown flag: --foo",
                "--max-pods many          | Error: invalid argument \"many\" for \"--max-pods\" flag: strconv.ParseInt: parsing \"many\": invalid syntax",
            })
    void badFlagPrintsOneLineAndExitsTwo(String args, String line) {
        ProcessResult result = agent(args.split(" +"));
        assertEquals(2, result.exitCode(), result.describe());
        assertEquals("", result.stdout(), result.describe());
        assertEquals(List.of(line), result.stderrText().lines().toList(), result.describe());
    }

    @Test
    void theScriptsApiserverDataDirIssuesTheKubeconfigSoItIsRefusedBesideKubeconfig() {
        ProcessResult result =
                agent("--apiserver-data-dir", "data", "--kubeconfig", "admin.kubeconfig");
        assertEquals(2, result.exitCode(), result.describe());
        assertEquals(
                List.of(
                        "Error: --apiserver-data-dir issues the kubeconfig: give it or --kubeconfig,"
                                + " not both"),
                result.stderrText().lines().toList(),
                result.describe());
    }

    @Test
    void anApiserverDataDirWithoutAServerStopsTheScriptWithBinNodeKubeconfigsError(
            @TempDir Path dir) {
        Path data = dir.resolve("no-server");
        ProcessResult result =
                agent(
                        "--apiserver-data-dir=" + data,
                        "--hostname-override",
                        "Node-1",
                        "--root-dir",
                        dir.resolve("agent").toString());
        assertEquals(1, result.exitCode(), result.describe());
        assertEquals(
                List.of(
                        "Error: "
                                + data.resolve("admin.kubeconfig")
                                + " not found: start the API server with this --data-dir first"),
                result.stderrText().lines().toList(),
                result.describe());
    }

    private static ProcessResult agent(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        // The build running this test has just packaged the agent: the script must not build again.
        return Processes.run(command, null, Map.of("KUBEPEKKO_SKIP_BUILD", "1"), TIMEOUT);
    }
}
