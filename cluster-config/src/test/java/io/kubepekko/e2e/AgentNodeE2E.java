package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.e2e.support.AgentProcess;
import io.kubepekko.e2e.support.ApiCalls;
import io.kubepekko.e2e.support.KubepodsLock;
import io.kubepekko.e2e.support.LocalContainerd;
import io.kubepekko.e2e.support.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent as a user starts it: the project's containerd ({@code bin/containerd-local}), an API
 * server, and {@code bin/agent --apiserver-data-dir} (the agent as its node, {@code
 * system:node:<name>}): the Node registers Ready with the runtime's version and images, and its
 * Lease in {@code kube-node-lease} is renewed. Needs root (containerd); skipped otherwise and with
 * {@code -DskipE2E}.
 */
@DisabledIfSystemProperty(named = "skipE2E", matches = "true")
class AgentNodeE2E {
    /** Alone on the machine's kubepods cgroups for the whole class. */
    @RegisterExtension static final KubepodsLock KUBEPODS = new KubepodsLock();

    private static final Duration AWAIT = Duration.ofSeconds(90);
    private static final String NODE = "e2e-node";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void anAgentOnContainerdRegistersItsNodeReadyWithTheRuntimeAndRenewsItsLease()
            throws Exception {
        AgentProcess.assumeRoot();
        try (LocalContainerd containerd = LocalContainerd.start(dir.resolve("containerd"));
                ServerProcess server = ServerProcess.start(dir.resolve("server"))) {
            // The test looks as the admin; the agent is its node (system:node:<name>).
            ApiCalls api = new ApiCalls(Duration.ofSeconds(10), server.tls());
            Path log = dir.resolve("agent.log");
            try (AgentProcess agent =
                    AgentProcess.start(
                            server.dataDir(),
                            containerd.endpoint(),
                            dir.resolve("agent"),
                            NODE,
                            log)) {
                JsonNode node =
                        await().atMost(AWAIT)
                                .pollInterval(Duration.ofMillis(500))
                                .alias("node " + NODE + " Ready with a containerd runtime version")
                                .until(() -> nodeIfReady(api, server.url()), n -> n != null);
                assertTrue(
                        node.at("/status/nodeInfo/containerRuntimeVersion")
                                .asText()
                                .startsWith("containerd://1."),
                        node.toString());
                assertEquals(
                        NODE,
                        node.at("/metadata/labels/kubernetes.io~1hostname").asText(),
                        node.toString());
                // It ran as its node: the script issued its kubeconfig from the server's CA.
                assertTrue(
                        Files.readString(dir.resolve("agent/kubeconfig"))
                                .contains("name: system:node:" + NODE + "\n"),
                        "the agent's kubeconfig is its node's");
                List<String> images = names(node);
                assertTrue(images.contains("docker.io/library/busybox:1.36"), images.toString());

                String path =
                        "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/" + NODE;
                String first =
                        await().atMost(AWAIT)
                                .pollInterval(Duration.ofMillis(500))
                                .alias("the node's Lease")
                                .until(() -> renewTime(api, server.url(), path), r -> r != null);
                await().atMost(AWAIT)
                        .pollInterval(Duration.ofMillis(500))
                        .alias("the Lease renewed")
                        .until(
                                () -> renewTime(api, server.url(), path),
                                r -> r != null && !r.equals(first));
                JsonNode lease = api.get(server.url(), path).json();
                assertEquals(40, lease.at("/spec/leaseDurationSeconds").asInt(), lease.toString());
                assertEquals(
                        node.at("/metadata/uid").asText(),
                        lease.at("/metadata/ownerReferences/0/uid").asText(),
                        lease.toString());
            }
        }
    }

    private static JsonNode nodeIfReady(ApiCalls api, String url) {
        ApiCalls.Reply r = api.get(url, "/api/v1/nodes/" + NODE);
        if (r.status() != 200) {
            return null;
        }
        JsonNode node = r.json();
        for (JsonNode c : node.at("/status/conditions")) {
            if (c.path("type").asText().equals("Ready")
                    && c.path("status").asText().equals("True")
                    && !node.at("/status/nodeInfo/containerRuntimeVersion").asText().isEmpty()) {
                return node;
            }
        }
        return null;
    }

    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        for (JsonNode image : node.at("/status/images")) {
            image.path("names").forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static String renewTime(ApiCalls api, String url, String path) {
        ApiCalls.Reply r = api.get(url, path);
        return r.status() == 200 && r.json().at("/spec/renewTime").isTextual()
                ? r.json().at("/spec/renewTime").asText()
                : null;
    }
}
