package io.kubepekko.agent.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.Pem;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's TLS against a real HTTPS server that asks for a client certificate (the JDK's {@link
 * HttpsServer}), with certificates issued as the API server issues its own ({@link
 * CertificateIssuer}: ECDSA P-256): the client's key in each PEM form client-go reads, the server
 * verified against the kubeconfig's CA and its host name, and what is refused.
 */
class TlsTest {
    private static final Instant NOW = Instant.now();
    private static final Duration YEAR = Duration.ofDays(365);

    @TempDir Path dir;

    private final CertificateIssuer.Issued serverCa =
            CertificateIssuer.selfSignedCa("test-server-ca", NOW, YEAR);
    private final CertificateIssuer.Issued clientCa =
            CertificateIssuer.selfSignedCa("test-client-ca", NOW, YEAR);
    private HttpsServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void anEcClientKeyInSec1AsTheServerAndKubeadmWriteItAuthenticatesAndTheServerIsVerified()
            throws Exception {
        CertificateIssuer.Issued node = client("system:node:n1", "system:nodes");
        serve(serving("127.0.0.1"));
        Kubeconfig k = kubeconfig(Pem.encode(node.certificate()), Pem.encode(node.key()));
        assertTrue(Pem.encode(node.key()).startsWith("-----BEGIN EC PRIVATE KEY-----"));
        assertEquals("CN=system:node:n1,O=system:nodes", peer(k));
    }

    @Test
    void anEcClientKeyInPkcs8FormAsOpensslGenpkeyWritesItAuthenticates() throws Exception {
        CertificateIssuer.Issued node = client("system:node:n2", "system:nodes");
        serve(serving("127.0.0.1"));
        String pkcs8 = pem("PRIVATE KEY", node.key().getEncoded());
        assertEquals(
                "CN=system:node:n2,O=system:nodes",
                peer(kubeconfig(Pem.encode(node.certificate()), pkcs8)));
    }

    @Test
    void anRsaClientKeyInPkcs1AndInPkcs8Authenticates() throws Exception {
        KeyPair rsa = CertificateIssuer.rsaKey();
        X509Certificate cert = signed(clientCa, "rsa-user", rsa);
        serve(serving("127.0.0.1"));
        String pkcs1 = Pem.encode(rsa.getPrivate());
        assertTrue(pkcs1.startsWith("-----BEGIN RSA PRIVATE KEY-----"), pkcs1);
        assertEquals("CN=rsa-user", peer(kubeconfig(Pem.encode(cert), pkcs1)));
        String pkcs8 = pem("PRIVATE KEY", rsa.getPrivate().getEncoded());
        assertEquals("CN=rsa-user", peer(kubeconfig(Pem.encode(cert), pkcs8)));
    }

    @Test
    void aServerCertificateThatDoesNotNameTheHostIsRefusedThoughTheCaSignedIt() throws Exception {
        CertificateIssuer.Issued node = client("system:node:n1", "system:nodes");
        serve(serving("10.9.9.9"));
        ApiError error =
                failure(kubeconfig(Pem.encode(node.certificate()), Pem.encode(node.key())));
        assertTrue(error.toString().startsWith("SSLHandshakeException"), error.toString());
        assertTrue(error.toString().contains("127.0.0.1"), error.toString());
    }

    @Test
    void aServerCertificateOfAnotherCaIsRefused() throws Exception {
        CertificateIssuer.Issued node = client("system:node:n1", "system:nodes");
        CertificateIssuer.Issued otherCa = CertificateIssuer.selfSignedCa("other", NOW, YEAR);
        serve(
                CertificateIssuer.leaf(
                        otherCa,
                        CertificateIssuer.subject("kube-apiserver", List.of()),
                        CertificateIssuer.Usage.SERVER,
                        new ServingNames(List.of("localhost"), List.of("127.0.0.1")),
                        NOW,
                        YEAR));
        ApiError error =
                failure(kubeconfig(Pem.encode(node.certificate()), Pem.encode(node.key())));
        assertTrue(error.toString().startsWith("SSLHandshakeException"), error.toString());
    }

    @Test
    void insecureSkipTlsVerifyAcceptsAnyCertificateForAnyHost() throws Exception {
        CertificateIssuer.Issued node = client("system:node:n1", "system:nodes");
        serve(serving("10.9.9.9"));
        Kubeconfig k =
                load(
                        """
                        apiVersion: v1
                        kind: Config
                        clusters:
                        - name: c
                          cluster: {server: "%s", insecure-skip-tls-verify: true}
                        contexts:
                        - name: x
                          context: {cluster: c, user: u}
                        current-context: x
                        users:
                        - name: u
                          user: {client-certificate-data: %s, client-key-data: %s}
                        """
                                .formatted(
                                        url(),
                                        base64(Pem.encode(node.certificate())),
                                        base64(Pem.encode(node.key()))));
        assertEquals("CN=system:node:n1,O=system:nodes", peer(k));
    }

    @Test
    void aClientKeyThatIsNotTheCertificatesIsRefusedBeforeAnyRequest() throws Exception {
        CertificateIssuer.Issued node = client("system:node:n1", "system:nodes");
        CertificateIssuer.Issued other = client("someone", "else");
        serve(serving("127.0.0.1"));
        Kubeconfig k = kubeconfig(Pem.encode(node.certificate()), Pem.encode(other.key()));
        GeneralSecurityException e = assertThrows(GeneralSecurityException.class, () -> client(k));
        assertEquals(
                "the client key does not match the client certificate's public key",
                e.getMessage());
        KeyPair rsa = CertificateIssuer.rsaKey();
        Kubeconfig mixed = kubeconfig(Pem.encode(node.certificate()), Pem.encode(rsa.getPrivate()));
        assertThrows(GeneralSecurityException.class, () -> client(mixed));
    }

    @Test
    void aPemWithoutAKeyIsNamed() {
        GeneralSecurityException e =
                assertThrows(
                        GeneralSecurityException.class,
                        () ->
                                Tls.privateKey(
                                        Pem.encode(serverCa.certificate())
                                                .getBytes(StandardCharsets.US_ASCII)));
        assertEquals("no private key in PEM data", e.getMessage());
    }

    @Test
    void aCaWithInsecureSkipTlsVerifyIsRefusedAsClientGoRefusesIt() throws Exception {
        Path f = dir.resolve("config");
        Files.writeString(
                f,
                """
                clusters:
                - name: c
                  cluster: {server: "https://127.0.0.1:6443", insecure-skip-tls-verify: true, certificate-authority-data: %s}
                contexts:
                - name: x
                  context: {cluster: c}
                current-context: x
                """
                        .formatted(base64(Pem.encode(serverCa.certificate()))));
        Kubeconfig.Invalid e = assertThrows(Kubeconfig.Invalid.class, () -> Kubeconfig.load(f));
        assertEquals(
                "kubeconfig "
                        + f
                        + ": specifying a root certificates file with the insecure flag is not allowed",
                e.getMessage());
    }

    /** The subject the server saw on the client's certificate. */
    private String peer(Kubeconfig k) throws Exception {
        ObjectNode answer =
                client(k).get("/whoami").toCompletableFuture().get(30, TimeUnit.SECONDS);
        return answer.path("subject").asText();
    }

    private ApiError failure(Kubeconfig k) throws Exception {
        ExecutionException e =
                assertThrows(
                        ExecutionException.class,
                        () ->
                                client(k)
                                        .get("/whoami")
                                        .toCompletableFuture()
                                        .get(30, TimeUnit.SECONDS));
        return ApiError.of(e);
    }

    private static ApiClient client(Kubeconfig k) throws GeneralSecurityException {
        return new ApiClient(
                k, "test", new TokenBucket(100, 100, System.nanoTime()), Duration.ofSeconds(20));
    }

    /** A kubeconfig file as the server's: CA, certificate and key embedded; then loaded. */
    private Kubeconfig kubeconfig(String certPem, String keyPem) throws Exception {
        Files.writeString(dir.resolve("client.key"), keyPem);
        return load(
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "%s", certificate-authority-data: %s}
                contexts:
                - name: x
                  context: {cluster: c, user: u}
                current-context: x
                users:
                - name: u
                  user: {client-certificate-data: %s, client-key: client.key}
                """
                        .formatted(
                                url(),
                                base64(Pem.encode(serverCa.certificate())),
                                base64(certPem)));
    }

    private Kubeconfig load(String text) throws Exception {
        Path f = dir.resolve("kubeconfig");
        Files.writeString(f, text);
        return Kubeconfig.load(f);
    }

    private String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    private CertificateIssuer.Issued client(String user, String group) {
        return CertificateIssuer.leaf(
                clientCa,
                CertificateIssuer.subject(user, List.of(group)),
                CertificateIssuer.Usage.CLIENT,
                new ServingNames(List.of(), List.of()),
                NOW,
                YEAR);
    }

    private CertificateIssuer.Issued serving(String ip) {
        return CertificateIssuer.leaf(
                serverCa,
                CertificateIssuer.subject("kube-apiserver", List.of()),
                CertificateIssuer.Usage.SERVER,
                new ServingNames(List.of("kubernetes"), List.of(ip)),
                NOW,
                YEAR);
    }

    /** Serves {@code /whoami} with {@code serving}, requiring a client certificate of clientCa. */
    private void serve(CertificateIssuer.Issued serving) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry(
                "serving",
                serving.key(),
                new char[0],
                new X509Certificate[] {serving.certificate()});
        KeyManagerFactory kmf =
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("client-ca", clientCa.certificate());
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(
                new HttpsConfigurator(ctx) {
                    @Override
                    public void configure(HttpsParameters params) {
                        // Through SSLParameters: the JDK applies a plain setNeedClientAuth and
                        // then clears it with setWantClientAuth(false).
                        SSLParameters ssl = getSSLContext().getDefaultSSLParameters();
                        ssl.setNeedClientAuth(true);
                        params.setSSLParameters(ssl);
                    }
                });
        server.createContext(
                "/whoami",
                exchange -> {
                    String subject =
                            ((X509Certificate)
                                            ((HttpsExchange) exchange)
                                                    .getSSLSession()
                                                    .getPeerCertificates()[0])
                                    .getSubjectX500Principal()
                                    .getName();
                    byte[] body =
                            ("{\"subject\":\"" + subject + "\"}").getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, body.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(body);
                    }
                });
        server.start();
    }

    private static String pem(String type, byte[] der) throws IOException {
        StringWriter out = new StringWriter();
        try (PemWriter w = new PemWriter(out)) {
            w.writeObject(new PemObject(type, der));
        }
        return out.toString();
    }

    /** A client certificate for an RSA key (the issuer makes EC keys only). */
    private static X509Certificate signed(CertificateIssuer.Issued ca, String cn, KeyPair key)
            throws Exception {
        JcaX509v3CertificateBuilder b =
                new JcaX509v3CertificateBuilder(
                        X500Name.getInstance(
                                ca.certificate().getSubjectX500Principal().getEncoded()),
                        BigInteger.valueOf(System.nanoTime()),
                        Date.from(NOW.minus(Duration.ofHours(1))),
                        Date.from(NOW.plus(YEAR)),
                        CertificateIssuer.subject(cn, List.of()),
                        key.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        PrivateKey signer = ca.key();
        return new JcaX509CertificateConverter()
                .getCertificate(
                        b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }
}
