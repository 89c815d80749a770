package io.kubepekko.agent.manager;

import static io.kubepekko.agent.manager.TestApi.sync;
import static io.kubepekko.agent.manager.TestApi.yaml;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.PatchType;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.ContainerMetadata;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ImageSpec;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxMetadata;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodCgroups;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.agent.runtime.SandboxConfigs;
import io.kubepekko.agent.worker.PodWorkerSettings;
import io.kubepekko.http.server.ApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The agent restarted (as after {@code kill -9}: its actors gone, the runtime's containers left
 * running) against the same runtime ({@link FakeCri}) and a real API server in-process: what runs
 * is adopted, not restarted; what changed in the API meanwhile is caught up with; what the runtime
 * holds of pods that no longer exist is removed, and nothing else is touched. Each test has its own
 * node, runtime and root directory.
 */
class AgentRestartIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final PodWorkerSettings SETTINGS =
            PodWorkerSettings.DEFAULT
                    .withRelistPeriod(Duration.ofMillis(100))
                    .withBackOff(Duration.ofMillis(10), Duration.ofMillis(20));

    private static Path dir;
    private static ApiServer server;
    private static TestApi api;
    private static ApiClient client;
    private static ScheduledExecutorService scheduler;

    private String nodeName;
    private FakeCri fake;
    private Path root;
    private Path memoryCgroups;
    private Path unifiedCgroups;
    private ActorTestKit agent;

    @BeforeAll
    static void startServer() throws Exception {
        dir = Files.createTempDirectory("kubepekko-agent-restart-it-");
        api = TestApi.start(dir);
        server = api.server;
        client = api.client;
        scheduler = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void stopServer() {
        scheduler.shutdownNow();
        server.close();
    }

    @BeforeEach
    void startRuntime(TestInfo test) throws Exception {
        String method = test.getTestMethod().orElseThrow().getName();
        nodeName = "node-" + Integer.toHexString(method.hashCode());
        Path mine = Files.createDirectories(dir.resolve(nodeName));
        fake = FakeCri.start(mine.resolve("cri.sock"));
        root = mine.resolve("root");
        memoryCgroups = mine.resolve("cgroup/memory");
        unifiedCgroups = mine.resolve("cgroup/unified");
    }

    @AfterEach
    void stopRuntime() {
        if (agent != null) {
            agent.shutdownTestKit();
            agent = null;
        }
        fake.close();
    }

    /** One run of the agent's pod side: its own actor system, as one process would have. */
    private void startAgent() throws Exception {
        agent = ActorTestKit.create();
        NodeContext node =
                new NodeContext(
                        nodeName,
                        root,
                        List.of("192.168.1.10"),
                        List.of(),
                        "",
                        ResolvConf.parse("nameserver 10.0.0.2\n"),
                        8L << 30,
                        4000,
                        8L << 30,
                        100L << 30,
                        PodCgroups.of(List.of(memoryCgroups, unifiedCgroups)));
        // The agent as a kubelet: its node's identity, confined by the Node authorizer.
        ApiClient agentClient = api.nodeClient(nodeName);
        ActorRef<StatusManager.Command> status =
                agent.spawn(StatusManager.create(agentClient), "status");
        agent.spawn(
                PodManager.create(
                        agentClient,
                        fake.client(),
                        node,
                        status,
                        Clock.systemUTC(),
                        SETTINGS,
                        scheduler),
                "pods");
    }

    /**
     * The agent process dies: nothing of it runs any more, and it stops nothing in the runtime on
     * the way out.
     */
    private void killAgent() {
        agent.shutdownTestKit();
        agent = null;
    }

    private String createPod(String name) throws Exception {
        ObjectNode created =
                sync(
                        client.create(
                                Resource.PODS.collection("default"),
                                yaml(
                                        "{apiVersion: v1, kind: Pod,"
                                                + " metadata: {name: "
                                                + name
                                                + "}, spec: {nodeName: "
                                                + nodeName
                                                + ", containers: [{name: app,"
                                                + " image: '"
                                                + FakeCri.BUSYBOX_IMAGE
                                                + "', imagePullPolicy: IfNotPresent, command: [sleep, '3600']}]}}")));
        return PodChange.uid(created);
    }

    private static Optional<ObjectNode> pod(String name) throws Exception {
        return api.pod(name);
    }

    private static JsonNode awaitApp(String name, Predicate<JsonNode> ok) {
        JsonNode[] seen = new JsonNode[1];
        await().atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> {
                            Optional<ObjectNode> p = pod(name);
                            JsonNode app =
                                    p.map(o -> o.path("status").path("containerStatuses").path(0))
                                            .orElse(null);
                            seen[0] = app;
                            return app != null && ok.test(app);
                        });
        return seen[0];
    }

    private static boolean running(JsonNode app) {
        return app.path("state").has("running");
    }

    private boolean hasSandbox(String uid) {
        return fake.sandboxes().stream().anyMatch(s -> s.getMetadata().getUid().equals(uid));
    }

    private boolean hasContainer(String uid) {
        return fake.containers().stream()
                .anyMatch(c -> uid.equals(c.getLabelsMap().get(SandboxConfigs.POD_UID_LABEL)));
    }

    /**
     * Waits for {@code n} more relists of the runtime: whatever a sync pass would do after them has
     * been asked.
     */
    private void awaitRelists(int n) {
        int before = fake.calls("ListContainers").size();
        await().atMost(DEADLINE).until(() -> fake.calls("ListContainers").size() >= before + n);
    }

    @Test
    void aRunningCrashLoopedContainerIsAdoptedWithItsIdAndRestartCountNotRestarted()
            throws Exception {
        createPod("steady");
        startAgent();
        for (int restarts = 0; restarts < 2; restarts++) {
            int attempt = restarts;
            JsonNode app =
                    awaitApp(
                            "steady", a -> running(a) && a.path("restartCount").asInt() == attempt);
            fake.exitContainer(
                    app.path("containerID").asText().substring("containerd://".length()), 1);
        }
        JsonNode before =
                awaitApp("steady", a -> running(a) && a.path("restartCount").asInt() == 2);
        killAgent();
        // The status the API has is stale once the agent is gone: the next one must write it again.
        sync(
                client.patch(
                        Resource.PODS.subresource("default", "steady", "status"),
                        PatchType.MERGE,
                        yaml("{status: {containerStatuses: []}}")));
        fake.clearCalls();

        startAgent();

        JsonNode after = awaitApp("steady", AgentRestartIT::running);
        assertEquals(
                before.path("containerID").asText(),
                after.path("containerID").asText(),
                after.toString());
        assertEquals(2, after.path("restartCount").asInt(), after.toString());
        assertEquals(
                before.path("lastState"),
                after.path("lastState"),
                "the previous instance is still shown");
        awaitRelists(3);
        assertEquals(List.of(), fake.calls("RunPodSandbox"), "no second sandbox");
        assertEquals(List.of(), fake.calls("CreateContainer"), "no second container");
        assertEquals(List.of(), fake.calls("StopContainer"), "nothing stopped");
        assertEquals(1, fake.sandboxes().size());
    }

    @Test
    void aPodCreatedWhileTheAgentWasDownStarts() throws Exception {
        startAgent();
        createPod("before");
        awaitApp("before", AgentRestartIT::running);
        killAgent();
        String uid = createPod("meanwhile");

        startAgent();

        awaitApp("meanwhile", AgentRestartIT::running);
        assertTrue(hasSandbox(uid));
    }

    @Test
    void aPodDeletedGracefullyWhileTheAgentWasDownIsTerminatedAndItsObjectRemoved()
            throws Exception {
        String uid = createPod("leaving");
        startAgent();
        awaitApp("leaving", AgentRestartIT::running);
        killAgent();
        ObjectNode deleting =
                sync(client.delete(Resource.PODS.object("default", "leaving"), DeleteOptions.NONE));
        assertTrue(PodChange.deleting(deleting), deleting.toString());

        startAgent();

        await().atMost(DEADLINE).until(() -> pod("leaving").isEmpty() && !hasSandbox(uid));
        assertFalse(hasContainer(uid));
    }

    @Test
    void aPodRemovedFromTheApiWhileTheAgentWasDownIsCleanedUpAtStart() throws Exception {
        String kept = createPod("kept");
        String gone = createPod("gone");
        startAgent();
        JsonNode keptApp = awaitApp("kept", AgentRestartIT::running);
        awaitApp("gone", AgentRestartIT::running);
        killAgent();
        sync(
                client.delete(
                        Resource.PODS.object("default", "gone"),
                        new DeleteOptions(Optional.empty(), Optional.of(0L))));
        Path logs = root.resolve("pod-logs").resolve("default_gone_" + gone);
        Path podDir = root.resolve("pods").resolve(gone);
        assertTrue(
                Files.isDirectory(logs) && Files.isDirectory(podDir),
                "the pod had its directories");
        // The runtime makes the pods' cgroups (FakeCri does not); one is of a pod the node has
        // nothing else of.
        Path keptCgroup =
                Files.createDirectories(memoryCgroups.resolve("kubepods/besteffort/pod" + kept));
        Path goneCgroup =
                Files.createDirectories(memoryCgroups.resolve("kubepods/besteffort/pod" + gone));
        Path goneUnified =
                Files.createDirectories(unifiedCgroups.resolve("kubepods/besteffort/pod" + gone));
        Path strayCgroup = Files.createDirectories(unifiedCgroups.resolve("kubepods/podstray-uid"));

        startAgent();

        await().atMost(DEADLINE)
                .until(
                        () ->
                                !hasSandbox(gone)
                                        && !hasContainer(gone)
                                        && !Files.exists(logs)
                                        && !Files.exists(podDir));
        await().atMost(DEADLINE)
                .until(
                        () ->
                                !Files.exists(goneCgroup)
                                        && !Files.exists(goneUnified)
                                        && !Files.exists(strayCgroup));
        assertEquals(
                keptApp.path("containerID").asText(),
                awaitApp("kept", AgentRestartIT::running).path("containerID").asText(),
                "the other pod is adopted");
        assertTrue(
                Files.isDirectory(root.resolve("pods").resolve(kept)),
                "the kept pod keeps its directory");
        assertTrue(Files.isDirectory(keptCgroup), "and its cgroup");
    }

    @Test
    void aContainerWithoutThePodUidLabelIsNeverTouched() throws Exception {
        PodSandboxConfig foreignSandbox =
                PodSandboxConfig.newBuilder()
                        .setMetadata(
                                PodSandboxMetadata.newBuilder()
                                        .setName("foreign")
                                        .setNamespace("other")
                                        .setUid("foreign-uid"))
                        .setHostname("foreign")
                        .setLogDirectory(root.resolve("elsewhere").toString())
                        .putLabels("owner", "someone-else")
                        .build();
        String sandboxId = sync(fake.client().runPodSandbox(foreignSandbox, ""));
        String containerId =
                sync(
                        fake.client()
                                .createContainer(
                                        sandboxId,
                                        ContainerConfig.newBuilder()
                                                .setMetadata(
                                                        ContainerMetadata.newBuilder()
                                                                .setName("foreign"))
                                                .setImage(
                                                        ImageSpec.newBuilder()
                                                                .setImage(FakeCri.BUSYBOX_IMAGE))
                                                .addCommand("sleep")
                                                .addArgs("3600")
                                                .setLogPath("foreign.log")
                                                .putLabels("owner", "someone-else")
                                                .build(),
                                        foreignSandbox));
        sync(fake.client().startContainer(containerId));
        // An orphan of ours beside it, which the agent does remove: once it is gone, the sweep has
        // run.
        String orphan = createPod("orphan");
        startAgent();
        awaitApp("orphan", AgentRestartIT::running);
        killAgent();
        sync(
                client.delete(
                        Resource.PODS.object("default", "orphan"),
                        new DeleteOptions(Optional.empty(), Optional.of(0L))));

        startAgent();

        await().atMost(DEADLINE).until(() -> !hasSandbox(orphan));
        Container foreign =
                fake.containers().stream()
                        .filter(c -> c.getId().equals(containerId))
                        .findFirst()
                        .orElseThrow();
        assertEquals(ContainerState.CONTAINER_RUNNING, foreign.getState());
        assertTrue(fake.sandboxes().stream().anyMatch(s -> s.getId().equals(sandboxId)));
        assertFalse(
                fake.calls("StopContainer").stream()
                        .anyMatch(c -> c.request().toString().contains(containerId)));
    }
}
