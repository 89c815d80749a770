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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cluster-config/bin/agent} run as a process: version, help, and a bad flag's one line with
 * exit 2.
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

    private static ProcessResult agent(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        // The build running this test has just packaged the agent: the script must not build again.
        return Processes.run(command, null, Map.of("KUBEPEKKO_SKIP_BUILD", "1"), TIMEOUT);
    }
}
