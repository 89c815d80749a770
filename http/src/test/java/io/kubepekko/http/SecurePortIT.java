package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.auth.CertificateLifetimes;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.CertificateIssuer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The secure port, the server's only one: HTTPS with the PKI the server creates under its data
 * directory, used through the admin kubeconfig it writes.
 */
class SecurePortIT {

    @RegisterExtension static final TestApiServer SERVER = TestApiServer.perClass();

    private static TlsClients.Kubeconfig kubeconfig() throws Exception {
        return TlsClients.kubeconfig(SERVER.server().kubeconfig());
    }

    private static HttpClient client(X509Certificate ca, X509Certificate cert, PrivateKey key)
            throws Exception {
        return TlsClients.client(ca, cert, key);
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
        return TlsClients.get(client, url);
    }

    @Test
    void theAdminKubeconfigReachesTheSecurePortWithItsClientCertificate() throws Exception {
        TlsClients.Kubeconfig k = kubeconfig();
        assertEquals(SERVER.server().url(), k.server());
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
        TlsClients.Kubeconfig k = kubeconfig();
        assertEquals(200, get(client(k.ca(), null, null), k.server() + "/version").statusCode());
    }

    @Test
    void aCertificateOfAnotherCaCompletesTheHandshakeAndTheAuthenticatorRefusesIt()
            throws Exception {
        TlsClients.Kubeconfig k = kubeconfig();
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

    /**
     * A JDK client offers AES-256-GCM first; kube-apiserver (Go, on hardware with AES instructions)
     * answers with TLS 1.3 and AES-128-GCM, and so does the secure port.
     */
    @Test
    void aJdkClientGetsTls13WithAes128GcmAsFromKubeApiserver() throws Exception {
        TlsClients.Kubeconfig k = kubeconfig();
        URI url = URI.create(k.server());
        SSLContext tls = TlsClients.context(k.ca(), k.clientCert(), k.clientKey());
        try (SSLSocket socket =
                (SSLSocket) tls.getSocketFactory().createSocket(url.getHost(), url.getPort())) {
            assertEquals("TLS_AES_256_GCM_SHA384", socket.getEnabledCipherSuites()[0]);
            socket.startHandshake();
            assertEquals("TLSv1.3", socket.getSession().getProtocol());
            assertEquals("TLS_AES_128_GCM_SHA256", socket.getSession().getCipherSuite());
        }
    }

    @Test
    void thePlainPortKeepsServing() {
        assertEquals(200, SERVER.get("/version").code());
    }
}
