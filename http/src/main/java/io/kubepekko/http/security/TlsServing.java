package io.kubepekko.http.security;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.pekko.http.javadsl.ConnectionContext;
import org.apache.pekko.http.javadsl.HttpsConnectionContext;

/**
 * The secure port's TLS: the serving certificate, the versions and cipher suites of the flags, and
 * client certificates requested but neither required nor verified in the handshake. That is kube's
 * {@code tls.RequestClientCert} (secure_serving.go): a request without a certificate may still
 * authenticate with a token or be anonymous, and a certificate is verified by the x509
 * authenticator, which answers 401 for a bad one rather than failing the handshake. The client CAs'
 * subjects are still sent as acceptable issuers, as Go sends its {@code ClientCAs}.
 *
 * <p>The server picks the cipher suite by its own preference, Go's on hardware with AES
 * instructions ({@link CipherSuites#inGoOrder}): a JDK client, which offers AES-256-GCM first, gets
 * AES-128-GCM from kube-apiserver and from us alike, and pays fewer AES rounds per record.
 */
public final class TlsServing {
    private TlsServing() {}

    /** The connection context of a secure listener serving {@code material} with {@code flags}. */
    public static HttpsConnectionContext context(Pki.Material material, SecureServing flags) {
        return ConnectionContext.httpsServer(engines(material, flags)::get);
    }

    /**
     * A new server-side engine for each connection of a secure listener serving {@code material}
     * with {@code flags}.
     */
    public static Supplier<SSLEngine> engines(Pki.Material material, SecureServing flags) {
        SSLContext ssl = sslContext(material);
        List<String> protocols = flags.minVersion().protocolsFromHere();
        List<String> suites = flags.cipherSuites();
        return () -> {
            SSLEngine engine = ssl.createSSLEngine();
            engine.setUseClientMode(false);
            SSLParameters p = engine.getSSLParameters();
            p.setWantClientAuth(true);
            List<String> supported = Arrays.asList(engine.getSupportedProtocols());
            p.setProtocols(protocols.stream().filter(supported::contains).toArray(String[]::new));
            String[] enabled =
                    suites.isEmpty()
                            ? engine.getEnabledCipherSuites()
                            : cipherSuites(engine, suites);
            p.setCipherSuites(CipherSuites.inGoOrder(enabled));
            p.setUseCipherSuitesOrder(true);
            engine.setSSLParameters(p);
            return engine;
        };
    }

    /** The suites named, those the JDK has, and every TLS 1.3 suite (fixed in Go). */
    private static String[] cipherSuites(SSLEngine engine, List<String> named) {
        List<String> supported = Arrays.asList(engine.getSupportedCipherSuites());
        List<String> enabled = new ArrayList<>();
        for (String s : engine.getEnabledCipherSuites()) {
            if (CipherSuites.tls13(s)) {
                enabled.add(s);
            }
        }
        for (String s : named) {
            if (supported.contains(s) && !enabled.contains(s)) {
                enabled.add(s);
            }
        }
        return enabled.toArray(String[]::new);
    }

    static SSLContext sslContext(Pki.Material material) {
        try {
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(
                    new KeyManager[] {
                        new ServingKeyManager(material.servingChain(), material.servingKey())
                    },
                    new TrustManager[] {new RequestClientCert(material.clientCas())},
                    null);
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("building the TLS context of the secure port", e);
        }
    }

    /**
     * Accepts whatever client certificate is sent, leaving it to the x509 authenticator; never used
     * to check a server (the secure port is no client).
     */
    private static final class RequestClientCert extends X509ExtendedTrustManager {
        private final X509Certificate[] acceptedIssuers;

        RequestClientCert(List<X509Certificate> clientCas) {
            this.acceptedIssuers = clientCas.toArray(X509Certificate[]::new);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(
                X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType)
                throws CertificateException {
            throw new CertificateException("the secure port checks no server");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return acceptedIssuers.clone();
        }
    }
}
