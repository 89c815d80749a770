package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The server's command line, run as a process: help, version, and flag errors with exit code 2. */
class ApiServerFlagsE2E {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void helpPrintsUsageAndExitsZero() {
        ProcessResult result = server("--help");
        assertEquals(0, result.exitCode(), result.describe());
        assertTrue(result.stdout().startsWith("Usage: apiserver [flags]"), result.describe());
        for (String flag :
                List.of(
                        "--data-dir",
                        "--bind-address",
                        "--secure-port",
                        "--tls-cert-file",
                        "--client-ca-file",
                        "--authorization-mode",
                        "--livez-grace-period",
                        "--shutdown-delay-duration",
                        "--help",
                        "--version")) {
            assertTrue(
                    result.stdout().contains(flag),
                    flag + " missing from usage\n" + result.describe());
        }
    }

    @Test
    void versionPrintsVersionAndExitsZero() {
        ProcessResult result = server("--version");
        assertEquals(0, result.exitCode(), result.describe());
        assertTrue(
                result.stdoutText().matches("kubepekko \\S+ \\(Kubernetes v1\\.35\\.0\\)"),
                result.describe());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--bogus                      | --bogus",
                "--shutdown-delay 5s          | --shutdown-delay",
                "--secure-port abc            | --secure-port",
                "--secure-port=70000          | --secure-port",
                // kube's insecure port is gone, as from kube-apiserver 1.24
                "--port 8080                  | unknown flag: --port",
                "--livez-grace-period xyz     | --livez-grace-period",
                "--shutdown-delay-duration -1s | --shutdown-delay-duration",
                "--bind-address not-an-ip     | --bind-address",
                "--data-dir                   | --data-dir",
                "--config /no/such/kubepekko.conf | --config",
            })
    void badFlagPrintsOneLineNamingItAndExitsTwo(String args, String flag) {
        ProcessResult result = server(args.split(" "));
        assertEquals(2, result.exitCode(), result.describe());
        assertEquals("", result.stdout(), result.describe());
        List<String> lines = result.stderrText().lines().toList();
        assertEquals(1, lines.size(), result.describe());
        assertTrue(lines.get(0).contains(flag), result.describe());
    }

    @Test
    void unparsableConfigFilePrintsOneLineNamingItAndExitsTwo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("broken.conf");
        Files.writeString(file, "pekko.cluster {\n  seed-nodes = [\n");
        ProcessResult result = server("--config", file.toString());
        assertEquals(2, result.exitCode(), result.describe());
        List<String> lines = result.stderrText().lines().toList();
        assertEquals(1, lines.size(), result.describe());
        assertTrue(
                lines.get(0)
                        .startsWith(
                                "Error: invalid argument \"" + file + "\" for \"--config\" flag: "),
                result.describe());
    }

    /**
     * A refused feature gate: kube-apiserver 1.35 sets its gates after parsing the flags and prints
     * component-base's error alone on cobra's line; here too, and the exit code is 2 as for every
     * flag error. SPEC's gates are removed in kube 1.35; a GA gate is locked on.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "RemoveSelfLink=false | unrecognized feature gate: RemoveSelfLink",
                "APIListChunking=true | unrecognized feature gate: APIListChunking",
                "ConsistentListFromCache=false | cannot set feature gate ConsistentListFromCache to false,"
                        + " feature is locked to true",
            })
    void refusedFeatureGatePrintsKubesOneLineAndExitsTwo(String gates, String message) {
        ProcessResult result = server("--feature-gates", gates);
        assertEquals(2, result.exitCode(), result.describe());
        assertEquals("", result.stdout(), result.describe());
        assertEquals(
                List.of("Error: " + message),
                result.stderrText().lines().toList(),
                result.describe());
    }

    /**
     * Issue 26's proof with a real kubectl: the same data directory served again with {@code
     * --runtime-config} drops batch/v1 from {@code kubectl api-versions} and adds the
     * off-by-default networking.k8s.io/v1beta1; the restart also takes a kubelet gate, as
     * kube-apiserver does.
     */
    @Test
    void apiVersionsFollowRuntimeConfigAcrossARestart(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        List<String> before;
        try (ServerProcess server = ServerProcess.start(data)) {
            before = apiVersions(server, dir);
        }
        assertTrue(before.contains("batch/v1"), before.toString());
        assertFalse(before.contains("networking.k8s.io/v1beta1"), before.toString());
        try (ServerProcess server =
                ServerProcess.start(
                        data,
                        List.of(
                                "--runtime-config=batch/v1=false,networking.k8s.io/v1beta1=true",
                                "--feature-gates=InPlacePodVerticalScaling=true"))) {
            List<String> after = apiVersions(server, dir);
            List<String> expected = new ArrayList<>(before);
            expected.remove("batch/v1");
            expected.add("networking.k8s.io/v1beta1");
            Collections.sort(expected);
            assertEquals(expected, after);
        }
    }

    private static List<String> apiVersions(ServerProcess server, Path dir) throws Exception {
        Kubectl kubectl =
                new Kubectl(
                        ClientBinaries.require().kubectl(),
                        server.kubeconfig(),
                        Files.createDirectories(dir.resolve("home")),
                        dir);
        ProcessResult result = kubectl.run("api-versions");
        assertEquals(0, result.exitCode(), result.describe());
        return result.stdout().lines().toList();
    }

    private static ProcessResult server(String... args) {
        return Processes.run(ServerProcess.command(args), null, Map.of(), TIMEOUT);
    }
}
