package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.e2e.support.AgentProcess;
import io.kubepekko.e2e.support.ApiCalls;
import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.KubepodsLock;
import io.kubepekko.e2e.support.LocalContainerd;
import io.kubepekko.e2e.support.NodeCgroups;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod through the whole stack: the real kubectl applies a busybox pod bound to the agent's node,
 * the agent ({@code bin/agent}) runs it on the project's containerd ({@code bin/containerd-local})
 * and writes its status back (Running, a pod IP from the CNI bridge); {@code kubectl delete}
 * (default grace) returns once the agent has stopped it and deleted the object, and containerd is
 * left with none of its containers and the node with none of its cgroups. The app's output is in
 * CRI format under the agent's {@code --root-dir}, rotated at {@code --container-log-max-size}, and
 * its log directory goes with the pod. Needs root (containerd); skipped otherwise and with {@code
 * -DskipE2E}.
 */
@DisabledIfSystemProperty(named = "skipE2E", matches = "true")
class AgentPodE2E {
    /** Alone on the machine's kubepods cgroups for the whole class. */
    @RegisterExtension static final KubepodsLock KUBEPODS = new KubepodsLock();

    private static final Duration AWAIT = Duration.ofSeconds(120);
    private static final String NODE = "e2e-pod-node";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aBusyboxPodAppliedWithKubectlRunsOnTheAgentAndKubectlDeleteRemovesIt() throws Exception {
        AgentProcess.assumeRoot();
        ClientBinaries clients = ClientBinaries.require();
        try (LocalContainerd containerd = LocalContainerd.start(dir.resolve("containerd"));
                ServerProcess server = ServerProcess.start(dir.resolve("server"))) {
            // The test looks as the admin; the agent is its node (system:node:<name>).
            ApiCalls api = new ApiCalls(Duration.ofSeconds(10), server.tls());
            Kubectl kubectl =
                    new Kubectl(clients.kubectl(), server.kubeconfig(), dir, dir)
                            .withTimeout(AWAIT);
            Path log = dir.resolve("agent.log");
            // small enough that the app's output is rotated within the test
            try (AgentProcess agent =
                    AgentProcess.start(
                            server.dataDir(),
                            containerd.endpoint(),
                            dir.resolve("agent"),
                            NODE,
                            log,
                            "--container-log-max-size",
                            "1Ki",
                            "--container-log-max-files",
                            "2")) {
                Path manifest = dir.resolve("pod.yaml");
                Files.writeString(
                        manifest,
                        """
                        apiVersion: v1
                        kind: Pod
                        metadata:
                          name: hello
                          namespace: default
                        spec:
                          nodeName: %s
                          containers:
                          - name: app
                            image: docker.io/library/busybox:1.36
                            imagePullPolicy: IfNotPresent
                            command: ["sh", "-c", "trap 'exit 0' TERM; i=0; while true; do echo hello-from-app $i; i=$((i+1)); sleep 1; done"]
                        """
                                .formatted(NODE));
                ProcessResult apply = kubectl.run("apply", "-f", manifest.toString());
                assertEquals(0, apply.exitCode(), apply.describe());
                assertEquals("pod/hello created", apply.stdoutText(), apply.describe());

                JsonNode pod =
                        await().atMost(AWAIT)
                                .pollInterval(Duration.ofMillis(500))
                                .alias("pod hello Running with a pod IP")
                                .until(() -> runningPod(api, server.url()), p -> p != null);
                JsonNode app = pod.at("/status/containerStatuses/0");
                assertTrue(app.at("/state/running").isObject(), pod.toString());
                assertTrue(
                        app.path("containerID").asText().startsWith("containerd://"),
                        pod.toString());
                assertFalse(pod.at("/status/hostIP").asText().isEmpty(), pod.toString());

                String uid = pod.at("/metadata/uid").asText();
                assertFalse(
                        NodeCgroups.ofPod(uid).isEmpty(),
                        "the pod runs in its cgroup kubepods/besteffort/pod" + uid);

                ProcessResult get =
                        kubectl.run(
                                "get",
                                "pod",
                                "hello",
                                "-o",
                                "jsonpath={.status.phase} {.status.podIP}");
                assertEquals(
                        "Running " + pod.at("/status/podIP").asText(),
                        get.stdoutText(),
                        get.describe());

                // containerd writes the app's output in CRI format under the agent's root dir; the
                // agent rotates it.
                Path logs =
                        dir.resolve(
                                "agent/pod-logs/default_hello_" + pod.at("/metadata/uid").asText());
                Path appLogs = logs.resolve("app");
                await().atMost(AWAIT)
                        .pollInterval(Duration.ofMillis(500))
                        .alias("the app's output in 0.log")
                        .until(
                                () ->
                                        Files.exists(appLogs.resolve("0.log"))
                                                && Files.readString(appLogs.resolve("0.log"))
                                                        .matches(
                                                                "(?s)\\S+ stdout F hello-from-app \\d+\n.*"));
                await().atMost(AWAIT)
                        .pollInterval(Duration.ofMillis(500))
                        .alias("0.log rotated to 0.log.<timestamp>")
                        .until(
                                () ->
                                        names(appLogs).stream()
                                                .anyMatch(
                                                        n -> n.matches("0\\.log\\.\\d{8}-\\d{6}")));
                assertTrue(
                        names(appLogs).size() <= 2,
                        "at most --container-log-max-files: " + names(appLogs));

                // kubectl waits until the object is gone: only the agent's zero-grace delete
                // removes it.
                ProcessResult delete = kubectl.run("delete", "pod", "hello");
                assertEquals(0, delete.exitCode(), delete.describe());
                assertEquals(
                        "pod \"hello\" deleted from default namespace",
                        delete.stdoutText().strip(),
                        delete.describe());
                assertEquals(
                        404,
                        api.get(server.url(), "/api/v1/namespaces/default/pods/hello").status());
                ProcessResult containers = containerd.ctr("-n", "k8s.io", "containers", "ls", "-q");
                assertEquals(0, containers.exitCode(), containers.describe());
                assertEquals(
                        "",
                        containers.stdoutText().strip(),
                        "no container or sandbox left: " + containers.describe());
                // removed before the object was: kubectl returned after that
                assertEquals(
                        List.of(),
                        NodeCgroups.ofPod(uid),
                        "the pod's cgroup is gone from every hierarchy");
                await().atMost(Duration.ofSeconds(10))
                        .alias("the pod's log directory goes with it")
                        .until(() -> !Files.exists(logs));
            }
        }
    }

    private static JsonNode runningPod(ApiCalls api, String url) {
        ApiCalls.Reply r = api.get(url, "/api/v1/namespaces/default/pods/hello");
        if (r.status() != 200) {
            return null;
        }
        JsonNode pod = r.json();
        return pod.at("/status/phase").asText().equals("Running")
                        && !pod.at("/status/podIP").asText().isEmpty()
                ? pod
                : null;
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
