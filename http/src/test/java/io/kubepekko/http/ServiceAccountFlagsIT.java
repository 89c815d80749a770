package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountKeys;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.ServiceAccountKeyFiles;
import io.kubepekko.http.server.ApiServerFlags;
import io.kubepekko.http.server.ApiServerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The service-account flags on a running server, set on its command line: two issuers (the first
 * signs, both are accepted), a second verification key from {@code --service-account-key-file}
 * whose private half signs tokens outside the server, {@code --api-audiences} as the default
 * audiences of a TokenRequest, {@code --service-account-max-token-expiration} cutting a longer one,
 * and {@code --service-account-jwks-uri} in the issuer's discovery document.
 */
class ServiceAccountFlagsIT {

    private static final String ISSUER = "https://issuer.kubepekko.test";
    private static final String OLD_ISSUER = "https://old-issuer.kubepekko.test";
    private static final String JWKS_URI = "https://keys.kubepekko.test/openid/v1/jwks";
    private static final String NS = "sa-flags";

    /** A signer outside the server: its public key is given to the server in a key file. */
    private static final KeyPair EXTERNAL = ecKey();

    private static final Path EXTERNAL_PUB = externalPublicKeyFile();

    /** The server's own verification key file (its data dir's sa.pub). */
    private static final AtomicReference<Path> SA_PUB = new AtomicReference<>();

    @RegisterExtension
    static final TestApiServer SERVER = TestApiServer.perClass(ServiceAccountFlagsIT::flags);

    /** The server's settings with the flags under test, its own sa.pub among the key files. */
    private static ApiServerSettings flags(ApiServerSettings s) {
        Path saPub = s.dataDir().resolve(Pki.DIRECTORY).resolve(Pki.SERVICE_ACCOUNT_PUBLIC_KEY);
        SA_PUB.compareAndSet(null, saPub); // every node's data dir holds the same TestPki key
        try {
            return s.withSecure(
                    ApiServerFlags.parse(
                                    new String[] {
                                        "--service-account-issuer=" + ISSUER,
                                        "--service-account-issuer=" + OLD_ISSUER,
                                        "--service-account-key-file=" + saPub,
                                        "--service-account-key-file=" + EXTERNAL_PUB,
                                        "--api-audiences=https://api.kubepekko.test,vault",
                                        "--service-account-max-token-expiration=2h",
                                        "--service-account-jwks-uri=" + JWKS_URI
                                    },
                                    new Properties())
                            .settings()
                            .secure());
        } catch (ApiServerFlags.UsageException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private static TlsClients.Kubeconfig admin;
    private static HttpClient adminClient;
    private static HttpClient anonymous;
    private static String builderUid;

    @BeforeAll
    static void clients() throws Exception {
        admin = TlsClients.kubeconfig(SERVER.server().kubeconfig());
        adminClient = TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        anonymous = TlsClients.client(admin.ca(), null, null);
        create(
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                        + NS
                        + "\"}}");
        builderUid =
                JSON.readTree(
                                create(
                                                "/api/v1/namespaces/" + NS + "/serviceaccounts",
                                                "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
                                                        + "\"metadata\":{\"name\":\"builder\"}}")
                                        .body())
                        .at("/metadata/uid")
                        .asText();
    }

    private static HttpResponse<String> create(String path, String body) throws Exception {
        HttpResponse<String> r =
                TlsClients.send(adminClient, "POST", admin.server() + path, body, Map.of());
        assertEquals(201, r.statusCode(), r.body());
        return r;
    }

    private static HttpResponse<String> tokenRequest(String spec) throws Exception {
        return create(
                "/api/v1/namespaces/" + NS + "/serviceaccounts/builder/token",
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                        + "\"spec\":"
                        + spec
                        + "}");
    }

    /** The user a SelfSubjectReview with this bearer token answers, or the error status code. */
    private static HttpResponse<String> whoami(String token) throws Exception {
        return TlsClients.send(
                anonymous,
                "POST",
                admin.server() + "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}",
                Map.of("Authorization", "Bearer " + token));
    }

    private static JsonNode claims(String token) throws Exception {
        return JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    }

    @Test
    void aTokenRequestWithoutAudiencesGetsTheApiAudiencesAndTheFirstIssuer() throws Exception {
        JsonNode answer = JSON.readTree(tokenRequest("{}").body());
        assertEquals(
                "[\"https://api.kubepekko.test\",\"vault\"]",
                answer.at("/spec/audiences").toString());
        String token = answer.at("/status/token").asText();
        JsonNode claims = claims(token);
        assertEquals(ISSUER, claims.path("iss").asText());
        assertEquals("[\"https://api.kubepekko.test\",\"vault\"]", claims.path("aud").toString());
        // The index learns of the service account through its watch.
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> whoami(token).statusCode() == 201);
    }

    @Test
    void theMaximumExpirationCutsALongerRequestWithKubesWarning() throws Exception {
        Instant before = Instant.now().minusSeconds(1);
        HttpResponse<String> r = tokenRequest("{\"expirationSeconds\":86400}");
        assertEquals(
                "299 - \"requested expiration of 86400 seconds shortened to 7200 seconds\"",
                r.headers().firstValue("Warning").orElse(""));
        JsonNode answer = JSON.readTree(r.body());
        assertEquals(7200, answer.at("/spec/expirationSeconds").asLong());
        Instant expiration = Instant.parse(answer.at("/status/expirationTimestamp").asText());
        assertTrue(
                !expiration.isBefore(before.plusSeconds(7200))
                        && !expiration.isAfter(Instant.now().plusSeconds(7201)),
                expiration.toString());
        JsonNode claims = claims(answer.at("/status/token").asText());
        assertEquals(7200, claims.path("exp").asLong() - claims.path("iat").asLong());

        HttpResponse<String> shorter = tokenRequest("{\"expirationSeconds\":3600}");
        assertTrue(shorter.headers().firstValue("Warning").isEmpty(), shorter.headers().toString());
        assertEquals(3600, JSON.readTree(shorter.body()).at("/spec/expirationSeconds").asLong());
    }

    @Test
    void aTokenOfTheSecondIssuerSignedOutsideWithAKeyFileKeyAuthenticates() throws Exception {
        long now = Instant.now().getEpochSecond();
        ObjectNode payload = JSON.createObjectNode();
        payload.putArray("aud").add("vault");
        payload.put("exp", now + 600);
        payload.put("iat", now);
        payload.put("iss", OLD_ISSUER);
        ObjectNode k8s = payload.putObject("kubernetes.io");
        k8s.put("namespace", NS);
        k8s.putObject("serviceaccount").put("name", "builder").put("uid", builderUid);
        payload.put("nbf", now);
        payload.put("sub", "system:serviceaccount:" + NS + ":builder");
        JWSObject jws =
                new JWSObject(
                        new JWSHeader.Builder(JWSAlgorithm.ES256)
                                .keyID(ServiceAccountKeys.keyId(EXTERNAL.getPublic()))
                                .build(),
                        new Payload(payload.toString()));
        jws.sign(new ECDSASigner((ECPrivateKey) EXTERNAL.getPrivate()));
        String token = jws.serialize();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> whoami(token).statusCode() == 201);
        assertEquals(
                "system:serviceaccount:" + NS + ":builder",
                JSON.readTree(whoami(token).body()).at("/status/userInfo/username").asText());

        // The same claims from an issuer not given: not a service-account token of this server.
        payload.put("iss", "https://stranger.kubepekko.test");
        JWSObject stranger = new JWSObject(jws.getHeader(), new Payload(payload.toString()));
        stranger.sign(new ECDSASigner((ECPrivateKey) EXTERNAL.getPrivate()));
        assertEquals(401, whoami(stranger.serialize()).statusCode());
    }

    @Test
    void theDiscoveryDocumentNamesTheIssuerTheJwksUriAndEveryKeyFileKey() throws Exception {
        HttpResponse<String> config =
                TlsClients.get(adminClient, admin.server() + "/.well-known/openid-configuration");
        assertEquals(200, config.statusCode(), config.body());
        JsonNode doc = JSON.readTree(config.body());
        assertEquals(ISSUER, doc.path("issuer").asText());
        assertEquals(JWKS_URI, doc.path("jwks_uri").asText());
        assertEquals(
                "[\"ES256\",\"RS256\"]",
                doc.path("id_token_signing_alg_values_supported").toString());

        HttpResponse<String> jwks = TlsClients.get(adminClient, admin.server() + "/openid/v1/jwks");
        assertEquals(200, jwks.statusCode(), jwks.body());
        List<String> kids = new ArrayList<>();
        JSON.readTree(jwks.body()).path("keys").forEach(k -> kids.add(k.path("kid").asText()));
        assertEquals(
                List.of(
                        ServiceAccountKeys.keyId(
                                ServiceAccountKeyFiles.publicKeys(SA_PUB.get()).get(0)),
                        ServiceAccountKeys.keyId(EXTERNAL.getPublic())),
                kids);
    }

    private static KeyPair ecKey() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path externalPublicKeyFile() {
        try {
            Path file = Files.createTempFile("kubepekko-external-sa-", ".pub");
            file.toFile().deleteOnExit();
            Files.writeString(file, Pem.encode(EXTERNAL.getPublic()));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
