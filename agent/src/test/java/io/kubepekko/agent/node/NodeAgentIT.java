package io.kubepekko.agent.node;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.api.TestKubeconfigs;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The node actors against a real API server in-process: registration, status, lease,
 * re-registration, and an API server that is not there yet. Intervals are shortened through the
 * settings.
 */
class NodeAgentIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static ActorTestKit kit;
    private static ApiServer server;
    private static Path dataDir;
    private static ApiClient client;

    @BeforeAll
    static void start() throws Exception {
        kit = ActorTestKit.create();
        dataDir = Files.createTempDirectory("kubepekko-agent-it-");
        server =
                ApiServer.start(
                        new ApiServerSettings(
                                dataDir, "127.0.0.1", 0, Duration.ZERO, Duration.ZERO));
        client = TestKubeconfigs.client(TestKubeconfigs.admin(server));
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
        server.close();
    }

    /** The agent's client of node {@code name}: its node certificate, as a kubelet's. */
    private static ApiClient nodeClient(String name) throws Exception {
        return TestKubeconfigs.client(TestKubeconfigs.node(server, name));
    }

    /** The runtime's answers, changeable by the test. */
    static final class FakeRuntime implements RuntimeFacts {
        volatile String version = "1.6.20";
        volatile boolean down;
        volatile boolean networkReady = true;

        @Override
        public CompletionStage<List<Condition>> status() {
            Condition network =
                    networkReady
                            ? new Condition("NetworkReady", true, "", "")
                            : new Condition(
                                    "NetworkReady",
                                    false,
                                    "NetworkPluginNotReady",
                                    "Network plugin returns error: cni plugin not initialized");
            return down
                    ? CompletableFuture.failedFuture(
                            new IllegalStateException("connection refused"))
                    : CompletableFuture.completedFuture(
                            List.of(new Condition("RuntimeReady", true, "", ""), network));
        }

        @Override
        public CompletionStage<Version> version() {
            return down
                    ? CompletableFuture.failedFuture(
                            new IllegalStateException("connection refused"))
                    : CompletableFuture.completedFuture(new Version("containerd", version));
        }

        @Override
        public CompletionStage<List<Image>> images() {
            return CompletableFuture.completedFuture(
                    List.of(new Image(List.of("registry.k8s.io/pause:3.10"), List.of(), 700_000)));
        }
    }

    private static NodeAgentSettings settings(
            String name, boolean schedulable, Duration runtimeDownAfter) {
        return new NodeAgentSettings(
                new NodeIdentity(
                        name,
                        "linux",
                        "amd64",
                        Map.of("tier", "edge"),
                        Optional.of("kubepekko://" + name),
                        schedulable),
                true,
                List.of(InetAddress.getLoopbackAddress()),
                110,
                NodeAgentSettings.KUBELET_PORT,
                "v0.1.0-test",
                Duration.ofMillis(200),
                Duration.ofMinutes(5),
                Duration.ofMillis(300),
                runtimeDownAfter,
                dataDir);
    }

    private static Queue<NodeEvent> start(ApiClient c, RuntimeFacts runtime, NodeAgentSettings s) {
        Queue<NodeEvent> events = new ConcurrentLinkedQueue<>();
        ActorRef<NodeEvent> sink =
                kit.spawn(
                        Behaviors.receiveMessage(
                                e -> {
                                    events.add(e);
                                    return Behaviors.same();
                                }));
        kit.spawn(
                NodeAgent.create(c, runtime, s, sink, Clock.systemUTC()),
                "node-" + s.identity().name());
        return events;
    }

    private static Optional<ObjectNode> get(String path) throws Exception {
        try {
            return Optional.of(client.get(path).toCompletableFuture().get(10, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            if (ApiError.of(e).isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static ObjectNode node(String name) throws Exception {
        return get(Resource.NODES.object(null, name))
                .orElseThrow(() -> new AssertionError("no node " + name));
    }

    private static ObjectNode lease(String name) throws Exception {
        return get(Resource.LEASES.object(NodeLease.NAMESPACE, name))
                .orElseThrow(() -> new AssertionError("no lease " + name));
    }

    private static long synced(Queue<NodeEvent> events, boolean patched) {
        return events.stream()
                .filter(e -> e instanceof NodeEvent.StatusSynced s && s.patched() == patched)
                .count();
    }

    private static JsonNode condition(ObjectNode node, String type) {
        for (JsonNode c : node.path("status").path("conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return node.missingNode();
    }

    @Test
    void registersTheNodeReportsItsStatusOnChangeOnlyAndKeepsItsLease() throws Exception {
        FakeRuntime runtime = new FakeRuntime();
        Queue<NodeEvent> events =
                start(
                        nodeClient("node-a"),
                        runtime,
                        settings("node-a", false, Duration.ofSeconds(30)));

        await().atMost(DEADLINE).until(() -> synced(events, true) >= 1);
        ObjectNode node = node("node-a");
        JsonNode labels = node.path("metadata").path("labels");
        assertEquals("node-a", labels.path("kubernetes.io/hostname").asText());
        assertEquals("linux", labels.path("kubernetes.io/os").asText());
        assertEquals("amd64", labels.path("kubernetes.io/arch").asText());
        assertEquals("edge", labels.path("tier").asText());
        assertEquals("kubepekko://node-a", node.path("spec").path("providerID").asText());
        assertTrue(node.path("spec").path("unschedulable").asBoolean());
        JsonNode status = node.path("status");
        assertEquals("110", status.path("capacity").path("pods").asText());
        assertEquals(
                "containerd://1.6.20",
                status.path("nodeInfo").path("containerRuntimeVersion").asText());
        assertEquals("v0.1.0-test", status.path("nodeInfo").path("kubeletVersion").asText());
        assertEquals("127.0.0.1", status.path("addresses").get(0).path("address").asText());
        assertEquals(
                10250, status.path("daemonEndpoints").path("kubeletEndpoint").path("Port").asInt());
        assertEquals(
                "registry.k8s.io/pause:3.10",
                status.path("images").get(0).path("names").get(0).asText());
        assertEquals("True", condition(node, "Ready").path("status").asText());
        assertEquals("False", condition(node, "MemoryPressure").path("status").asText());

        // Nothing changes: syncs go on, the Node is not written.
        String rv = node.path("metadata").path("resourceVersion").asText();
        long quiet = synced(events, false);
        await().atMost(DEADLINE).until(() -> synced(events, false) >= quiet + 3);
        assertEquals(rv, node("node-a").path("metadata").path("resourceVersion").asText());

        // A change is written on the next sync.
        runtime.version = "1.7.0";
        await().atMost(DEADLINE)
                .until(
                        () ->
                                node("node-a")
                                        .path("status")
                                        .path("nodeInfo")
                                        .path("containerRuntimeVersion")
                                        .asText()
                                        .equals("containerd://1.7.0"));

        // The Lease: created, owned by the Node, renewed.
        String uid = node.path("metadata").path("uid").asText();
        await().atMost(DEADLINE)
                .until(
                        () ->
                                get(Resource.LEASES.object(NodeLease.NAMESPACE, "node-a"))
                                        .isPresent());
        ObjectNode lease = lease("node-a");
        assertEquals("node-a", lease.path("spec").path("holderIdentity").asText());
        assertEquals(40, lease.path("spec").path("leaseDurationSeconds").asInt());
        JsonNode owner = lease.path("metadata").path("ownerReferences").get(0);
        assertEquals("v1", owner.path("apiVersion").asText());
        assertEquals("Node", owner.path("kind").asText());
        assertEquals("node-a", owner.path("name").asText());
        assertEquals(uid, owner.path("uid").asText());
        String renewed = lease.path("spec").path("renewTime").asText();
        await().atMost(DEADLINE)
                .until(
                        () ->
                                !lease("node-a")
                                        .path("spec")
                                        .path("renewTime")
                                        .asText()
                                        .equals(renewed));
    }

    @Test
    void aSilentRuntimeMakesTheNodeNotReadyAsTheKubeletSays() throws Exception {
        FakeRuntime runtime = new FakeRuntime();
        start(nodeClient("node-c"), runtime, settings("node-c", true, Duration.ofMillis(500)));
        await().atMost(DEADLINE)
                .until(
                        () ->
                                get(Resource.NODES.object(null, "node-c"))
                                        .map(
                                                n ->
                                                        condition(n, "Ready")
                                                                .path("status")
                                                                .asText()
                                                                .equals("True"))
                                        .orElse(false));
        runtime.down = true;
        await().atMost(DEADLINE)
                .until(
                        () ->
                                condition(node("node-c"), "Ready")
                                        .path("status")
                                        .asText()
                                        .equals("False"));
        JsonNode ready = condition(node("node-c"), "Ready");
        assertEquals("KubeletNotReady", ready.path("reason").asText());
        assertEquals("container runtime is down", ready.path("message").asText());
        runtime.down = false;
        await().atMost(DEADLINE)
                .until(
                        () ->
                                condition(node("node-c"), "Ready")
                                        .path("status")
                                        .asText()
                                        .equals("True"));
    }

    @Test
    void aRuntimeThatAnswersWithoutANetworkMakesTheNodeNotReadyWithTheRuntimesCondition()
            throws Exception {
        FakeRuntime runtime = new FakeRuntime();
        runtime.networkReady = false;
        start(nodeClient("node-d"), runtime, settings("node-d", true, Duration.ofSeconds(30)));
        await().atMost(DEADLINE)
                .until(
                        () ->
                                get(Resource.NODES.object(null, "node-d"))
                                        .map(
                                                n ->
                                                        condition(n, "Ready")
                                                                .path("message")
                                                                .asText()
                                                                .startsWith(
                                                                        "container runtime network"))
                                        .orElse(false));
        JsonNode ready = condition(node("node-d"), "Ready");
        assertEquals("False", ready.path("status").asText());
        assertEquals("KubeletNotReady", ready.path("reason").asText());
        assertEquals(
                "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady "
                        + "message:Network plugin returns error: cni plugin not initialized",
                ready.path("message").asText());
        runtime.networkReady = true;
        await().atMost(DEADLINE)
                .until(
                        () ->
                                condition(node("node-d"), "Ready")
                                        .path("status")
                                        .asText()
                                        .equals("True"));
    }

    @Test
    void aDeletedNodeIsRegisteredAgain() throws Exception {
        Queue<NodeEvent> events =
                start(
                        nodeClient("node-b"),
                        new FakeRuntime(),
                        settings("node-b", true, Duration.ofSeconds(30)));
        await().atMost(DEADLINE).until(() -> synced(events, true) >= 1);
        String uid = node("node-b").path("metadata").path("uid").asText();
        client.delete(Resource.NODES.object(null, "node-b"), DeleteOptions.NONE)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        await().atMost(DEADLINE)
                .until(
                        () ->
                                get(Resource.NODES.object(null, "node-b"))
                                        .map(
                                                n ->
                                                        !n.path("metadata")
                                                                        .path("uid")
                                                                        .asText()
                                                                        .equals(uid)
                                                                && condition(n, "Ready")
                                                                        .path("status")
                                                                        .asText()
                                                                        .equals("True"))
                                        .orElse(false));
        assertEquals(
                "node-b",
                node("node-b")
                        .path("metadata")
                        .path("labels")
                        .path("kubernetes.io/hostname")
                        .asText());
    }

    @Test
    void keepsTryingUntilTheApiServerIsThereThenRegisters() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        // The agent's kubeconfig names a server that is not there yet; the server that comes
        // shares the first one's CAs, as the servers of one cluster do.
        ApiClient later =
                TestKubeconfigs.client(
                        TestKubeconfigs.node(
                                dataDir, "node-late", Optional.of("https://127.0.0.1:" + port)));
        Queue<NodeEvent> events =
                start(
                        later,
                        new FakeRuntime(),
                        settings("node-late", true, Duration.ofSeconds(30)));
        Path dir = Files.createTempDirectory("kubepekko-agent-it-late-");
        await().atMost(DEADLINE).until(() -> events.isEmpty());
        Pki.share(dataDir, dir);
        try (ApiServer late =
                ApiServer.start(
                        new ApiServerSettings(
                                dir, "127.0.0.1", port, Duration.ZERO, Duration.ZERO))) {
            ApiClient direct = TestKubeconfigs.client(TestKubeconfigs.admin(late));
            await().atMost(DEADLINE)
                    .until(() -> events.stream().anyMatch(e -> e instanceof NodeEvent.Registered));
            await().atMost(DEADLINE)
                    .until(
                            () ->
                                    events.stream()
                                                    .anyMatch(
                                                            e ->
                                                                    e
                                                                            instanceof
                                                                            NodeEvent.LeaseRenewed)
                                            && synced(events, true) >= 1);
            ObjectNode n =
                    direct.get(Resource.NODES.object(null, "node-late"))
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS);
            assertEquals("True", condition(n, "Ready").path("status").asText());
        }
    }
}
