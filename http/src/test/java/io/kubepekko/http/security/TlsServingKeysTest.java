package io.kubepekko.http.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

/**
 * The secure port presents its serving chain for the key type a handshake asks for, whether the key
 * is EC (the generated one) or RSA (an operator's {@code --tls-cert-file}), over TLS 1.3 and 1.2; a
 * client that accepts no signature the key can make fails the handshake.
 */
class TlsServingKeysTest {

    @Test
    void anEcServingKeyIsPresentedOverTls13AndTls12() throws Exception {
        Served ec = serving(CertificateIssuer.ecKey(), "SHA256withECDSA");
        assertEquals(ec.leaf(), handshake(ec, "TLSv1.3", null));
        assertEquals(
                ec.leaf(),
                handshake(ec, "TLSv1.2", new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"}));
    }

    @Test
    void anRsaServingKeyIsPresentedOverTls13AndTls12() throws Exception {
        Served rsa = serving(CertificateIssuer.rsaKey(), "SHA256withRSA");
        assertEquals(rsa.leaf(), handshake(rsa, "TLSv1.3", null));
        assertEquals(
                rsa.leaf(),
                handshake(rsa, "TLSv1.2", new String[] {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"}));
    }

    @Test
    void aClientAcceptingOnlyRsaSuitesFailsAgainstAnEcKey() throws Exception {
        Served ec = serving(CertificateIssuer.ecKey(), "SHA256withECDSA");
        assertThrows(
                SSLHandshakeException.class,
                () ->
                        handshake(
                                ec,
                                "TLSv1.2",
                                new String[] {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"}));
    }

    private record Served(Pki.Material material, X509Certificate leaf) {}

    private static Served serving(KeyPair key, String signature) throws Exception {
        Instant now = Instant.now();
        X500Name name = new X500Name("CN=localhost");
        X509Certificate cert =
                new JcaX509CertificateConverter()
                        .getCertificate(
                                new JcaX509v3CertificateBuilder(
                                                name,
                                                BigInteger.valueOf(now.toEpochMilli()),
                                                Date.from(now.minus(Duration.ofHours(1))),
                                                Date.from(now.plus(Duration.ofHours(1))),
                                                name,
                                                key.getPublic())
                                        .build(
                                                new JcaContentSignerBuilder(signature)
                                                        .build(key.getPrivate())));
        Pki.Material material =
                new Pki.Material(
                        List.of(cert),
                        key.getPrivate(),
                        cert,
                        List.of(cert),
                        Optional.empty(),
                        Path.of("unused-sa.key"),
                        Path.of("unused-sa.pub"));
        return new Served(material, cert);
    }

    /** Connects a JDK client trusting the leaf; answers the certificate the server presented. */
    private static X509Certificate handshake(Served served, String protocol, String[] suites)
            throws Exception {
        SSLContext server = TlsServing.sslContext(served.material());
        try (SSLServerSocket listener =
                (SSLServerSocket)
                        server.getServerSocketFactory()
                                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> accepted =
                    CompletableFuture.runAsync(
                            () -> {
                                try (SSLSocket s = (SSLSocket) listener.accept()) {
                                    s.startHandshake();
                                } catch (Exception e) {
                                    // the client's side reports the failure
                                }
                            });
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("leaf", served.leaf());
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext client = SSLContext.getInstance("TLS");
            client.init(null, tmf.getTrustManagers(), null);
            try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket()) {
                s.connect(
                        new InetSocketAddress(
                                InetAddress.getLoopbackAddress(), listener.getLocalPort()),
                        10_000);
                s.setSoTimeout(10_000);
                s.setEnabledProtocols(new String[] {protocol});
                if (suites != null) {
                    s.setEnabledCipherSuites(suites);
                }
                s.startHandshake();
                return (X509Certificate) s.getSession().getPeerCertificates()[0];
            } finally {
                accepted.get(10, TimeUnit.SECONDS);
            }
        }
    }
}
