package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Service-account tokens on the secure port: the {@code serviceaccounts/{name}/token} subresource
 * signs a JWT with the PKI's {@code sa.key}, the token authenticates as {@code
 * system:serviceaccount:<ns>:<name>} (also through a TokenReview), a tampered token is 401, and a
 * token bound to a pod stops working once the pod is gone.
 */
class ServiceAccountTokenIT {

    @RegisterExtension static final TestApiServer SERVER = TestApiServer.perClass();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = "sa-tokens";

    private static TlsClients.Kubeconfig admin;
    private static HttpClient adminClient;
    private static HttpClient anonymous;

    @BeforeAll
    static void clients() throws Exception {
        Path kubeconfig = SERVER.server().kubeconfig();
        admin = TlsClients.kubeconfig(kubeconfig);
        adminClient = TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        anonymous = TlsClients.client(admin.ca(), null, null);
        create(
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                        + NS
                        + "\"}}");
        create(
                "/api/v1/namespaces/" + NS + "/serviceaccounts",
                "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
                        + "\"metadata\":{\"name\":\"builder\"}}");
    }

    private static JsonNode create(String path, String body) throws Exception {
        HttpResponse<String> r = TlsClients.send(adminClient, "POST", url(path), body, Map.of());
        assertEquals(201, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    private static String url(String path) {
        return admin.server() + path;
    }

    private static String token(String body) throws Exception {
        JsonNode answer =
                create("/api/v1/namespaces/" + NS + "/serviceaccounts/builder/token", body);
        return answer.at("/status/token").asText();
    }

    /** The user a SelfSubjectReview with this bearer token answers, or the error status code. */
    private static HttpResponse<String> whoami(String token) throws Exception {
        return TlsClients.send(
                anonymous,
                "POST",
                url("/apis/authentication.k8s.io/v1/selfsubjectreviews"),
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}",
                Map.of("Authorization", "Bearer " + token));
    }

    @Test
    void aRequestedTokenIsASignedJwtOfTheServiceAccount() throws Exception {
        Instant before = Instant.now().minusSeconds(1);
        JsonNode answer =
                create(
                        "/api/v1/namespaces/" + NS + "/serviceaccounts/builder/token",
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                                + "\"spec\":{\"expirationSeconds\":1200}}");
        assertEquals("TokenRequest", answer.path("kind").asText());
        assertEquals(
                "https://kubernetes.default.svc.cluster.local",
                answer.at("/spec/audiences/0").asText());
        Instant expiration = Instant.parse(answer.at("/status/expirationTimestamp").asText());
        assertTrue(
                !expiration.isBefore(before.plusSeconds(1200))
                        && !expiration.isAfter(Instant.now().plusSeconds(1201)),
                expiration.toString());
        String[] parts = answer.at("/status/token").asText().split("\\.");
        assertEquals(3, parts.length);
        JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
        assertEquals("RS256", header.path("alg").asText());
        assertFalse(header.path("kid").asText().isEmpty());
        JsonNode claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
        assertEquals("https://kubernetes.default.svc.cluster.local", claims.path("iss").asText());
        assertEquals("system:serviceaccount:" + NS + ":builder", claims.path("sub").asText());
        assertEquals(NS, claims.at("/kubernetes.io/namespace").asText());
    }

    @Test
    void aServiceAccountTokenAuthenticatesAsTheServiceAccount() throws Exception {
        String token =
                token("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\"}");
        HttpResponse<String> r = whoami(token);
        assertEquals(201, r.statusCode(), r.body());
        JsonNode user = JSON.readTree(r.body()).at("/status/userInfo");
        assertEquals("system:serviceaccount:" + NS + ":builder", user.path("username").asText());
        assertEquals(
                "[\"system:serviceaccounts\",\"system:serviceaccounts:"
                        + NS
                        + "\",\"system:authenticated\"]",
                user.path("groups").toString());
    }

    @Test
    void aTamperedTokenIsUnauthorized() throws Exception {
        String token =
                token("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\"}");
        String[] parts = token.split("\\.");
        String forged =
                Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(
                                new String(
                                                Base64.getUrlDecoder().decode(parts[1]),
                                                StandardCharsets.UTF_8)
                                        .replace("builder", "admin00")
                                        .getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = whoami(parts[0] + "." + forged + "." + parts[2]);
        assertEquals(401, r.statusCode(), r.body());
        JsonNode body = JSON.readTree(r.body());
        assertEquals("Status", body.path("kind").asText());
        assertEquals("Unauthorized", body.path("reason").asText());
    }

    @Test
    void aTokenReviewOnTheSecurePortAuthenticatesAServiceAccountToken() throws Exception {
        String token =
                token("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\"}");
        JsonNode review =
                create(
                        "/apis/authentication.k8s.io/v1/tokenreviews",
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\","
                                + "\"spec\":{\"token\":\""
                                + token
                                + "\"}}");
        assertTrue(review.at("/status/authenticated").asBoolean(), review.toString());
        assertEquals(
                "system:serviceaccount:" + NS + ":builder",
                review.at("/status/user/username").asText());
    }

    @Test
    void aTokenBoundToAPodStopsWorkingOnceThePodIsDeleted() throws Exception {
        JsonNode pod =
                create(
                        "/api/v1/namespaces/" + NS + "/pods",
                        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"job\"},"
                                + "\"spec\":{\"serviceAccountName\":\"builder\","
                                + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        String token =
                token(
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                                + "\"spec\":{\"boundObjectRef\":{\"apiVersion\":\"v1\","
                                + "\"kind\":\"Pod\",\"name\":\"job\",\"uid\":\""
                                + pod.at("/metadata/uid").asText()
                                + "\"}}}");
        // The index learns of the pod through its watch: wait until the token works.
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> whoami(token).statusCode() == 201);
        JsonNode extra = JSON.readTree(whoami(token).body()).at("/status/userInfo/extra");
        assertEquals("[\"job\"]", extra.path("authentication.kubernetes.io/pod-name").toString());
        HttpResponse<String> deleted =
                TlsClients.send(
                        adminClient,
                        "DELETE",
                        url("/api/v1/namespaces/" + NS + "/pods/job?gracePeriodSeconds=0"),
                        null,
                        Map.of());
        assertEquals(200, deleted.statusCode(), deleted.body());
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> whoami(token).statusCode() == 401);
    }

    @Test
    void theIssuerDiscoveryIsServedToServiceAccountsAsKubeServesIt() throws Exception {
        String token =
                token("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\"}");
        Map<String, String> bearer = Map.of("Authorization", "Bearer " + token);
        HttpResponse<String> config =
                TlsClients.send(
                        anonymous, "GET", url("/.well-known/openid-configuration"), null, bearer);
        assertEquals(200, config.statusCode(), config.body());
        assertEquals("application/json", config.headers().firstValue("Content-Type").orElse(""));
        assertEquals(
                "public, max-age=3600", config.headers().firstValue("Cache-Control").orElse(""));
        JsonNode doc = JSON.readTree(config.body());
        assertEquals("https://kubernetes.default.svc.cluster.local", doc.path("issuer").asText());
        assertEquals(admin.server() + "/openid/v1/jwks", doc.path("jwks_uri").asText());
        assertEquals("[\"RS256\"]", doc.path("id_token_signing_alg_values_supported").toString());

        HttpResponse<String> jwks =
                TlsClients.send(anonymous, "GET", url("/openid/v1/jwks"), null, bearer);
        assertEquals(200, jwks.statusCode(), jwks.body());
        assertEquals(
                "application/jwk-set+json", jwks.headers().firstValue("Content-Type").orElse(""));
        JsonNode key = JSON.readTree(jwks.body()).at("/keys/0");
        JsonNode header =
                JSON.readTree(
                        Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))));
        assertEquals(header.path("kid").asText(), key.path("kid").asText());
        assertEquals("RSA", key.path("kty").asText());
        assertEquals("sig", key.path("use").asText());

        // kube binds system:service-account-issuer-discovery to service accounts only.
        HttpResponse<String> anon = TlsClients.get(anonymous, url("/openid/v1/jwks"));
        assertEquals(403, anon.statusCode(), anon.body());
    }
}
