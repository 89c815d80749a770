package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * kube's escalation prevention on the secure port: a user who may write roles and bindings in a
 * namespace may grant only the rules they hold, and bind a role only with its rules or the {@code
 * bind} verb on it (kube's policy-based RBAC storage, 403 with its message).
 */
class EscalationPreventionIT {

    @RegisterExtension static final TestApiServer SERVER = TestApiServer.perClass();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";
    private static final String NS = "esc";

    private static TlsClients.Kubeconfig admin;
    private static HttpClient adminClient;
    private static HttpClient eve;

    /**
     * eve may do anything with configmaps and pods in {@code esc}, and write roles and bindings
     * there, but holds nothing on secrets.
     */
    @BeforeAll
    static void setUp() throws Exception {
        Path kubeconfig = SERVER.server().kubeconfig();
        admin = TlsClients.kubeconfig(kubeconfig);
        adminClient = TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        CertificateIssuer.Issued eves =
                TlsClients.userCertificate(kubeconfig.getParent(), "eve", List.of());
        eve = TlsClients.client(admin.ca(), eves.certificate(), eves.key());
        created(
                adminClient,
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"esc\"}}");
        created(
                adminClient,
                RBAC + "/namespaces/esc/roles",
                role(
                        "writer",
                        "{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\",\"pods\"],"
                                + "\"verbs\":[\"*\"]},"
                                + "{\"apiGroups\":[\"rbac.authorization.k8s.io\"],"
                                + "\"resources\":[\"roles\",\"rolebindings\"],"
                                + "\"verbs\":[\"create\",\"get\",\"list\",\"update\",\"patch\"]}"));
        created(
                adminClient,
                RBAC + "/namespaces/esc/rolebindings",
                binding("eve-writer", "Role", "writer"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () ->
                                TlsClients.get(eve, url(RBAC + "/namespaces/esc/roles"))
                                                .statusCode()
                                        == 200);
    }

    private static String url(String path) {
        return admin.server() + path;
    }

    private static HttpResponse<String> post(HttpClient client, String path, String body)
            throws Exception {
        return TlsClients.send(client, "POST", url(path), body, Map.of());
    }

    private static void created(HttpClient client, String path, String body) throws Exception {
        HttpResponse<String> r = post(client, path, body);
        assertEquals(201, r.statusCode(), r.body());
    }

    private static String role(String name, String rules) {
        return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\"},\"rules\":["
                + rules
                + "]}";
    }

    private static String binding(String name, String kind, String roleName) {
        return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
                + "\"metadata\":{\"name\":\""
                + name
                + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\""
                + kind
                + "\",\"name\":\""
                + roleName
                + "\"},\"subjects\":[{\"apiGroup\":\"rbac.authorization.k8s.io\","
                + "\"kind\":\"User\",\"name\":\"eve\"}]}";
    }

    private static JsonNode forbidden(HttpResponse<String> r) throws Exception {
        assertEquals(403, r.statusCode(), r.body());
        JsonNode body = JSON.readTree(r.body());
        assertEquals("Status", body.path("kind").asText(), r.body());
        assertEquals("Forbidden", body.path("reason").asText(), r.body());
        return body;
    }

    private static final String ALL_SECRETS =
            "{\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],\"verbs\":[\"*\"]}";

    @Test
    void aRoleGrantingRulesTheUserDoesNotHoldIsForbiddenWithKubesMessage() throws Exception {
        JsonNode refused =
                forbidden(
                        post(
                                eve,
                                RBAC + "/namespaces/esc/roles",
                                role("secrets-all", ALL_SECRETS)));
        assertEquals(
                "roles.rbac.authorization.k8s.io \"secrets-all\" is forbidden: user \"eve\""
                        + " (groups=[\"system:authenticated\"]) is attempting to grant RBAC"
                        + " permissions not currently held:\n"
                        + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"*\"]}",
                refused.path("message").asText());
        assertEquals("roles", refused.at("/details/kind").asText());
        assertEquals(
                404,
                TlsClients.get(adminClient, url(RBAC + "/namespaces/esc/roles/secrets-all"))
                        .statusCode());
    }

    @Test
    void aRoleWithHeldRulesIsCreatedAndCannotBeUpdatedBeyondThem() throws Exception {
        String held =
                "{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"verbs\":[\"get\",\"list\"]}";
        HttpResponse<String> r = post(eve, RBAC + "/namespaces/esc/roles", role("cm-reader", held));
        assertEquals(201, r.statusCode(), r.body());
        String rv = JSON.readTree(r.body()).at("/metadata/resourceVersion").asText();
        String widened =
                role("cm-reader", held + "," + ALL_SECRETS)
                        .replace(
                                "\"name\":\"cm-reader\"",
                                "\"name\":\"cm-reader\",\"resourceVersion\":\"" + rv + "\"");
        JsonNode refused =
                forbidden(
                        TlsClients.send(
                                eve,
                                "PUT",
                                url(RBAC + "/namespaces/esc/roles/cm-reader"),
                                widened,
                                Map.of()));
        assertTrue(
                refused.path("message")
                        .asText()
                        .startsWith(
                                "roles.rbac.authorization.k8s.io \"cm-reader\" is forbidden: user"
                                        + " \"eve\""),
                refused.toString());
    }

    /**
     * The collection patches the stored role and judges the result, in the write itself (no dry run
     * first): the patched rules escalate and are refused; a label on a role eve may hold is
     * written. {@code CollectionAdmissionTest} shows the same judgment against a write queued
     * before the patch.
     */
    @Test
    void aPatchIsJudgedByItsResult() throws Exception {
        String held = "{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"get\"]}";
        created(eve, RBAC + "/namespaces/esc/roles", role("pod-getter", held));
        String path = url(RBAC + "/namespaces/esc/roles/pod-getter");
        Map<String, String> merge = Map.of("Content-Type", "application/merge-patch+json");
        JsonNode refused =
                forbidden(
                        TlsClients.send(
                                eve, "PATCH", path, "{\"rules\":[" + ALL_SECRETS + "]}", merge));
        assertTrue(
                refused.path("message")
                        .asText()
                        .endsWith("{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"*\"]}"),
                refused.toString());
        HttpResponse<String> labelled =
                TlsClients.send(
                        eve, "PATCH", path, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}", merge);
        assertEquals(200, labelled.statusCode(), labelled.body());
        assertEquals(
                "pods",
                JSON.readTree(TlsClients.get(adminClient, path).body())
                        .at("/rules/0/resources/0")
                        .asText());
    }

    /**
     * kube's {@code IsOnlyMutatingGCFields}: a role eve could not have written (the admin granted
     * secrets in it) may still get owner references and finalizers from her, which is what the
     * garbage collector writes; any other change of it is judged by its rules.
     */
    @Test
    void onlyGarbageCollectionFieldsMayChangeOnARoleBeyondTheUsersRights() throws Exception {
        created(adminClient, RBAC + "/namespaces/esc/roles", role("admins-secrets", ALL_SECRETS));
        String path = url(RBAC + "/namespaces/esc/roles/admins-secrets");
        Map<String, String> merge = Map.of("Content-Type", "application/merge-patch+json");
        HttpResponse<String> finalized =
                TlsClients.send(
                        eve,
                        "PATCH",
                        path,
                        "{\"metadata\":{\"finalizers\":[\"example.com/hold\"],"
                                + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                                + "\"name\":\"owner\",\"uid\":\"owner-uid\"}]}}",
                        merge);
        assertEquals(200, finalized.statusCode(), finalized.body());
        JsonNode refused =
                forbidden(
                        TlsClients.send(
                                eve,
                                "PATCH",
                                path,
                                "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}",
                                merge));
        assertTrue(
                refused.path("message")
                        .asText()
                        .endsWith("{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"*\"]}"),
                refused.toString());
        HttpResponse<String> released =
                TlsClients.send(
                        eve,
                        "PATCH",
                        path,
                        "{\"metadata\":{\"finalizers\":null,\"ownerReferences\":null}}",
                        merge);
        assertEquals(200, released.statusCode(), released.body());
    }

    @Test
    void bindingClusterAdminNeedsItsRulesOrTheBindVerb() throws Exception {
        JsonNode refused =
                forbidden(
                        post(
                                eve,
                                RBAC + "/namespaces/esc/rolebindings",
                                binding("eve-admin", "ClusterRole", "cluster-admin")));
        assertTrue(
                refused.path("message")
                        .asText()
                        .startsWith(
                                "rolebindings.rbac.authorization.k8s.io \"eve-admin\" is forbidden:"
                                        + " user \"eve\" (groups=[\"system:authenticated\"]) is"
                                        + " attempting to grant RBAC permissions not currently"
                                        + " held:\n"),
                refused.toString());

        created(
                adminClient,
                RBAC + "/namespaces/esc/roles",
                role(
                        "binder",
                        "{\"apiGroups\":[\"rbac.authorization.k8s.io\"],"
                                + "\"resources\":[\"clusterroles\"],\"verbs\":[\"bind\"],"
                                + "\"resourceNames\":[\"cluster-admin\"]}"));
        created(
                adminClient,
                RBAC + "/namespaces/esc/rolebindings",
                binding("eve-binder", "Role", "binder"));
        // the policy follows the store a moment later
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(
                        () ->
                                post(
                                                        eve,
                                                        RBAC + "/namespaces/esc/rolebindings",
                                                        binding(
                                                                "eve-admin",
                                                                "ClusterRole",
                                                                "cluster-admin"))
                                                .statusCode()
                                        == 201);
    }

    @Test
    void thePlainPortsUserMayGrantAnything() {
        assertEquals(
                201,
                SERVER.post(RBAC + "/namespaces/esc/roles", role("plain-secrets", ALL_SECRETS))
                        .code());
    }
}
