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
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.ListOptions;
import io.kubepekko.agent.api.PatchType;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.CreateContainerRequest;
import io.kubepekko.agent.cri.v1.Mount;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.agent.worker.PodWorkerSettings;
import io.kubepekko.http.server.ApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pod and status managers against a real API server in-process and {@link FakeCri}: pods bound
 * to the node run and their status reaches the API; a deleted pod is stopped and its object
 * removed; a pod bound elsewhere never runs.
 */
class PodManagerIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String NODE = "node-a";
    private static final String HOST_IP = "192.168.1.10";

    /**
     * The kubelet's sync frequency, short: how soon a changed ConfigMap reaches a running pod's
     * volumes.
     */
    private static final Duration RESYNC = Duration.ofSeconds(1);

    private static ActorTestKit kit;
    private static ApiServer server;
    private static TestApi api;
    private static ApiClient client;
    private static FakeCri fake;
    private static ScheduledExecutorService scheduler;
    private static ActorRef<StatusManager.Command> status;
    private static Path root;

    @BeforeAll
    static void start() throws Exception {
        kit = ActorTestKit.create();
        Path dir = Files.createTempDirectory("kubepekko-podmanager-it-");
        api = TestApi.start(dir);
        server = api.server;
        client = api.client;
        fake = FakeCri.start(dir.resolve("cri.sock"));
        scheduler = Executors.newSingleThreadScheduledExecutor();
        root = dir.resolve("root");
        NodeContext node =
                new NodeContext(
                        NODE,
                        root,
                        List.of(HOST_IP),
                        List.of(),
                        "",
                        ResolvConf.parse("nameserver 10.0.0.2\n"),
                        8L << 30,
                        4000,
                        8L << 30,
                        100L << 30);
        // The agent under test as a kubelet: its node's identity, confined by the Node authorizer.
        ApiClient agentClient = api.nodeClient(NODE);
        status = kit.spawn(StatusManager.create(agentClient), "status");
        kit.spawn(
                PodManager.create(
                        agentClient,
                        fake.client(),
                        node,
                        status,
                        Clock.systemUTC(),
                        PodWorkerSettings.DEFAULT
                                .withRelistPeriod(Duration.ofMillis(100))
                                .withResyncPeriod(RESYNC),
                        scheduler),
                "pods");
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
        scheduler.shutdownNow();
        fake.close();
        server.close();
    }

    private static ObjectNode createPod(String name, String nodeName, String containers)
            throws Exception {
        return sync(
                client.create(
                        Resource.PODS.collection("default"),
                        yaml(
                                "{apiVersion: v1, kind: Pod,"
                                        + " metadata: {name: "
                                        + name
                                        + "}, spec: {nodeName: "
                                        + nodeName
                                        + ", containers: "
                                        + containers
                                        + "}}")));
    }

    private static String busybox(String extra) {
        return "[{name: app, image: '"
                + FakeCri.BUSYBOX_IMAGE
                + "', imagePullPolicy: IfNotPresent,"
                + " command: [sleep, '3600']"
                + extra
                + "}]";
    }

    private static Optional<ObjectNode> pod(String name) throws Exception {
        return api.pod(name);
    }

    private static ObjectNode awaitStatus(String name, Predicate<JsonNode> ok) {
        ObjectNode[] seen = new ObjectNode[1];
        await().atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> {
                            Optional<ObjectNode> p = pod(name);
                            p.ifPresent(o -> seen[0] = o);
                            return p.isPresent() && ok.test(p.get().path("status"));
                        });
        return seen[0];
    }

    private static boolean hasSandbox(String uid) {
        return fake.sandboxes().stream().anyMatch(s -> s.getMetadata().getUid().equals(uid));
    }

    @Test
    void aPodBoundToTheNodeRunsAndItsStatusReachesTheApiServer() throws Exception {
        ObjectNode created = createPod("web", NODE, busybox(""));
        String uid = PodChange.uid(created);

        ObjectNode running = awaitStatus("web", s -> s.path("phase").asText().equals("Running"));
        JsonNode status = running.path("status");
        assertEquals(HOST_IP, status.path("hostIP").asText());
        assertEquals(HOST_IP, status.path("hostIPs").get(0).path("ip").asText());
        assertFalse(status.path("podIP").asText().isEmpty(), status.toString());
        assertEquals(
                status.path("podIP").asText(), status.path("podIPs").get(0).path("ip").asText());
        JsonNode app = status.path("containerStatuses").get(0);
        assertEquals("app", app.path("name").asText());
        assertTrue(app.path("state").has("running"), app.toString());
        assertTrue(app.path("ready").asBoolean(), app.toString());
        assertTrue(app.path("containerID").asText().startsWith("containerd://"), app.toString());
        assertTrue(hasSandbox(uid));
    }

    @Test
    void aDeletedPodIsStoppedWithItsGracePeriodThenItsObjectIsRemoved() throws Exception {
        ObjectNode created = createPod("doomed", NODE, busybox(""));
        String uid = PodChange.uid(created);
        awaitStatus("doomed", s -> s.path("phase").asText().equals("Running"));

        ObjectNode deleting =
                sync(client.delete(Resource.PODS.object("default", "doomed"), DeleteOptions.NONE));
        assertTrue(
                PodChange.deleting(deleting),
                "a running pod bound to a node is deleted gracefully: " + deleting);
        assertEquals(30, deleting.path("metadata").path("deletionGracePeriodSeconds").asInt());

        // The API server keeps the object for its 30 s grace period; only the agent's zero-grace
        // delete removes it.
        await().atMost(Duration.ofSeconds(15)).until(() -> pod("doomed").isEmpty());
        assertFalse(hasSandbox(uid), "the sandbox is gone: " + fake.sandboxes());
        assertTrue(
                fake.calls("StopContainer").stream()
                        .map(c -> (StopContainerRequest) c.request())
                        .anyMatch(r -> r.getTimeout() == 30),
                "containers are stopped with the pod's grace period");
    }

    @Test
    void aForceDeletedPodIsStoppedAtOnce() throws Exception {
        ObjectNode created = createPod("forced", NODE, busybox(""));
        String uid = PodChange.uid(created);
        awaitStatus("forced", s -> s.path("phase").asText().equals("Running"));

        sync(
                client.delete(
                        Resource.PODS.object("default", "forced"),
                        new DeleteOptions(Optional.empty(), Optional.of(0L))));

        assertTrue(pod("forced").isEmpty(), "a zero-grace delete removes the object at once");
        await().atMost(DEADLINE).until(() -> !hasSandbox(uid));
    }

    @Test
    void aPodsLogDirectoryIsUnderTheRootDirAndGoesWithThePod() throws Exception {
        ObjectNode created = createPod("logged", NODE, busybox(""));
        String uid = PodChange.uid(created);
        awaitStatus("logged", s -> s.path("phase").asText().equals("Running"));
        Path logs = root.resolve("pod-logs").resolve("default_logged_" + uid);
        assertTrue(
                Files.isDirectory(logs.resolve("app")),
                "the container's log directory exists: " + logs);

        sync(
                client.delete(
                        Resource.PODS.object("default", "logged"),
                        new DeleteOptions(Optional.empty(), Optional.of(0L))));

        await().atMost(DEADLINE).until(() -> !hasSandbox(uid) && !Files.exists(logs));
    }

    @Test
    void aPodWhoseConfigMapLacksTheKeyWaitsWithCreateContainerConfigError() throws Exception {
        sync(
                client.create(
                        "/api/v1/namespaces/default/configmaps",
                        yaml(
                                "{apiVersion: v1, kind: ConfigMap, metadata: {name: settings}, data: {present: x}}")));
        createPod(
                "misconfigured",
                NODE,
                busybox(
                        ", env: [{name: MODE, valueFrom: {configMapKeyRef: {name: settings,"
                                + " key: absent}}}]"));

        ObjectNode p =
                awaitStatus(
                        "misconfigured",
                        s ->
                                s.path("containerStatuses")
                                        .path(0)
                                        .path("state")
                                        .path("waiting")
                                        .path("reason")
                                        .asText()
                                        .equals("CreateContainerConfigError"));
        JsonNode waiting =
                p.path("status").path("containerStatuses").get(0).path("state").path("waiting");
        assertEquals(
                "couldn't find key absent in ConfigMap default/settings",
                waiting.path("message").asText());
        assertEquals("Pending", p.path("status").path("phase").asText());
    }

    @Test
    void aPodReferringToAMissingConfigMapWaitsWithCreateContainerConfigError() throws Exception {
        createPod("orphaned", NODE, busybox(", envFrom: [{configMapRef: {name: nowhere}}]"));

        ObjectNode p =
                awaitStatus(
                        "orphaned",
                        s ->
                                s.path("containerStatuses")
                                        .path(0)
                                        .path("state")
                                        .path("waiting")
                                        .path("reason")
                                        .asText()
                                        .equals("CreateContainerConfigError"));
        assertEquals(
                "configmap \"nowhere\" not found",
                p.path("status")
                        .path("containerStatuses")
                        .get(0)
                        .path("state")
                        .path("waiting")
                        .path("message")
                        .asText());
    }

    @Test
    void aPodBoundToAnotherNodeIsNeverRun() throws Exception {
        ObjectNode elsewhere = createPod("elsewhere", "node-b", busybox(""));
        // A pod of this node created after it: once it runs, the agent has seen everything before
        // it.
        createPod("marker", NODE, busybox(""));
        awaitStatus("marker", s -> s.path("phase").asText().equals("Running"));

        assertFalse(hasSandbox(PodChange.uid(elsewhere)));
        JsonNode status = pod("elsewhere").orElseThrow().path("status");
        assertFalse(
                status.has("containerStatuses") || status.has("hostIP"),
                "no status written: " + status);
    }

    @Test
    void aStatusWriteIsGuardedByThePodsUid() throws Exception {
        ObjectNode unbound =
                sync(
                        client.create(
                                Resource.PODS.collection("default"),
                                yaml(
                                        "{apiVersion: v1, kind: Pod,"
                                                + " metadata: {name: guarded}, spec: {containers: "
                                                + busybox("")
                                                + "}}")));
        String uid = PodChange.uid(unbound);

        try {
            sync(
                    client.patch(
                            Resource.PODS.subresource("default", "guarded", "status"),
                            PatchType.MERGE,
                            StatusPatch.body("another-uid", yaml("{phase: Failed}"))));
            throw new AssertionError("a patch guarded by another uid was accepted");
        } catch (ExecutionException e) {
            assertEquals(409, ApiError.of(e).code(), ApiError.of(e).toString());
        }

        // The guard alone, on a pod no node has (a node may read only its own pods): written as
        // the admin.
        ActorRef<StatusManager.Command> guarded =
                kit.spawn(StatusManager.create(client), "status-guarded");
        guarded.tell(
                new StatusManager.Write(
                        "default", "guarded", "another-uid", yaml("{phase: Failed}")));
        guarded.tell(
                new StatusManager.Write(
                        "default", "guarded", uid, yaml("{phase: Pending, message: written}")));
        ObjectNode p = awaitStatus("guarded", s -> s.path("message").asText().equals("written"));
        assertEquals("Pending", p.path("status").path("phase").asText());
    }

    private static List<String> eventsOf(String uid) throws Exception {
        ObjectNode list = sync(client.list("/api/v1/namespaces/default/events", ListOptions.ALL));
        List<String> out = new ArrayList<>();
        for (JsonNode e : list.path("items")) {
            if (e.path("involvedObject").path("uid").asText().equals(uid)) {
                out.add(e.path("reason").asText() + "|" + e.path("message").asText());
            }
        }
        return out;
    }

    @Test
    void aRunningPodHasPulledCreatedStartedEventsAndKillingWhenDeleted() throws Exception {
        ObjectNode created = createPod("noted", NODE, busybox(""));
        String uid = PodChange.uid(created);
        awaitStatus("noted", s -> s.path("phase").asText().equals("Running"));

        await().atMost(DEADLINE).until(() -> eventsOf(uid).contains("Started|Container started"));
        List<String> events = eventsOf(uid);
        assertTrue(
                events.contains(
                        "Pulled|Container image \""
                                + FakeCri.BUSYBOX_IMAGE
                                + "\" already present on machine and can be accessed by the pod"),
                events.toString());
        assertTrue(events.contains("Created|Container created"), events.toString());
        ObjectNode list = sync(client.list("/api/v1/namespaces/default/events", ListOptions.ALL));
        JsonNode started = null;
        for (JsonNode e : list.path("items")) {
            if (e.path("reason").asText().equals("Started")
                    && e.path("involvedObject").path("uid").asText().equals(uid)) {
                started = e;
            }
        }
        assertEquals("Pod", started.path("involvedObject").path("kind").asText());
        assertEquals("noted", started.path("involvedObject").path("name").asText());
        assertEquals(
                "spec.containers{app}", started.path("involvedObject").path("fieldPath").asText());
        assertEquals("kubelet", started.path("source").path("component").asText());
        assertEquals(NODE, started.path("source").path("host").asText());
        assertEquals("kubelet", started.path("reportingComponent").asText());
        assertEquals(NODE, started.path("reportingInstance").asText());
        assertEquals("Normal", started.path("type").asText());

        sync(client.delete(Resource.PODS.object("default", "noted"), DeleteOptions.NONE));
        await().atMost(DEADLINE)
                .until(() -> eventsOf(uid).contains("Killing|Stopping container app"));
    }

    @Test
    void aPodBeyondMaxPodsIsRejectedOutOfpodsAndNeverRunsEvenOnceThereIsRoom() throws Exception {
        String small = "node-small";
        Path dir = Files.createTempDirectory("kubepekko-maxpods-it-");
        FakeCri smallCri = FakeCri.start(dir.resolve("cri.sock"));
        try {
            NodeContext node =
                    new NodeContext(
                            small,
                            dir.resolve("root"),
                            List.of(HOST_IP),
                            List.of(),
                            "",
                            ResolvConf.parse("nameserver 10.0.0.2\n"),
                            8L << 30,
                            4000,
                            8L << 30,
                            100L << 30);
            // A second node: its own identity, so its own status writes.
            ApiClient smallClient = api.nodeClient(small);
            ActorRef<StatusManager.Command> smallStatus =
                    kit.spawn(StatusManager.create(smallClient), "status-small");
            kit.spawn(
                    PodManager.create(
                            smallClient,
                            smallCri.client(),
                            node,
                            smallStatus,
                            Clock.systemUTC(),
                            PodWorkerSettings.DEFAULT.withRelistPeriod(Duration.ofMillis(100)),
                            scheduler,
                            Set.of(),
                            2),
                    "pods-small");
            Predicate<String> runs =
                    uid ->
                            smallCri.sandboxes().stream()
                                    .anyMatch(sb -> sb.getMetadata().getUid().equals(uid));
            String first = PodChange.uid(createPod("small-1", small, busybox("")));
            awaitStatus("small-1", st -> st.path("phase").asText().equals("Running"));
            createPod("small-2", small, busybox(""));
            awaitStatus("small-2", st -> st.path("phase").asText().equals("Running"));

            String third = PodChange.uid(createPod("small-3", small, busybox("")));
            ObjectNode rejected =
                    awaitStatus("small-3", st -> st.path("phase").asText().equals("Failed"));
            JsonNode st = rejected.path("status");
            String message =
                    "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2";
            assertEquals("OutOfpods", st.path("reason").asText(), st.toString());
            assertEquals("Pod was rejected: " + message, st.path("message").asText());
            assertEquals("BestEffort", st.path("qosClass").asText());
            assertFalse(st.path("startTime").asText().isEmpty(), st.toString());
            assertFalse(st.has("containerStatuses"), "no container was started: " + st);
            assertFalse(runs.test(third));
            await().atMost(DEADLINE).until(() -> eventsOf(third).contains("OutOfpods|" + message));

            // Room again: a new pod is admitted, the rejected one never is.
            sync(
                    client.delete(
                            Resource.PODS.object("default", "small-1"),
                            new DeleteOptions(Optional.empty(), Optional.of(0L))));
            await().atMost(DEADLINE).until(() -> !runs.test(first));
            String fourth = PodChange.uid(createPod("small-4", small, busybox("")));
            awaitStatus("small-4", s4 -> s4.path("phase").asText().equals("Running"));
            assertTrue(runs.test(fourth));
            assertFalse(runs.test(third), "a rejected pod is never admitted again");
            assertEquals(
                    "Failed", pod("small-3").orElseThrow().path("status").path("phase").asText());

            // Deleted, the rejected pod goes without anything to stop.
            sync(client.delete(Resource.PODS.object("default", "small-3"), DeleteOptions.NONE));
            await().atMost(DEADLINE).until(() -> pod("small-3").isEmpty());
            assertFalse(runs.test(third));
        } finally {
            for (String name : List.of("small-2", "small-4")) {
                // A pod the test never got to create: the failure above is the one to report.
                if (pod(name).isPresent()) {
                    sync(
                            client.delete(
                                    Resource.PODS.object("default", name),
                                    new DeleteOptions(Optional.empty(), Optional.of(0L))));
                }
            }
            smallCri.close();
        }
    }

    @Test
    void aSecondDeleteWithAShorterGracePeriodShortensTheRunningTermination() throws Exception {
        String uid = terminatingInItsPreStopHook("lingering");

        ObjectNode shorter =
                sync(
                        client.delete(
                                Resource.PODS.object("default", "lingering"),
                                new DeleteOptions(Optional.empty(), Optional.of(1L))));
        assertEquals(
                1,
                shorter.path("metadata").path("deletionGracePeriodSeconds").asInt(),
                shorter.toString());
        await().atMost(DEADLINE).until(() -> pod("lingering").isEmpty());
        assertFalse(hasSandbox(uid), "the sandbox is gone: " + fake.sandboxes());
    }

    @Test
    void aForcedDeleteWhileThePodTerminatesCutsItsGracePeriodShort() throws Exception {
        // The object removed by a forced delete makes the kubelet kill with the shortest grace.
        String uid = terminatingInItsPreStopHook("forced");

        sync(
                client.delete(
                        Resource.PODS.object("default", "forced"),
                        new DeleteOptions(Optional.empty(), Optional.of(0L))));
        assertTrue(pod("forced").isEmpty(), "a forced delete removes the object at once");
        await().atMost(DEADLINE).until(() -> !hasSandbox(uid));
    }

    /**
     * A running pod deleted with its 300 s grace period, whose preStop hook sleeps through all of
     * it: only a shorter grace ends it within the test's deadline. Returns its uid once the hook
     * runs.
     */
    private String terminatingInItsPreStopHook(String name) throws Exception {
        ObjectNode created =
                sync(
                        client.create(
                                Resource.PODS.collection("default"),
                                yaml(
                                        "{apiVersion: v1, kind: Pod,"
                                                + " metadata: {name: "
                                                + name
                                                + "}, spec: {nodeName: "
                                                + NODE
                                                + ", terminationGracePeriodSeconds: 300,"
                                                + " containers: "
                                                + busybox(
                                                        ", lifecycle: {preStop: {sleep: {seconds: 300}}}")
                                                + "}}")));
        String uid = PodChange.uid(created);
        awaitStatus(name, s -> s.path("phase").asText().equals("Running"));
        sync(client.delete(Resource.PODS.object("default", name), DeleteOptions.NONE));
        await().atMost(DEADLINE)
                .until(() -> eventsOf(uid).contains("Killing|Stopping container app"));
        assertTrue(hasSandbox(uid), "still in its preStop hook");
        return uid;
    }

    @Test
    void aChangedConfigMapReachesTheMountedVolumeButNotTheEnvNorASubPathAndNoContainerRestarts()
            throws Exception {
        String cms = "/api/v1/namespaces/default/configmaps";
        sync(
                client.create(
                        cms,
                        yaml(
                                "{apiVersion: v1, kind: ConfigMap, metadata: {name: live-config},"
                                        + " data: {greeting: hello, extra: one}}")));
        ObjectNode created =
                sync(
                        client.create(
                                Resource.PODS.collection("default"),
                                yaml(
                                        "{apiVersion: v1, kind: Pod,"
                                                + " metadata: {name: live, labels: {tier: a}}, spec: {nodeName: "
                                                + NODE
                                                + ", containers: "
                                                + busybox(
                                                        ", env: [{name: GREETING, valueFrom: {configMapKeyRef: {name: live-config, key: greeting}}}],"
                                                                + " volumeMounts: [{name: cfg, mountPath: /etc/cfg}, {name: cfg, mountPath: /etc/extra, subPath: extra},"
                                                                + " {name: info, mountPath: /etc/info}]")
                                                + ", volumes: [{name: cfg, configMap: {name: live-config}},"
                                                + " {name: info, downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}}]}}")));
        String uid = PodChange.uid(created);
        awaitStatus("live", s -> s.path("phase").asText().equals("Running"));
        Path volume =
                root.resolve("pods")
                        .resolve(uid)
                        .resolve("volumes")
                        .resolve("kubernetes.io~configmap")
                        .resolve("cfg");
        Path labels =
                root.resolve("pods")
                        .resolve(uid)
                        .resolve("volumes")
                        .resolve("kubernetes.io~downward-api")
                        .resolve("info")
                        .resolve("labels");
        assertEquals("hello", Files.readString(volume.resolve("greeting")));
        Path firstData = Files.readSymbolicLink(volume.resolve("..data"));
        CreateContainerRequest config = createRequest(uid);
        Path subPath = Path.of(mount(config, "/etc/extra").getHostPath());
        assertEquals("one", Files.readString(subPath));
        String containerId = container(uid).getId();

        sync(
                client.patch(
                        cms + "/live-config",
                        PatchType.MERGE,
                        yaml("{data: {greeting: bye, extra: two}}")));

        await().atMost(DEADLINE)
                .until(() -> Files.readString(volume.resolve("greeting")).equals("bye"));
        assertEquals("two", Files.readString(volume.resolve("extra")));
        assertFalse(
                Files.readSymbolicLink(volume.resolve("..data")).equals(firstData),
                "..data swapped to a new dir");
        assertFalse(Files.exists(volume.resolve(firstData)), "the old payload is gone");
        assertEquals(
                "one",
                Files.readString(subPath),
                "a subPath mount never follows the volume's updates");
        assertEquals(containerId, container(uid).getId(), "the container was not restarted");
        assertEquals(0, container(uid).getMetadata().getAttempt());
        assertEquals(
                createRequest(uid),
                config,
                "the container was created once, its env as it was: " + config);
        assertTrue(
                config.getConfig().getEnvsList().stream()
                        .anyMatch(
                                kv ->
                                        kv.getKey().equals("GREETING")
                                                && kv.getValue().toStringUtf8().equals("hello")),
                config.toString());
        assertEquals(
                0,
                pod("live")
                        .orElseThrow()
                        .path("status")
                        .path("containerStatuses")
                        .get(0)
                        .path("restartCount")
                        .asInt(-1));

        // The downward API volume follows the pod's labels.
        sync(
                client.patch(
                        Resource.PODS.object("default", "live"),
                        PatchType.MERGE,
                        yaml("{metadata: {labels: {tier: b}}}")));
        await().atMost(DEADLINE).until(() -> Files.readString(labels).strip().equals("tier=\"b\""));

        // Deleted, the non-optional ConfigMap's volume keeps its last content (the kubelet's
        // SetUpAt fails, the
        // volume stays as it was); a later refresh of the pod's volumes (its labels again) still
        // leaves it.
        sync(client.delete(cms + "/live-config", DeleteOptions.NONE));
        sync(
                client.patch(
                        Resource.PODS.object("default", "live"),
                        PatchType.MERGE,
                        yaml("{metadata: {labels: {tier: c}}}")));
        await().atMost(DEADLINE).until(() -> Files.readString(labels).strip().equals("tier=\"c\""));
        assertEquals("bye", Files.readString(volume.resolve("greeting")));
        assertEquals(containerId, container(uid).getId());
    }

    private static Container container(String uid) {
        List<Container> mine =
                fake.containers().stream()
                        .filter(c -> c.getLabelsMap().get("io.kubernetes.pod.uid").equals(uid))
                        .toList();
        assertEquals(1, mine.size(), mine.toString());
        return mine.get(0);
    }

    /** The one CreateContainer request of the pod {@code uid}. */
    private static CreateContainerRequest createRequest(String uid) {
        List<CreateContainerRequest> mine =
                fake.calls("CreateContainer").stream()
                        .map(c -> (CreateContainerRequest) c.request())
                        .filter(r -> r.getSandboxConfig().getMetadata().getUid().equals(uid))
                        .toList();
        assertEquals(1, mine.size());
        return mine.get(0);
    }

    private static Mount mount(CreateContainerRequest r, String containerPath) {
        return r.getConfig().getMountsList().stream()
                .filter(m -> m.getContainerPath().equals(containerPath))
                .findFirst()
                .orElseThrow();
    }
}
