package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.http.security.AccessSettings;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.SecureServing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who may do what through the secure port: kube's 401 for a credential that does not prove a user,
 * the anonymous user's few rights, 403 with kube's message for a user without a role, a namespaced
 * {@code edit} binding that allows its namespace only, and impersonation checked with the {@code
 * impersonate} verb.
 */
class SecureAccessIT {

    /** kube's static token file: one user, tom, in two groups. */
    private static final Path TOKENS = tokenFile();

    @RegisterExtension
    static final TestApiServer SERVER =
            TestApiServer.perClass(
                    s ->
                            s.withSecure(
                                    SecureServing.generated()
                                            .withAccess(
                                                    AccessSettings.DEFAULT.withTokenAuthFile(
                                                            TOKENS))));

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("kubepekko-tokens-", ".csv");
            file.toFile().deleteOnExit();
            Files.writeString(file, "t0ken-of-tom,tom,uid-tom,\"devs,ops\"\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private static TlsClients.Kubeconfig admin;
    private static HttpClient adminClient;
    private static HttpClient anonymous;
    private static HttpClient jane;

    @BeforeAll
    static void clients() throws Exception {
        Path kubeconfig = SERVER.server().kubeconfig();
        admin = TlsClients.kubeconfig(kubeconfig);
        adminClient = TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        anonymous = TlsClients.client(admin.ca(), null, null);
        CertificateIssuer.Issued janes =
                TlsClients.userCertificate(kubeconfig.getParent(), "jane", List.of("devs"));
        jane = TlsClients.client(admin.ca(), janes.certificate(), janes.key());
        for (String ns : List.of("team-a", "team-b")) {
            HttpResponse<String> created =
                    TlsClients.send(
                            adminClient,
                            "POST",
                            url("/api/v1/namespaces"),
                            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                                    + ns
                                    + "\"}}",
                            Map.of());
            assertEquals(201, created.statusCode(), created.body());
        }
    }

    private static String url(String path) {
        return admin.server() + path;
    }

    private static JsonNode status(HttpResponse<String> r, int code) throws Exception {
        assertEquals(code, r.statusCode(), r.body());
        JsonNode body = JSON.readTree(r.body());
        assertEquals("Status", body.path("kind").asText(), r.body());
        assertEquals(code, body.path("code").asInt(), r.body());
        return body;
    }

    @Test
    void anonymousRequestsMayReadHealthAndVersionOnly() throws Exception {
        assertEquals(200, TlsClients.get(anonymous, url("/version")).statusCode());
        assertEquals(200, TlsClients.get(anonymous, url("/healthz")).statusCode());
        JsonNode api = status(TlsClients.get(anonymous, url("/api")), 403);
        assertEquals(
                "forbidden: User \"system:anonymous\" cannot get path \"/api\"",
                api.path("message").asText());
        JsonNode pods =
                status(TlsClients.get(anonymous, url("/api/v1/namespaces/team-a/pods")), 403);
        assertEquals("Forbidden", pods.path("reason").asText());
        assertEquals(
                "pods is forbidden: User \"system:anonymous\" cannot list resource \"pods\" in API"
                        + " group \"\" in the namespace \"team-a\"",
                pods.path("message").asText());
        assertEquals("pods", pods.at("/details/kind").asText());
    }

    @Test
    void aCertificateOfAnotherCaIsUnauthorizedEvenWithAnonymousRequestsOn() throws Exception {
        CertificateIssuer.Issued mallory =
                TlsClients.strangerCertificate("mallory", List.of("system:masters"));
        HttpClient client = TlsClients.client(admin.ca(), mallory.certificate(), mallory.key());
        JsonNode body = status(TlsClients.get(client, url("/version")), 401);
        assertEquals("Unauthorized", body.path("reason").asText());
        assertEquals("Unauthorized", body.path("message").asText());
    }

    @Test
    void aTokenOfTheTokenFileAuthenticatesItsUserAndAnUnknownOneIsUnauthorized() throws Exception {
        HttpResponse<String> tom =
                TlsClients.send(
                        anonymous,
                        "GET",
                        url("/api/v1/namespaces"),
                        null,
                        Map.of("Authorization", "Bearer t0ken-of-tom"));
        assertEquals(
                "namespaces is forbidden: User \"tom\" cannot list resource \"namespaces\" in API"
                        + " group \"\" at the cluster scope",
                status(tom, 403).path("message").asText());
        HttpResponse<String> whoami =
                TlsClients.send(
                        anonymous,
                        "POST",
                        url("/apis/authentication.k8s.io/v1/selfsubjectreviews"),
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}",
                        Map.of("Authorization", "Bearer t0ken-of-tom"));
        assertEquals(201, whoami.statusCode(), whoami.body());
        JsonNode user = JSON.readTree(whoami.body()).at("/status/userInfo");
        assertEquals("tom", user.path("username").asText());
        assertEquals("uid-tom", user.path("uid").asText());
        assertEquals(
                List.of("devs", "ops", "system:authenticated"),
                JSON.convertValue(user.path("groups"), List.class));

        HttpResponse<String> unknown =
                TlsClients.send(
                        anonymous,
                        "GET",
                        url("/api/v1/namespaces"),
                        null,
                        Map.of("Authorization", "Bearer not-a-token"));
        assertEquals("Unauthorized", status(unknown, 401).path("reason").asText());
    }

    @Test
    void aSubjectAccessReviewAsksTheSameAuthorizers() throws Exception {
        HttpResponse<String> review =
                TlsClients.send(
                        adminClient,
                        "POST",
                        url("/apis/authorization.k8s.io/v1/subjectaccessreviews"),
                        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\","
                                + "\"spec\":{\"user\":\"nobody\",\"resourceAttributes\":"
                                + "{\"namespace\":\"team-a\",\"verb\":\"get\",\"resource\":\"secrets\"}}}",
                        Map.of());
        assertEquals(201, review.statusCode(), review.body());
        JsonNode status = JSON.readTree(review.body()).path("status");
        assertEquals(false, status.path("allowed").asBoolean(true), review.body());
        HttpResponse<String> masters =
                TlsClients.send(
                        adminClient,
                        "POST",
                        url("/apis/authorization.k8s.io/v1/subjectaccessreviews"),
                        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\","
                                + "\"spec\":{\"user\":\"root\",\"groups\":[\"system:masters\"],"
                                + "\"resourceAttributes\":{\"namespace\":\"team-a\",\"verb\":\"get\","
                                + "\"resource\":\"secrets\"}}}",
                        Map.of());
        assertEquals(
                true,
                JSON.readTree(masters.body()).at("/status/allowed").asBoolean(),
                masters.body());
    }

    @Test
    void theAdminOfSystemMastersMayDoAnything() throws Exception {
        assertEquals(
                200,
                TlsClients.get(adminClient, url("/api/v1/namespaces/team-a/secrets")).statusCode());
        assertEquals(200, TlsClients.get(adminClient, url("/api")).statusCode());
    }

    @Test
    void anEditBindingAllowsItsNamespaceAndNotAnother() throws Exception {
        JsonNode before =
                status(TlsClients.get(jane, url("/api/v1/namespaces/team-a/configmaps")), 403);
        assertEquals(
                "configmaps is forbidden: User \"jane\" cannot list resource \"configmaps\" in API"
                        + " group \"\" in the namespace \"team-a\"",
                before.path("message").asText());
        HttpResponse<String> bound =
                TlsClients.send(
                        adminClient,
                        "POST",
                        url("/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings"),
                        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
                                + "\"metadata\":{\"name\":\"jane-edit\"},"
                                + "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                                + "\"kind\":\"ClusterRole\",\"name\":\"edit\"},"
                                + "\"subjects\":[{\"apiGroup\":\"rbac.authorization.k8s.io\","
                                + "\"kind\":\"User\",\"name\":\"jane\"}]}",
                        Map.of());
        assertEquals(201, bound.statusCode(), bound.body());

        awaitCode(jane, url("/api/v1/namespaces/team-a/configmaps"), 200);
        HttpResponse<String> created =
                TlsClients.send(
                        jane,
                        "POST",
                        url("/api/v1/namespaces/team-a/configmaps"),
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}",
                        Map.of());
        assertEquals(201, created.statusCode(), created.body());
        JsonNode other =
                status(TlsClients.get(jane, url("/api/v1/namespaces/team-b/configmaps/c")), 403);
        assertEquals(
                "configmaps \"c\" is forbidden: User \"jane\" cannot get resource \"configmaps\" in"
                        + " API group \"\" in the namespace \"team-b\"",
                other.path("message").asText());
        // edit does not reach RBAC itself
        status(
                TlsClients.get(
                        jane,
                        url("/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings")),
                403);
    }

    /**
     * A read of a collection is a watch for any watch value but false or 0, as kube reads it, and
     * is authorized as one: a user who may only list cannot watch by writing {@code watch=yes}, nor
     * through the deprecated {@code watch/} path.
     */
    @Test
    void aWatchIsAuthorizedAsAWatchWhateverWatchValueItCarries() throws Exception {
        String rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/team-b/";
        HttpResponse<String> role =
                TlsClients.send(
                        adminClient,
                        "POST",
                        url(rbac + "roles"),
                        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                                + "\"metadata\":{\"name\":\"cm-lister\"},\"rules\":[{\"apiGroups\":[\"\"],"
                                + "\"resources\":[\"configmaps\"],\"verbs\":[\"list\"]}]}",
                        Map.of());
        assertEquals(201, role.statusCode(), role.body());
        HttpResponse<String> bound =
                TlsClients.send(
                        adminClient,
                        "POST",
                        url(rbac + "rolebindings"),
                        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
                                + "\"metadata\":{\"name\":\"lee-lists\"},"
                                + "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                                + "\"kind\":\"Role\",\"name\":\"cm-lister\"},"
                                + "\"subjects\":[{\"apiGroup\":\"rbac.authorization.k8s.io\","
                                + "\"kind\":\"User\",\"name\":\"lee\"}]}",
                        Map.of());
        assertEquals(201, bound.statusCode(), bound.body());
        CertificateIssuer.Issued lees =
                TlsClients.userCertificate(
                        SERVER.server().kubeconfig().getParent(), "lee", List.of());
        HttpClient lee = TlsClients.client(admin.ca(), lees.certificate(), lees.key());
        String configMaps = "/api/v1/namespaces/team-b/configmaps";
        awaitCode(lee, url(configMaps), 200);
        assertEquals(200, TlsClients.get(lee, url(configMaps + "?watch=false")).statusCode());
        assertEquals(200, TlsClients.get(lee, url(configMaps + "?watch=0")).statusCode());
        String refused =
                "configmaps is forbidden: User \"lee\" cannot watch resource \"configmaps\" in API"
                        + " group \"\" in the namespace \"team-b\"";
        for (String watch : List.of("?watch=yes", "?watch=True", "?watch=", "?watch=1")) {
            JsonNode s = status(TlsClients.get(lee, url(configMaps + watch)), 403);
            assertEquals(refused, s.path("message").asText(), watch);
        }
        JsonNode legacy =
                status(TlsClients.get(lee, url("/api/v1/watch/namespaces/team-b/configmaps")), 403);
        assertEquals(refused, legacy.path("message").asText());
    }

    @Test
    void impersonationIsCheckedWithTheImpersonateVerb() throws Exception {
        HttpResponse<String> asJane =
                TlsClients.send(
                        adminClient,
                        "GET",
                        url("/api/v1/namespaces/team-b/secrets"),
                        null,
                        Map.of("Impersonate-User", "jane"));
        JsonNode forbidden = status(asJane, 403);
        assertTrue(
                forbidden.path("message").asText().contains("User \"jane\" cannot list"),
                forbidden.toString());

        HttpResponse<String> janeAsAdmin =
                TlsClients.send(
                        jane,
                        "GET",
                        url("/api/v1/namespaces"),
                        null,
                        Map.of("Impersonate-User", "kubernetes-admin"));
        JsonNode refused = status(janeAsAdmin, 403);
        assertEquals(
                "users \"kubernetes-admin\" is forbidden: User \"jane\" cannot impersonate resource"
                        + " \"users\" in API group \"\" at the cluster scope",
                refused.path("message").asText());

        HttpResponse<String> groupsOnly =
                TlsClients.send(
                        adminClient,
                        "GET",
                        url("/api/v1/namespaces"),
                        null,
                        Map.of("Impersonate-Group", "devs"));
        status(groupsOnly, 400);
    }

    @Test
    void thePlainPortIsKubesInsecurePort() {
        assertEquals(200, SERVER.get("/api/v1/namespaces/team-a/secrets").code());
    }

    /**
     * Polls until {@code url} answers {@code code}: the policy follows the store a moment later.
     */
    private static void awaitCode(HttpClient client, String url, int code) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> TlsClients.get(client, url).statusCode() == code);
    }
}
