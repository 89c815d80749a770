package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.kubepekko.agent.node.NodeAgentSettings;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent killed with SIGKILL ({@code bin/agent} execs the JVM) while a busybox pod runs on the
 * project's containerd, then started again on the same {@code --root-dir}: the pod's container
 * keeps running and is adopted (same container id, restartCount unchanged, its status written
 * again), and a pod force-deleted while the agent was down is removed from containerd with its log
 * directory and its cgroup (the pod adopted goes with its cgroup when deleted; after {@code
 * containerd-local stop} no empty cgroup is left under {@code kubepods}). Then containerd itself is
 * stopped under the agent (the daemon only, as {@code systemctl restart containerd}): the Node goes
 * not Ready as the kubelet says it, the pod keeps running unchanged, and once containerd is back
 * the Node is Ready again and the agent runs new pods on it. Needs root (containerd); skipped
 * otherwise and with {@code -DskipE2E}.
 */
@DisabledIfSystemProperty(named = "skipE2E", matches = "true")
class AgentRestartE2E {
    /** Alone on the machine's kubepods cgroups for the whole class. */
    @RegisterExtension static final KubepodsLock KUBEPODS = new KubepodsLock();

    private static final Duration AWAIT = Duration.ofSeconds(120);
    private static final String NODE = "e2e-restart-node";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void
            aKilledAgentRestartedAdoptsTheRunningContainerAndRemovesAPodDeletedMeanwhileAndOutlivesAContainerdRestart()
                    throws Exception {
        AgentProcess.assumeRoot();
        ClientBinaries clients = ClientBinaries.require();
        try (LocalContainerd containerd = LocalContainerd.start(dir.resolve("containerd"));
                ServerProcess server = ServerProcess.start(dir.resolve("server"))) {
            // The test looks as the admin; the agent is its node (system:node:<name>).
            ApiCalls api = new ApiCalls(Duration.ofSeconds(10), server.tls());
            Kubectl kubectl =
                    new Kubectl(clients.kubectl(), server.kubeconfig(), dir, dir)
                            .withTimeout(AWAIT);
            AgentProcess first = startAgent(server, containerd, dir.resolve("agent-1.log"));
            JsonNode steady;
            JsonNode gone;
            try {
                Path manifest = dir.resolve("pods.yaml");
                Files.writeString(manifest, pod("steady") + "---\n" + pod("gone"));
                ProcessResult apply = kubectl.run("apply", "-f", manifest.toString());
                assertEquals(0, apply.exitCode(), apply.describe());
                steady =
                        await().atMost(AWAIT)
                                .pollInterval(Duration.ofMillis(500))
                                .alias("pod steady Running")
                                .until(
                                        () -> runningPod(api, server.url(), "steady"),
                                        p -> p != null);
                gone =
                        await().atMost(AWAIT)
                                .pollInterval(Duration.ofMillis(500))
                                .alias("pod gone Running")
                                .until(() -> runningPod(api, server.url(), "gone"), p -> p != null);
            } finally {
                first.kill();
            }
            String steadyId = containerId(steady);
            String goneId = containerId(gone);
            assertTrue(
                    containers(containerd).contains(steadyId), "the container outlives the agent");

            // While the agent is down: the status it wrote goes stale, and one pod is
            // force-deleted.
            ApiCalls.Reply patched =
                    api.mergePatch(
                            server.url(),
                            "/api/v1/namespaces/default/pods/steady/status",
                            "{\"status\":{\"containerStatuses\":[]}}");
            assertEquals(200, patched.status(), patched.toString());
            ProcessResult delete =
                    kubectl.run("delete", "pod", "gone", "--grace-period=0", "--force");
            assertEquals(0, delete.exitCode(), delete.describe());
            Path goneLogs =
                    dir.resolve("agent/pod-logs/default_gone_" + gone.at("/metadata/uid").asText());
            assertTrue(Files.isDirectory(goneLogs), goneLogs.toString());

            Path log = dir.resolve("agent-2.log");
            // A short status period, and the runtime down after 6 s without an answer instead of
            // the kubelet's 30 s (RuntimeHealthTest holds the kubelet's): the Node's Ready follows
            // the runtime within seconds.
            try (AgentProcess second =
                    AgentProcess.start(
                            server.dataDir(),
                            containerd.endpoint(),
                            dir.resolve("agent"),
                            NODE,
                            log,
                            List.of(NodeAgentSettings.RUNTIME_DOWN_AFTER + "=6s"),
                            "--node-status-update-frequency",
                            "2s")) {
                JsonNode adopted =
                        await().atMost(AWAIT)
                                .pollInterval(Duration.ofMillis(500))
                                .alias("pod steady's status written again")
                                .until(
                                        () -> runningPod(api, server.url(), "steady"),
                                        p -> p != null);
                JsonNode app = adopted.at("/status/containerStatuses/0");
                assertEquals(
                        "containerd://" + steadyId,
                        app.path("containerID").asText(),
                        adopted.toString());
                assertEquals(
                        steady.at("/status/containerStatuses/0/restartCount").asInt(),
                        app.path("restartCount").asInt(),
                        adopted.toString());
                String goneUid = gone.at("/metadata/uid").asText();
                await().atMost(AWAIT)
                        .pollInterval(Duration.ofMillis(500))
                        .alias("the deleted pod's container removed")
                        .until(
                                () ->
                                        !containers(containerd).contains(goneId)
                                                && !Files.exists(goneLogs)
                                                && NodeCgroups.ofPod(goneUid).isEmpty());
                assertTrue(
                        containers(containerd).contains(steadyId),
                        "the adopted container still there");

                containerdRestartedUnderTheAgent(
                        api,
                        server,
                        containerd,
                        kubectl,
                        steadyId,
                        app.path("restartCount").asInt());

                ProcessResult cleanup = kubectl.run("delete", "pod", "steady");
                assertEquals(0, cleanup.exitCode(), cleanup.describe());
                assertEquals(
                        List.of(),
                        NodeCgroups.ofPod(steady.at("/metadata/uid").asText()),
                        "the adopted pod's cgroup went with it");
            }
        }
        assertEquals(
                List.of(),
                NodeCgroups.emptyUnderKubepods(),
                "containerd-local stop left no empty cgroup under kubepods");
    }

    /**
     * containerd's daemon stopped while pod steady runs: after the runtime-down threshold without
     * an answer (the kubelet's 30 s, here shortened) the Node is not Ready with the kubelet's
     * reason and message (pkg/kubelet/nodestatus/setters.go ReadyCondition with
     * pkg/kubelet/runtime.go's "container runtime is down"), and the pod's status is left as it
     * was; started again, containerd still runs the same container, the Node is Ready again and the
     * agent's CRI client works (a new pod runs).
     */
    private void containerdRestartedUnderTheAgent(
            ApiCalls api,
            ServerProcess server,
            LocalContainerd containerd,
            Kubectl kubectl,
            String steadyId,
            int restarts)
            throws Exception {
        await().atMost(AWAIT)
                .pollInterval(Duration.ofMillis(500))
                .alias("node Ready")
                .until(() -> "True".equals(ready(api, server.url()).path("status").asText()));
        ProcessResult stopped = containerd.stopDaemon();
        assertEquals(0, stopped.exitCode(), stopped.describe());
        JsonNode notReady =
                await().atMost(AWAIT)
                        .pollInterval(Duration.ofMillis(500))
                        .alias("node not Ready")
                        .until(
                                () -> ready(api, server.url()),
                                c -> "False".equals(c.path("status").asText()));
        assertEquals("KubeletNotReady", notReady.path("reason").asText(), notReady.toString());
        assertEquals(
                "container runtime is down",
                notReady.path("message").asText(),
                notReady.toString());
        JsonNode meanwhile = runningPod(api, server.url(), "steady");
        assertTrue(meanwhile != null, "pod steady still Running while containerd is down");
        assertEquals(
                "containerd://" + steadyId,
                meanwhile.at("/status/containerStatuses/0/containerID").asText());

        ProcessResult started = containerd.startAgain();
        assertTrue(LocalContainerd.endpointOf(started).isPresent(), started.describe());
        await().atMost(AWAIT)
                .pollInterval(Duration.ofMillis(500))
                .alias("node Ready again")
                .until(() -> "True".equals(ready(api, server.url()).path("status").asText()));
        JsonNode after = runningPod(api, server.url(), "steady");
        assertTrue(after != null, "pod steady Running after containerd's restart");
        assertEquals(
                "containerd://" + steadyId,
                after.at("/status/containerStatuses/0/containerID").asText(),
                after.toString());
        assertEquals(
                restarts,
                after.at("/status/containerStatuses/0/restartCount").asInt(),
                after.toString());
        assertTrue(
                containers(containerd).contains(steadyId),
                "the container survived containerd's restart");

        Path later = dir.resolve("later.yaml");
        Files.writeString(later, pod("later"));
        ProcessResult apply = kubectl.run("apply", "-f", later.toString());
        assertEquals(0, apply.exitCode(), apply.describe());
        await().atMost(AWAIT)
                .pollInterval(Duration.ofMillis(500))
                .alias("a pod created after the restart Running")
                .until(() -> runningPod(api, server.url(), "later"), p -> p != null);
        ProcessResult delete = kubectl.run("delete", "pod", "later");
        assertEquals(0, delete.exitCode(), delete.describe());
    }

    private static JsonNode ready(ApiCalls api, String url) {
        ApiCalls.Reply r = api.get(url, "/api/v1/nodes/" + NODE);
        if (r.status() == 200) {
            for (JsonNode c : r.json().at("/status/conditions")) {
                if ("Ready".equals(c.path("type").asText())) {
                    return c;
                }
            }
        }
        return MissingNode.getInstance();
    }

    private AgentProcess startAgent(
            ServerProcess server, LocalContainerd containerd, Path log, String... flags)
            throws IOException {
        return AgentProcess.start(
                server.dataDir(), containerd.endpoint(), dir.resolve("agent"), NODE, log, flags);
    }

    private static String pod(String name) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: default
                spec:
                  nodeName: %s
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: docker.io/library/busybox:1.36
                    imagePullPolicy: IfNotPresent
                    command: ["sleep", "3600"]
                """
                .formatted(name, NODE);
    }

    private static String containerId(JsonNode pod) {
        return pod.at("/status/containerStatuses/0/containerID")
                .asText()
                .substring("containerd://".length());
    }

    private static List<String> containers(LocalContainerd containerd) {
        ProcessResult ls = containerd.ctr("-n", "k8s.io", "containers", "ls", "-q");
        assertEquals(0, ls.exitCode(), ls.describe());
        return ls.stdoutText().lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * The pod once Running with a running container (its status as the agent wrote it), else null.
     */
    private static JsonNode runningPod(ApiCalls api, String url, String name) {
        ApiCalls.Reply r = api.get(url, "/api/v1/namespaces/default/pods/" + name);
        if (r.status() != 200) {
            return null;
        }
        JsonNode pod = r.json();
        return pod.at("/status/phase").asText().equals("Running")
                        && pod.at("/status/containerStatuses/0/state/running").isObject()
                ? pod
                : null;
    }
}
