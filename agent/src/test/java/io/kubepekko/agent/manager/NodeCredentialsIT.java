package io.kubepekko.agent.manager;

import static io.kubepekko.agent.manager.TestApi.sync;
import static io.kubepekko.agent.manager.TestApi.yaml;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.ListOptions;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.cri.CriRuntimeFacts;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.CreateContainerRequest;
import io.kubepekko.agent.node.NodeAgent;
import io.kubepekko.agent.node.NodeAgentSettings;
import io.kubepekko.agent.node.NodeIdentity;
import io.kubepekko.agent.node.NodeLease;
import io.kubepekko.agent.node.RuntimeHealth;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.agent.worker.PodWorkerSettings;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent as a kubelet is run: with a node certificate issued from the server's client CA as
 * {@code bin/node-kubeconfig} issues it ({@code system:node:<name>} in {@code system:nodes}),
 * against a server with the default {@code --authorization-mode=Node,RBAC}. Its node and pod actors
 * register the Node, keep its Lease, run its pod with the Secret it uses and write the pod's
 * status; the same certificate is refused (403) another node's Node, Lease and pods, every pod of
 * the cluster, and a Secret no pod of its node uses.
 */
class NodeCredentialsIT {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String NODE = "node-cred";
    private static final String OTHER = "node-other";

    private static final Resource SECRETS = new Resource("", "v1", "secrets", true);

    private static TestApi api;
    private static ApiClient admin;
    private static ApiClient agentClient;
    private static FakeCri fake;
    private static ActorTestKit agent;
    private static ScheduledExecutorService scheduler;
    private static Path root;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("kubepekko-node-credentials-it-");
        api = TestApi.start(dir);
        admin = api.client;
        fake = FakeCri.start(dir.resolve("cri.sock"));
        scheduler = Executors.newSingleThreadScheduledExecutor();
        agentClient = api.nodeClient(NODE);

        // What the agent must not reach: another node, its Lease and pod, and Secrets.
        sync(admin.create(Resource.NODES.collection(null), yaml(node(OTHER))));
        sync(
                admin.create(
                        Resource.LEASES.collection(NodeLease.NAMESPACE),
                        yaml(
                                "{apiVersion: coordination.k8s.io/v1, kind: Lease, metadata: {name: "
                                        + OTHER
                                        + "}, spec: {holderIdentity: "
                                        + OTHER
                                        + "}}")));
        for (String secret : List.of("app-secret", "their-secret", "unused-secret")) {
            sync(
                    admin.create(
                            SECRETS.collection("default"),
                            yaml(
                                    "{apiVersion: v1, kind: Secret, metadata: {name: "
                                            + secret
                                            + "}, stringData: {token: "
                                            + secret
                                            + "-value}}")));
        }
        sync(
                admin.create(
                        Resource.PODS.collection("default"),
                        yaml(pod("theirs", OTHER, "their-secret"))));

        agent = ActorTestKit.create();
        NodeContext node =
                new NodeContext(
                        NODE,
                        root = dir.resolve("root"),
                        List.of("192.168.1.10"),
                        List.of(),
                        "",
                        ResolvConf.parse("nameserver 10.0.0.2\n"),
                        8L << 30,
                        4000,
                        8L << 30,
                        100L << 30);
        ActorRef<StatusManager.Command> status =
                agent.spawn(StatusManager.create(agentClient), "status");
        agent.spawn(
                PodManager.create(
                        agentClient,
                        fake.client(),
                        node,
                        status,
                        Clock.systemUTC(),
                        PodWorkerSettings.DEFAULT.withRelistPeriod(Duration.ofMillis(100)),
                        scheduler),
                "pods");
        agent.spawn(
                NodeAgent.create(
                        agentClient,
                        new CriRuntimeFacts(fake.client()),
                        new NodeAgentSettings(
                                new NodeIdentity(
                                        NODE, "linux", "amd64", Map.of(), Optional.empty(), true),
                                true,
                                List.of(InetAddress.getLoopbackAddress()),
                                110,
                                NodeAgentSettings.KUBELET_PORT,
                                "v0.1.0-test",
                                Duration.ofMillis(500),
                                NodeAgentSettings.REPORT_FREQUENCY,
                                Duration.ofMillis(500),
                                RuntimeHealth.KUBELET_THRESHOLD,
                                dir),
                        agent.spawn(Behaviors.ignore(), "node-events"),
                        Clock.systemUTC()),
                "node");
    }

    @AfterAll
    static void stop() {
        agent.shutdownTestKit();
        scheduler.shutdownNow();
        fake.close();
        api.close();
    }

    /** The claims of a JWT (its middle part), unverified: the server verified it when it signed. */
    private static JsonNode jwtClaims(String jwt) throws Exception {
        return new ObjectMapper().readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }

    private static String node(String name) {
        return "{apiVersion: v1, kind: Node, metadata: {name: " + name + "}}";
    }

    private static String pod(String name, String nodeName, String secret) {
        return """
                {apiVersion: v1, kind: Pod, metadata: {name: %s}, spec: {nodeName: %s,
                 containers: [{name: app, image: '%s', imagePullPolicy: IfNotPresent, command: [sleep, '3600'],
                   env: [{name: TOKEN, valueFrom: {secretKeyRef: {name: %s, key: token}}}]}]}}
                """
                .formatted(name, nodeName, FakeCri.BUSYBOX_IMAGE, secret);
    }

    @Test
    void theAgentRegistersItsNodeRunsItsPodWithItsSecretAndWritesItsStatus() throws Exception {
        JsonNode lease =
                await().atMost(DEADLINE)
                        .pollInterval(Duration.ofMillis(100))
                        .until(
                                () ->
                                        found(
                                                admin.get(
                                                        Resource.LEASES.object(
                                                                NodeLease.NAMESPACE, NODE))),
                                Optional::isPresent)
                        .orElseThrow();
        assertEquals(NODE, lease.path("spec").path("holderIdentity").asText());
        ObjectNode registered = sync(admin.get(Resource.NODES.object(null, NODE)));
        assertEquals(
                NODE,
                registered.path("metadata").path("labels").path("kubernetes.io/hostname").asText(),
                registered.toString());

        String uid =
                sync(admin.create(
                                Resource.PODS.collection("default"),
                                yaml(pod("mine", NODE, "app-secret"))))
                        .path("metadata")
                        .path("uid")
                        .asText();
        ObjectNode running =
                await().atMost(DEADLINE)
                        .pollInterval(Duration.ofMillis(100))
                        .until(
                                () -> api.pod("mine").orElseThrow(),
                                p -> p.path("status").path("phase").asText().equals("Running"));
        assertEquals(
                "192.168.1.10", running.path("status").path("hostIP").asText(), running.toString());
        CreateContainerRequest create =
                fake.calls("CreateContainer").stream()
                        .map(c -> (CreateContainerRequest) c.request())
                        .filter(r -> r.getSandboxConfig().getMetadata().getUid().equals(uid))
                        .findFirst()
                        .orElseThrow();
        assertTrue(
                create.getConfig().getEnvsList().stream()
                        .anyMatch(
                                kv ->
                                        kv.getKey().equals("TOKEN")
                                                && kv.getValue()
                                                        .toStringUtf8()
                                                        .equals("app-secret-value")),
                "the Secret its pod uses was read: " + create.getConfig().getEnvsList());
        // The ServiceAccount plugin gave the pod its token volume; the agent asked the server for
        // the token with its node credentials, bound to the pod, and wrote it with the CA and the
        // namespace.
        String volume =
                running.path("spec").path("volumes").findValuesAsText("name").stream()
                        .filter(n -> n.startsWith("kube-api-access-"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(running.toString()));
        Path dir =
                root.resolve("pods")
                        .resolve(uid)
                        .resolve("volumes/kubernetes.io~projected")
                        .resolve(volume);
        await().atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Files.exists(dir.resolve("token")));
        JsonNode claims = jwtClaims(Files.readString(dir.resolve("token")));
        assertEquals("system:serviceaccount:default:default", claims.path("sub").asText());
        assertEquals(
                "mine",
                claims.path("kubernetes.io").path("pod").path("name").asText(),
                claims.toString());
        assertEquals(uid, claims.path("kubernetes.io").path("pod").path("uid").asText());
        assertEquals("default", Files.readString(dir.resolve("namespace")));
        assertTrue(
                Files.readString(dir.resolve("ca.crt")).startsWith("-----BEGIN CERTIFICATE-----"));
        // The node may read what its pods use.
        assertEquals(
                "app-secret",
                sync(agentClient.get(secret("app-secret"))).path("metadata").path("name").asText());
    }

    @Test
    void theSameCertificateIsRefusedAnotherNodesObjectsAndUnusedSecrets() throws Exception {
        String user = "User \"system:node:" + NODE + "\"";
        assertForbidden(
                agentClient.get(Resource.NODES.object(null, OTHER)),
                "nodes \""
                        + OTHER
                        + "\" is forbidden: "
                        + user
                        + " cannot get resource \"nodes\" in API group \"\" at the cluster scope:"
                        + " node '"
                        + NODE
                        + "' cannot read '"
                        + OTHER
                        + "', only its own Node object");
        assertForbidden(
                agentClient.get(Resource.LEASES.object(NodeLease.NAMESPACE, OTHER)),
                "leases.coordination.k8s.io \""
                        + OTHER
                        + "\" is forbidden: "
                        + user
                        + " cannot get resource \"leases\" in API group \"coordination.k8s.io\" in"
                        + " the namespace \"kube-node-lease\": can only access node lease with the"
                        + " same name as the requesting node");
        assertForbidden(
                agentClient.get(Resource.PODS.object("default", "theirs")),
                "pods \"theirs\" is forbidden: "
                        + user
                        + " cannot get resource \"pods\" in API group \"\" in the namespace"
                        + " \"default\": no relationship found between node '"
                        + NODE
                        + "' and this object");
        assertForbidden(
                agentClient.list("/api/v1/pods", ListOptions.ALL),
                "pods is forbidden: "
                        + user
                        + " cannot list resource \"pods\" in API group \"\" at the cluster scope:"
                        + " can only list/watch pods with spec.nodeName field selector");
        for (String secret : List.of("unused-secret", "their-secret")) {
            assertForbidden(
                    agentClient.get(secret(secret)),
                    "secrets \""
                            + secret
                            + "\" is forbidden: "
                            + user
                            + " cannot get resource \"secrets\" in API group \"\" in the namespace"
                            + " \"default\": no relationship found between node '"
                            + NODE
                            + "' and this object");
        }
    }

    private static String secret(String name) {
        return SECRETS.object("default", name);
    }

    private static Optional<ObjectNode> found(CompletionStage<ObjectNode> get) throws Exception {
        try {
            return Optional.of(sync(get));
        } catch (ExecutionException e) {
            if (ApiError.of(e).isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static void assertForbidden(CompletionStage<ObjectNode> call, String message) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> sync(call));
        ApiError error = ApiError.of(e);
        assertEquals(403, error.code(), error.toString());
        assertEquals("403 Forbidden: " + message, error.toString());
    }
}
