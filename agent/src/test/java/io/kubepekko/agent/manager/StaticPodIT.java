package io.kubepekko.agent.manager;

import static io.kubepekko.agent.manager.TestApi.sync;
import static io.kubepekko.agent.manager.TestApi.yaml;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.ListOptions;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.PodSandboxState;
import io.kubepekko.agent.cri.v1.RemovePodSandboxRequest;
import io.kubepekko.agent.cri.v1.RunPodSandboxRequest;
import io.kubepekko.agent.manifest.StaticPodSource;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.agent.worker.PodWorkerSettings;
import io.kubepekko.http.server.ApiServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Static pods against a real API server in-process and {@link FakeCri}: manifests from a directory
 * and from a URL run, each mirrored in the API (annotations, owner reference to the Node, status);
 * the mirror is kept, replaced and removed with its manifest; without an API server static pods run
 * alone.
 */
class StaticPodIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String NODE = "node-s";

    private static ActorTestKit kit;
    private static ApiServer server;
    private static TestApi api;
    private static ApiClient client;
    private static FakeCri fake;
    private static ScheduledExecutorService scheduler;
    private static HttpServer manifests;
    private static Path dir;
    private static Path manifestDir;
    private static String nodeUid;
    private static final AtomicReference<String> servedManifest = new AtomicReference<>("");
    private static final AtomicReference<String> lastToken = new AtomicReference<>("");
    private static final AtomicInteger fetches = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        kit = ActorTestKit.create();
        dir = Files.createTempDirectory("kubepekko-staticpod-it-");
        manifestDir = Files.createDirectories(dir.resolve("manifests"));
        api = TestApi.start(dir);
        server = api.server;
        client = api.client;
        fake = FakeCri.start(dir.resolve("cri.sock"));
        scheduler = Executors.newSingleThreadScheduledExecutor();
        nodeUid =
                sync(client.create(
                                Resource.NODES.collection(null),
                                yaml(
                                        "{apiVersion: v1, kind: Node, metadata: {name: "
                                                + NODE
                                                + "}}")))
                        .path("metadata")
                        .path("uid")
                        .asText();

        manifests = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        manifests.createContext(
                "/pods",
                exchange -> {
                    String token = String.valueOf(exchange.getRequestHeaders().getFirst("X-Token"));
                    lastToken.set(token);
                    fetches.incrementAndGet();
                    byte[] body =
                            token.equals("secret")
                                    ? servedManifest.get().getBytes(StandardCharsets.UTF_8)
                                    : new byte[0];
                    exchange.sendResponseHeaders(
                            token.equals("secret") ? 200 : 403,
                            body.length == 0 ? -1 : body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
        manifests.start();

        NodeContext node =
                new NodeContext(
                        NODE,
                        dir.resolve("root"),
                        List.of("192.168.1.10"),
                        List.of(),
                        "",
                        ResolvConf.parse("nameserver 10.0.0.2\n"),
                        8L << 30,
                        4000,
                        8L << 30,
                        100L << 30);
        // The agent under test as a kubelet: its node's identity, confined by the Node authorizer.
        ApiClient agentClient = api.nodeClient(NODE);
        ActorRef<StatusManager.Command> status =
                kit.spawn(StatusManager.create(agentClient), "status");
        ActorRef<PodManager.Command> pods =
                kit.spawn(
                        PodManager.create(
                                agentClient,
                                fake.client(),
                                node,
                                status,
                                Clock.systemUTC(),
                                PodWorkerSettings.DEFAULT.withRelistPeriod(Duration.ofMillis(100)),
                                scheduler),
                        "pods");
        kit.spawn(
                StaticPodSource.files(
                        manifestDir,
                        Duration.ofMillis(500),
                        NODE,
                        Clock.systemUTC(),
                        set -> pods.tell(new PodManager.StaticPods(set))),
                "static-file");
        URI url = URI.create("http://127.0.0.1:" + manifests.getAddress().getPort() + "/pods");
        kit.spawn(
                StaticPodSource.url(
                        url,
                        Map.of("X-Token", List.of("secret")),
                        Duration.ofMillis(200),
                        NODE,
                        Clock.systemUTC(),
                        set -> pods.tell(new PodManager.StaticPods(set))),
                "static-http");
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
        manifests.stop(0);
        scheduler.shutdownNow();
        fake.close();
        server.close();
    }

    private static String manifest(String name, String sleep) {
        return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: "
                + name
                + "\nspec:\n  containers:\n  - name: app\n"
                + "    image: '"
                + FakeCri.BUSYBOX_IMAGE
                + "'\n    imagePullPolicy: IfNotPresent\n"
                + "    command: [sleep, '"
                + sleep
                + "']\n";
    }

    private static Optional<ObjectNode> pod(String name) throws Exception {
        return api.pod(name);
    }

    /** The mirror pod of {@code name} once it satisfies {@code ok}. */
    private static ObjectNode awaitMirror(String name, Predicate<JsonNode> ok) {
        AtomicReference<ObjectNode> seen = new AtomicReference<>();
        await().atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> {
                            Optional<ObjectNode> p = pod(name);
                            p.ifPresent(seen::set);
                            return p.isPresent() && ok.test(p.get());
                        });
        return seen.get();
    }

    private static String annotation(JsonNode pod, String key) {
        return pod.path("metadata").path("annotations").path(key).asText("");
    }

    private static boolean running(JsonNode pod) {
        return pod.path("status").path("phase").asText().equals("Running");
    }

    private static boolean hasSandbox(String uid) {
        return fake.sandboxes().stream().anyMatch(s -> s.getMetadata().getUid().equals(uid));
    }

    @Test
    void aStaticPodFromAFileRunsAndItsMirrorShowsItInTheApi() throws Exception {
        Files.writeString(manifestDir.resolve("web.yaml"), manifest("web", "3600"));

        ObjectNode mirror = awaitMirror("web-" + NODE, StaticPodIT::running);
        String hash = annotation(mirror, "kubernetes.io/config.hash");
        assertTrue(hash.matches("[0-9a-f]{32}"), mirror.toString());
        assertEquals(hash, annotation(mirror, "kubernetes.io/config.mirror"));
        assertEquals("file", annotation(mirror, "kubernetes.io/config.source"));
        assertFalse(annotation(mirror, "kubernetes.io/config.seen").isEmpty());
        assertNotEquals(
                hash, mirror.path("metadata").path("uid").asText(), "the mirror has its own uid");
        JsonNode owner = mirror.path("metadata").path("ownerReferences").get(0);
        assertEquals("v1", owner.path("apiVersion").asText());
        assertEquals("Node", owner.path("kind").asText());
        assertEquals(NODE, owner.path("name").asText());
        assertEquals(nodeUid, owner.path("uid").asText());
        assertTrue(owner.path("controller").asBoolean());
        assertEquals(NODE, mirror.path("spec").path("nodeName").asText());
        assertEquals(
                "app",
                mirror.path("status").path("containerStatuses").get(0).path("name").asText());
        assertTrue(hasSandbox(hash), "the static pod runs under its hash as uid");

        // An API pod created after the mirror: once it runs, the agent has seen the mirror's events
        // too.
        sync(
                client.create(
                        Resource.PODS.collection("default"),
                        yaml(
                                "{apiVersion: v1, kind: Pod, metadata: {name: marker},"
                                        + " spec: {nodeName: "
                                        + NODE
                                        + ", containers: [{name: app, image: '"
                                        + FakeCri.BUSYBOX_IMAGE
                                        + "',"
                                        + " imagePullPolicy: IfNotPresent, command: [sleep, '3600']}]}}")));
        awaitMirror("marker", StaticPodIT::running);
        assertFalse(
                hasSandbox(mirror.path("metadata").path("uid").asText()),
                "a mirror pod is never run as a pod");
    }

    @Test
    void aDeletedMirrorIsCreatedAgain() throws Exception {
        Files.writeString(manifestDir.resolve("kept.yaml"), manifest("kept", "3600"));
        ObjectNode first = awaitMirror("kept-" + NODE, StaticPodIT::running);
        String firstUid = first.path("metadata").path("uid").asText();
        String hash = annotation(first, "kubernetes.io/config.hash");

        sync(client.delete(Resource.PODS.object("default", "kept-" + NODE), DeleteOptions.NONE));

        ObjectNode again =
                awaitMirror(
                        "kept-" + NODE,
                        p ->
                                !p.path("metadata").path("uid").asText().equals(firstUid)
                                        && !PodChange.deleting(p)
                                        && running(p));
        assertEquals(hash, annotation(again, "kubernetes.io/config.mirror"));
        assertTrue(hasSandbox(hash), "the static pod itself kept running");
    }

    @Test
    void aChangedManifestRestartsThePodUnderANewUidAndReplacesItsMirror() throws Exception {
        Path file = manifestDir.resolve("changing.yaml");
        Files.writeString(file, manifest("changing", "3600"));
        String before =
                annotation(
                        awaitMirror("changing-" + NODE, StaticPodIT::running),
                        "kubernetes.io/config.hash");

        Files.writeString(file, manifest("changing", "7200"));

        ObjectNode after =
                awaitMirror(
                        "changing-" + NODE,
                        p ->
                                running(p)
                                        && !annotation(p, "kubernetes.io/config.mirror")
                                                .equals(before));
        String now = annotation(after, "kubernetes.io/config.hash");
        assertEquals(now, annotation(after, "kubernetes.io/config.mirror"));
        assertTrue(hasSandbox(now));
        await().atMost(DEADLINE).until(() -> !hasSandbox(before));
    }

    @Test
    void aRemovedManifestStopsThePodAndDeletesItsMirror() throws Exception {
        Path file = manifestDir.resolve("gone.yaml");
        Files.writeString(file, manifest("gone", "3600"));
        String hash =
                annotation(
                        awaitMirror("gone-" + NODE, StaticPodIT::running),
                        "kubernetes.io/config.hash");

        Files.delete(file);

        await().atMost(DEADLINE).until(() -> pod("gone-" + NODE).isEmpty() && !hasSandbox(hash));
    }

    /**
     * A pod whose preStop hook sleeps {@code seconds} (its whole grace period) before its container
     * is stopped.
     */
    private static String slowToStop(String name, String sleep, int seconds) {
        return manifest(name, sleep)
                        .replace(
                                "spec:\n",
                                "spec:\n  terminationGracePeriodSeconds: " + seconds + "\n")
                + "    lifecycle: {preStop: {sleep: {seconds: "
                + seconds
                + "}}}\n";
    }

    @Test
    void theMirrorOfARemovedStaticPodIsKeptUntilThePodHasStopped() throws Exception {
        Path file = manifestDir.resolve("slow.yaml");
        Files.writeString(file, slowToStop("slow", "3600", 3));
        String hash =
                annotation(
                        awaitMirror("slow-" + NODE, StaticPodIT::running),
                        "kubernetes.io/config.hash");

        Files.delete(file);

        // Read in this order, a mirror gone while the sandbox is still there means it went before
        // the pod stopped.
        await().atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () -> {
                            boolean mirror = pod("slow-" + NODE).isPresent();
                            boolean sandbox = hasSandbox(hash);
                            assertTrue(
                                    mirror || !sandbox,
                                    "the mirror went while its static pod was still stopping");
                            return !mirror && !sandbox;
                        });
    }

    @Test
    void aChangedManifestStartsTheNewPodOnlyOnceTheOldOneHasStopped() throws Exception {
        Path file = manifestDir.resolve("swap.yaml");
        Files.writeString(file, slowToStop("swap", "3600", 3));
        String before =
                annotation(
                        awaitMirror("swap-" + NODE, StaticPodIT::running),
                        "kubernetes.io/config.hash");
        String oldSandbox =
                fake.sandboxes().stream()
                        .filter(sb -> sb.getMetadata().getUid().equals(before))
                        .findFirst()
                        .orElseThrow()
                        .getId();

        Files.writeString(file, slowToStop("swap", "7200", 3));

        ObjectNode after =
                awaitMirror(
                        "swap-" + NODE,
                        p ->
                                running(p)
                                        && !annotation(p, "kubernetes.io/config.mirror")
                                                .equals(before));
        String now = annotation(after, "kubernetes.io/config.hash");
        assertTrue(hasSandbox(now));
        assertFalse(hasSandbox(before));
        List<FakeCri.Call> calls = fake.calls();
        int removed = -1;
        int created = -1;
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).request() instanceof RemovePodSandboxRequest r
                    && r.getPodSandboxId().equals(oldSandbox)) {
                removed = i;
            }
            if (calls.get(i).request() instanceof RunPodSandboxRequest r
                    && r.getConfig().getMetadata().getUid().equals(now)
                    && created < 0) {
                created = i;
            }
        }
        assertTrue(
                removed >= 0 && created > removed,
                "the new version's sandbox (call "
                        + created
                        + ") came after the old one's removal (call "
                        + removed
                        + ")");
    }

    @Test
    void aBadManifestDoesNotKeepTheOthersFromRunning() throws Exception {
        Files.writeString(
                manifestDir.resolve("bad.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: {name: [\n");
        Files.writeString(manifestDir.resolve(".hidden.yaml"), manifest("hidden", "3600"));
        Files.writeString(manifestDir.resolve("good.yaml"), manifest("good", "3600"));

        awaitMirror("good-" + NODE, StaticPodIT::running);
        assertTrue(pod("hidden-" + NODE).isEmpty(), "dot files are not manifests");
    }

    @Test
    void aManifestUrlIsFetchedWithItsHeadersAndItsPodsRun() throws Exception {
        servedManifest.set(manifest("fromurl", "3600"));

        ObjectNode mirror = awaitMirror("fromurl-" + NODE, StaticPodIT::running);
        assertEquals("http", annotation(mirror, "kubernetes.io/config.source"));
        assertEquals("secret", lastToken.get());
    }

    @Test
    void withoutAnApiServerStaticPodsRunAlone() throws Exception {
        Path alone = Files.createDirectories(dir.resolve("alone"));
        NodeContext node =
                new NodeContext(
                        "node-alone",
                        dir.resolve("root-alone"),
                        List.of("192.168.1.11"),
                        List.of(),
                        "",
                        ResolvConf.parse("nameserver 10.0.0.2\n"),
                        8L << 30,
                        4000,
                        8L << 30,
                        100L << 30);
        ActorRef<PodManager.Command> pods =
                kit.spawn(
                        PodManager.standalone(
                                fake.client(),
                                node,
                                Clock.systemUTC(),
                                PodWorkerSettings.DEFAULT.withRelistPeriod(Duration.ofMillis(100))),
                        "standalone");
        Files.writeString(alone.resolve("solo.yaml"), manifest("solo", "3600"));
        kit.spawn(
                StaticPodSource.files(
                        alone.resolve("solo.yaml"),
                        Duration.ofMillis(500),
                        "node-alone",
                        Clock.systemUTC(),
                        set -> pods.tell(new PodManager.StaticPods(set))),
                "static-alone");

        await().atMost(DEADLINE)
                .until(
                        () ->
                                fake.sandboxes().stream()
                                        .anyMatch(
                                                s ->
                                                        s.getMetadata()
                                                                .getName()
                                                                .equals("solo-node-alone")));
        assertTrue(pod("solo-node-alone").isEmpty(), "nothing is written to the API");
    }

    @Test
    void aPodOfAnotherSourceWithTheSameNameIsIgnoredUntilTheNameIsFree() throws Exception {
        Path file = manifestDir.resolve("twin.yaml");
        Files.writeString(file, manifest("twin", "3600"));
        String fileUid =
                annotation(
                        awaitMirror("twin-" + NODE, StaticPodIT::running),
                        "kubernetes.io/config.hash");

        servedManifest.set(manifest("twin", "7200"));
        int before = fetches.get();
        await().atMost(DEADLINE).until(() -> fetches.get() >= before + 5);

        // The first of the name keeps running; the URL's pod is ignored (an event says why), not
        // run beside it.
        ObjectNode mirror = pod("twin-" + NODE).orElseThrow();
        assertEquals(fileUid, annotation(mirror, "kubernetes.io/config.hash"));
        assertTrue(
                fake.sandboxes().stream()
                        .filter(s -> s.getMetadata().getName().equals("twin-" + NODE))
                        .allMatch(
                                s ->
                                        s.getMetadata().getUid().equals(fileUid)
                                                && s.getState() == PodSandboxState.SANDBOX_READY),
                "only the file's pod has a sandbox, and it runs");
        await().atMost(DEADLINE)
                .until(
                        () ->
                                sync(
                                                client.list(
                                                        Resource.EVENTS.collection("default"),
                                                        ListOptions.ALL))
                                        .path("items")
                                        .findValues("reason")
                                        .stream()
                                        .anyMatch(r -> r.asText().equals("FailedValidation")));

        Files.delete(file);
        ObjectNode fromUrl =
                awaitMirror(
                        "twin-" + NODE,
                        p ->
                                running(p)
                                        && annotation(p, "kubernetes.io/config.source")
                                                .equals("http"));
        assertTrue(
                hasSandbox(annotation(fromUrl, "kubernetes.io/config.hash")),
                "the URL's pod runs once the name is free");
        servedManifest.set("");
    }
}
