package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.RepositoryRoot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official JavaScript client, {@code @kubernetes/client-node}, unmodified, with the kubeconfig
 * the server writes: it verifies the server against the kubeconfig's CA (no {@code
 * insecure-skip-tls-verify}) and is the admin by the kubeconfig's client certificate. The client is
 * installed from the npm registry by {@code cluster-config/bin/fetch-node-client}; the test is
 * skipped with the reason when it cannot be had.
 */
class NodeClientE2E {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    private static Path installClient() throws IOException {
        Path root = RepositoryRoot.find();
        ProcessResult fetched =
                Processes.run(
                        List.of(root.resolve("cluster-config/bin/fetch-node-client").toString()),
                        root,
                        Map.of(),
                        Duration.ofMinutes(5));
        Assumptions.assumeTrue(
                fetched.exitCode() == 0 && !fetched.timedOut(),
                () ->
                        "@kubernetes/client-node could not be installed (it needs npm and the npm registry): "
                                + fetched.describe());
        List<String> lines = fetched.stdoutText().lines().toList();
        Path dir = Path.of(lines.get(lines.size() - 1).strip());
        // An ES module resolves its imports from where it lies: next to the installed node_modules.
        try (InputStream script =
                NodeClientE2E.class.getResourceAsStream("/node-client/smoke.mjs")) {
            Files.copy(script, dir.resolve("smoke.mjs"), StandardCopyOption.REPLACE_EXISTING);
        }
        return dir;
    }

    @Test
    void theJavaScriptClientWorksWithTheServersOwnKubeconfig() throws IOException {
        assertFalse(
                Files.readString(SERVER.kubeconfig()).contains("insecure-skip-tls-verify"),
                "the kubeconfig verifies the server");
        Path client = installClient();
        ProcessResult run =
                Processes.run(
                        List.of(
                                "node",
                                client.resolve("smoke.mjs").toString(),
                                SERVER.kubeconfig().toString(),
                                "default",
                                "from-node"),
                        client,
                        Map.of(),
                        Duration.ofMinutes(1));
        assertEquals(0, run.exitCode(), run.describe());
        List<JsonNode> steps = new ArrayList<>();
        for (String line : run.stdoutText().lines().toList()) {
            steps.add(JSON.readTree(line));
        }
        assertEquals(
                List.of("whoami", "list", "create", "read", "delete"),
                steps.stream().map(s -> s.path("step").asText()).toList(),
                run.describe());
        assertEquals("kubernetes-admin", steps.get(0).path("username").asText(), run.describe());
        assertEquals(
                "[\"system:masters\",\"system:authenticated\"]",
                steps.get(0).path("groups").toString(),
                run.describe());
        assertTrue(
                steps.get(1).path("names").toString().contains("\"kube-system\""), run.describe());
        assertEquals(steps.get(2).path("uid"), steps.get(3).path("uid"));
        assertEquals("hello", steps.get(3).path("data").path("greeting").asText());
    }
}
