package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubepekko.api.auth.CertificateLifetimes;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.SecureServing;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The secure port: HTTPS with the PKI the server creates under its data directory, used through the
 * admin kubeconfig it writes, beside the plain port every other test uses.
 */
class SecurePortIT {

    @RegisterExtension
    static final TestApiServer SERVER =
            TestApiServer.perClass(s -> s.withSecure(SecureServing.generated(0)));

    /** The admin kubeconfig's cluster and user. */
    private record Kubeconfig(
            String server, X509Certificate ca, X509Certificate clientCert, PrivateKey clientKey) {}

    private static Kubeconfig kubeconfig() throws Exception {
        JsonNode k =
                new ObjectMapper(new YAMLFactory())
                        .readTree(Files.readString(SERVER.server().kubeconfig()));
        JsonNode cluster = k.path("clusters").get(0).path("cluster");
        JsonNode user = k.path("users").get(0).path("user");
        return new Kubeconfig(
                cluster.path("server").asText(),
                Pem.certificates(decode(cluster.path("certificate-authority-data")), "ca").get(0),
                Pem.certificates(decode(user.path("client-certificate-data")), "cert").get(0),
                Pem.privateKey(decode(user.path("client-key-data")), "key"));
    }

    private static String decode(JsonNode base64) {
        return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.US_ASCII);
    }

    /**
     * A client trusting {@code ca} that presents {@code cert} (when given) whatever CAs the server
     * names.
     */
    private static HttpClient client(X509Certificate ca, X509Certificate cert, PrivateKey key)
            throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(
                cert == null ? null : new KeyManager[] {new Presenting(cert, key)},
                tmf.getTrustManagers(),
                null);
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(ssl)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theAdminKubeconfigReachesTheSecurePortWithItsClientCertificate() throws Exception {
        Kubeconfig k = kubeconfig();
        assertEquals(SERVER.server().secureUrl().orElseThrow(), k.server());
        assertTrue(k.server().startsWith("https://127.0.0.1:"), k.server());
        assertEquals(
                "CN=kubernetes-admin,O=system:masters",
                k.clientCert().getSubjectX500Principal().getName());

        HttpResponse<String> version =
                get(client(k.ca(), k.clientCert(), k.clientKey()), k.server() + "/version");

        assertEquals(200, version.statusCode(), version.body());
        assertTrue(version.body().contains("\"gitVersion\""), version.body());
        HttpResponse<String> namespaces =
                get(
                        client(k.ca(), k.clientCert(), k.clientKey()),
                        k.server() + "/api/v1/namespaces/default");
        assertEquals(200, namespaces.statusCode(), namespaces.body());
    }

    @Test
    void aClientWithoutACertificateStillCompletesTheHandshakeAsKubeOnlyRequestsOne()
            throws Exception {
        Kubeconfig k = kubeconfig();
        assertEquals(200, get(client(k.ca(), null, null), k.server() + "/version").statusCode());
    }

    @Test
    void aCertificateOfAnotherCaCompletesTheHandshakeAndTheAuthenticatorRefusesIt()
            throws Exception {
        Kubeconfig k = kubeconfig();
        CertificateIssuer.Issued otherCa =
                CertificateIssuer.selfSignedCa("other", Instant.now(), CertificateLifetimes.CA);
        CertificateIssuer.Issued mallory =
                CertificateIssuer.leaf(
                        otherCa,
                        CertificateIssuer.subject("mallory", List.of("system:masters")),
                        CertificateIssuer.Usage.CLIENT,
                        new ServingNames(List.of(), List.of()),
                        Instant.now(),
                        CertificateLifetimes.LEAF);

        HttpResponse<String> r =
                get(client(k.ca(), mallory.certificate(), mallory.key()), k.server() + "/version");

        // The handshake completed (an HTTP answer came); the x509 authenticator answered kube's
        // 401.
        assertEquals(401, r.statusCode(), r.body());
    }

    @Test
    void thePlainPortKeepsServing() {
        assertEquals(200, SERVER.get("/version").code());
    }

    /** Presents one certificate, whichever issuers the server asks for. */
    private static final class Presenting extends X509ExtendedKeyManager {
        private final X509Certificate cert;
        private final PrivateKey key;

        Presenting(X509Certificate cert, PrivateKey key) {
            this.cert = cert;
            this.key = key;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine e) {
            return "client";
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "client";
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"client"};
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return new X509Certificate[] {cert};
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return key;
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }
    }
}
