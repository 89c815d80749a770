package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real helm 4's release bookkeeping, which goes through its typed client in protobuf: the
 * release Secrets are created (POST), superseded (PUT), listed, and deleted with protobuf
 * DeleteOptions on uninstall. Chart resources go through client-side apply here ({@code
 * --server-side=false}: creates, then strategic merge patches); server-side apply is the apply
 * issue's.
 */
class HelmReleaseE2E {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    @Test
    void installUpgradeAndUninstallKeepTheReleaseSecrets() throws IOException {
        ClientBinaries clients = ClientBinaries.require();
        Path chart = Files.createDirectories(SERVER.scratch().resolve("chart/templates"));
        Files.writeString(
                chart.getParent().resolve("Chart.yaml"),
                "apiVersion: v2\nname: demo\nversion: 0.1.0\n");
        Files.writeString(
                chart.resolve("cm.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
                        + "  name: {{ .Release.Name }}-settings\ndata:\n  mode: {{ .Values.mode | default \"fast\" }}\n");
        Kubectl kubectl =
                new Kubectl(
                        clients.kubectl(), SERVER.kubeconfig(), SERVER.scratch(), SERVER.scratch());
        String chartDir = chart.getParent().toString();

        ok(helm(clients, "install", "r1", chartDir, "--server-side=false"));
        // A changed value: helm sends the ConfigMap a three-way strategic merge patch.
        ok(helm(clients, "upgrade", "r1", chartDir, "--server-side=false", "--set", "mode=slow"));
        ProcessResult list = ok(helm(clients, "list"));
        assertTrue(
                list.stdout()
                        .lines()
                        .anyMatch(
                                l -> l.matches("r1\\s+default\\s+2\\s+.*deployed\\s+demo-0.1.0.*")),
                list.describe());
        ProcessResult secrets =
                ok(
                        kubectl.run(
                                "get",
                                "secrets",
                                "-l",
                                "owner=helm",
                                "-o",
                                "jsonpath={range .items[*]}{.metadata.name} {.type} {.metadata.labels.status}{\"\\n\"}{end}"));
        assertEquals(
                List.of(
                        "sh.helm.release.v1.r1.v1 helm.sh/release.v1 superseded",
                        "sh.helm.release.v1.r1.v2 helm.sh/release.v1 deployed"),
                secrets.stdout().lines().toList(),
                secrets.describe());
        assertEquals(
                "slow",
                ok(kubectl.run("get", "cm", "r1-settings", "-o", "jsonpath={.data.mode}"))
                        .stdoutText());

        ok(helm(clients, "uninstall", "r1"));
        assertEquals(
                "",
                ok(kubectl.run("get", "secrets,cm", "-l", "owner=helm", "-o", "name"))
                        .stdoutText());
        assertEquals(
                1,
                kubectl.run("get", "cm", "r1-settings").exitCode(),
                "the chart's objects are gone");
    }

    private static ProcessResult helm(ClientBinaries clients, String... args) {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                clients.helm().toString(),
                                "--kubeconfig",
                                SERVER.kubeconfig().toString()));
        command.addAll(List.of(args));
        Map<String, String> env = new HashMap<>();
        env.put("HOME", SERVER.scratch().toString());
        env.put("KUBECONFIG", null);
        env.put("HELM_CACHE_HOME", SERVER.scratch().resolve("helm-cache").toString());
        env.put("HELM_CONFIG_HOME", SERVER.scratch().resolve("helm-config").toString());
        env.put("HELM_DATA_HOME", SERVER.scratch().resolve("helm-data").toString());
        return Processes.run(command, SERVER.scratch(), env, TIMEOUT);
    }

    private static ProcessResult ok(ProcessResult result) {
        assertEquals(0, result.exitCode(), result.describe());
        return result;
    }
}
