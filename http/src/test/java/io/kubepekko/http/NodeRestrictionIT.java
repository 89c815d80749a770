package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.http.security.CertificateIssuer;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kube's NodeRestriction admission on the secure port: a kubelet ({@code system:node:n1} in {@code
 * system:nodes}, with a client certificate) writes only its own Node and Lease, the status of pods
 * bound to it, deletions of those pods, mirror pods of itself, and tokens bound to its pods; the
 * Node authorizer lets these requests through and admission refuses them with kube's 403. Other
 * users are not restricted.
 */
class NodeRestrictionIT {

    @RegisterExtension static final TestApiServer SERVER = TestApiServer.perClass();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = "nr";
    private static final Map<String, String> MERGE =
            Map.of("Content-Type", "application/merge-patch+json");

    private static TlsClients.Kubeconfig admin;
    private static HttpClient adminClient;
    private static HttpClient n1;
    private static String n1Uid;

    @BeforeAll
    static void setUp() throws Exception {
        Path kubeconfig = SERVER.server().kubeconfig();
        admin = TlsClients.kubeconfig(kubeconfig);
        adminClient = TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        CertificateIssuer.Issued kubelet =
                TlsClients.userCertificate(
                        kubeconfig.getParent(), "system:node:n1", List.of("system:nodes"));
        n1 = TlsClients.client(admin.ca(), kubelet.certificate(), kubelet.key());
        created(adminClient, "/api/v1/namespaces", namespace(NS));
        created(adminClient, "/api/v1/namespaces/nr/serviceaccounts", serviceAccount("runner"));
        created(adminClient, "/api/v1/namespaces/nr/pods", pod("on-n1", "n1"));
        created(adminClient, "/api/v1/namespaces/nr/pods", pod("on-n2", "n2"));
        // kubelet n1 registers its Node with the labels a kubelet sets
        HttpResponse<String> registered =
                post(
                        n1,
                        "/api/v1/nodes",
                        node(
                                "n1",
                                "{\"kubernetes.io/hostname\":\"n1\",\"kubernetes.io/os\":\"linux\","
                                        + "\"node.kubernetes.io/instance-type\":\"small\"}"));
        assertEquals(201, registered.statusCode(), registered.body());
        n1Uid = JSON.readTree(registered.body()).at("/metadata/uid").asText();
    }

    private static String url(String path) {
        return admin.server() + path;
    }

    private static HttpResponse<String> post(HttpClient client, String path, String body)
            throws Exception {
        return TlsClients.send(client, "POST", url(path), body, Map.of());
    }

    private static HttpResponse<String> patch(HttpClient client, String path, String body)
            throws Exception {
        return TlsClients.send(client, "PATCH", url(path), body, MERGE);
    }

    private static void created(HttpClient client, String path, String body) throws Exception {
        HttpResponse<String> r = post(client, path, body);
        assertEquals(201, r.statusCode(), r.body());
    }

    /** The 403's message, after checking it is kube's Forbidden Status. */
    private static String forbidden(HttpResponse<String> r) throws Exception {
        assertEquals(403, r.statusCode(), r.body());
        JsonNode body = JSON.readTree(r.body());
        assertEquals("Status", body.path("kind").asText(), r.body());
        assertEquals("Forbidden", body.path("reason").asText(), r.body());
        return body.path("message").asText();
    }

    private static String namespace(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                + name
                + "\"}}";
    }

    private static String serviceAccount(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\""
                + name
                + "\"}}";
    }

    private static String pod(String name, String nodeName) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":{\"nodeName\":\""
                + nodeName
                + "\",\"serviceAccountName\":\"runner\","
                + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
    }

    private static String mirrorPod(String name, String nodeName, String ownerUid) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
                + name
                + "\",\"annotations\":{\"kubernetes.io/config.mirror\":\"hash\"},"
                + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"n1\","
                + "\"uid\":\""
                + ownerUid
                + "\",\"controller\":true}]},\"spec\":{\"nodeName\":\""
                + nodeName
                + "\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}";
    }

    private static String node(String name, String labels) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\""
                + name
                + "\",\"labels\":"
                + labels
                + "}}";
    }

    private static String lease(String name) {
        return "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":{\"holderIdentity\":\""
                + name
                + "\"}}";
    }

    @Test
    void aKubeletMayNotRegisterAnotherNodeNorSetRestrictedLabels() throws Exception {
        assertEquals(
                "nodes \"n2\" is forbidden: node \"n1\" is not allowed to modify node \"n2\"",
                forbidden(post(n1, "/api/v1/nodes", node("n2", "{}"))));
        assertEquals(
                "nodes \"n1\" is forbidden: is not allowed to modify labels:"
                        + " node-restriction.kubernetes.io/pci, node-role.kubernetes.io/worker",
                forbidden(
                        patch(
                                n1,
                                "/api/v1/nodes/n1",
                                "{\"metadata\":{\"labels\":{"
                                        + "\"node-restriction.kubernetes.io/pci\":\"yes\","
                                        + "\"node-role.kubernetes.io/worker\":\"\"}}}")));
        HttpResponse<String> own =
                patch(
                        n1,
                        "/api/v1/nodes/n1",
                        "{\"metadata\":{\"labels\":{\"example.com/rack\":\"7\","
                                + "\"topology.kubernetes.io/zone\":\"z1\"}}}");
        assertEquals(200, own.statusCode(), own.body());
        // the administrator is not restricted
        HttpResponse<String> byAdmin =
                patch(
                        adminClient,
                        "/api/v1/nodes/n1",
                        "{\"metadata\":{\"labels\":{\"node-role.kubernetes.io/worker\":\"\"}}}");
        assertEquals(200, byAdmin.statusCode(), byAdmin.body());
    }

    @Test
    void aKubeletMayNotChangeItsTaintsThroughAPatchOfItsNode() throws Exception {
        assertEquals(
                "nodes \"n1\" is forbidden: node \"n1\" is not allowed to modify taints",
                forbidden(
                        patch(
                                n1,
                                "/api/v1/nodes/n1",
                                "{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}}")));
        HttpResponse<String> status =
                patch(
                        n1,
                        "/api/v1/nodes/n1/status",
                        "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
        assertEquals(200, status.statusCode(), status.body());
    }

    @Test
    void aKubeletWritesTheStatusOfItsOwnPodsOnly() throws Exception {
        String running = "{\"status\":{\"phase\":\"Running\"}}";
        HttpResponse<String> own = patch(n1, "/api/v1/namespaces/nr/pods/on-n1/status", running);
        assertEquals(200, own.statusCode(), own.body());
        assertEquals(
                "pods \"on-n2\" is forbidden: node \"n1\" can only update pod status for pods with"
                        + " spec.nodeName set to itself",
                forbidden(patch(n1, "/api/v1/namespaces/nr/pods/on-n2/status", running)));
    }

    @Test
    void aKubeletDeletesOnlyPodsBoundToItself() throws Exception {
        created(adminClient, "/api/v1/namespaces/nr/pods", pod("doomed", "n1"));
        assertEquals(
                "pods \"on-n2\" is forbidden: node \"n1\" can only delete pods with spec.nodeName"
                        + " set to itself",
                forbidden(
                        TlsClients.send(
                                n1,
                                "DELETE",
                                url("/api/v1/namespaces/nr/pods/on-n2"),
                                null,
                                Map.of())));
        HttpResponse<String> deleted =
                TlsClients.send(
                        n1,
                        "DELETE",
                        url("/api/v1/namespaces/nr/pods/doomed?gracePeriodSeconds=0"),
                        null,
                        Map.of());
        assertEquals(200, deleted.statusCode(), deleted.body());
    }

    @Test
    void aKubeletCreatesOnlyMirrorPodsOfItselfOwnedByItsNode() throws Exception {
        assertEquals(
                "pods \"plain\" is forbidden: pod does not have \"kubernetes.io/config.mirror\""
                        + " annotation, node \"n1\" can only create mirror pods",
                forbidden(
                        post(
                                n1,
                                "/api/v1/namespaces/nr/pods",
                                pod("plain", "n1")
                                        .replace(",\"serviceAccountName\":\"runner\"", ""))));
        assertEquals(
                "pods \"static-n2\" is forbidden: node \"n1\" can only create pods with"
                        + " spec.nodeName set to itself",
                forbidden(
                        post(
                                n1,
                                "/api/v1/namespaces/nr/pods",
                                mirrorPod("static-n2", "n2", n1Uid))));
        // the Node's uid reaches admission's informer a moment after the Node was created
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () ->
                                post(
                                                        n1,
                                                        "/api/v1/namespaces/nr/pods",
                                                        mirrorPod("static-n1", "n1", n1Uid))
                                                .statusCode()
                                        == 201);
        assertEquals(
                "pods \"static-other\" is forbidden: node n1 UID mismatch: expected other-uid got "
                        + n1Uid,
                forbidden(
                        post(
                                n1,
                                "/api/v1/namespaces/nr/pods",
                                mirrorPod("static-other", "n1", "other-uid"))));
    }

    @Test
    void aKubeletHoldsOnlyItsOwnLease() throws Exception {
        created(n1, "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", lease("n1"));
        assertEquals(
                "leases.coordination.k8s.io \"n2\" is forbidden: can only access node lease with"
                        + " the same name as the requesting node",
                forbidden(
                        post(
                                n1,
                                "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
                                lease("n2"))));
    }

    @Test
    void aKubeletGetsTokensBoundOnlyToItsOwnPods() throws Exception {
        String other =
                JSON.readTree(
                                TlsClients.get(adminClient, url("/api/v1/namespaces/nr/pods/on-n2"))
                                        .body())
                        .at("/metadata/uid")
                        .asText();
        String tokenRequest =
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                        + "\"spec\":{\"boundObjectRef\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
                        + "\"name\":\"on-n2\",\"uid\":\""
                        + other
                        + "\"}}}";
        // the node graph relates the account to n1 through on-n1 a moment after it was created
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () ->
                                post(
                                                n1,
                                                "/api/v1/namespaces/nr/serviceaccounts/runner/token",
                                                tokenRequest)
                                        .body()
                                        .contains("scheduled on a different node"));
        assertEquals(
                "serviceaccounts \"runner\" is forbidden: node requested token bound to a pod"
                        + " scheduled on a different node",
                forbidden(
                        post(
                                n1,
                                "/api/v1/namespaces/nr/serviceaccounts/runner/token",
                                tokenRequest)));
        String own =
                JSON.readTree(
                                TlsClients.get(adminClient, url("/api/v1/namespaces/nr/pods/on-n1"))
                                        .body())
                        .at("/metadata/uid")
                        .asText();
        HttpResponse<String> issued =
                post(
                        n1,
                        "/api/v1/namespaces/nr/serviceaccounts/runner/token",
                        tokenRequest.replace("on-n2", "on-n1").replace(other, own));
        assertEquals(201, issued.statusCode(), issued.body());
    }
}
