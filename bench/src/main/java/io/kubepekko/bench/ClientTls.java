package io.kubepekko.bench;

import io.kubepekko.agent.api.Kubeconfig;
import io.kubepekko.api.auth.CertificateLifetimes;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS side of a client of our server, as kube's own benchmarks and integration tests connect:
 * the server CA and the admin client certificate of {@code <data-dir>/admin.kubeconfig}, or a
 * client certificate for another user issued from the server's client CA under {@code
 * <data-dir>/pki}. PEM is read with the server's own {@link Pem}, certificates issued with its
 * {@link CertificateIssuer}, so the bench reads and issues exactly what the server writes.
 */
final class ClientTls {
    private static final char[] NO_PASSWORD = new char[0];

    private ClientTls() {}

    /**
     * The server a kubeconfig names, with its CA and client certificate (its current context, as
     * kubectl reads it).
     */
    static Endpoint kubeconfig(Path file) throws IOException {
        Kubeconfig k;
        try {
            k = Kubeconfig.load(file);
        } catch (Kubeconfig.Invalid e) {
            throw new IOException(e.getMessage(), e);
        }
        if (!"https".equals(k.server().getScheme())) {
            return Endpoint.plain(k.server());
        }
        if (k.caPem().isEmpty() || k.clientCertPem().isEmpty()) {
            throw new IOException(
                    file + ": the bench needs the server's CA and a client certificate");
        }
        List<X509Certificate> cas = Pem.certificates(text(k.caPem()), file + " (CA)");
        List<X509Certificate> chain =
                Pem.certificates(text(k.clientCertPem()), file + " (client certificate)");
        PrivateKey key = Pem.privateKey(text(k.clientKeyPem()), file + " (client key)");
        return new Endpoint(k.server(), context(cas, chain, key));
    }

    /**
     * TLS for {@code user} in {@code groups} against the server of {@code dataDir}: a new client
     * certificate signed by its client CA (kube's x509 authenticator takes the user from the CN and
     * the groups from O), trusting its server CA.
     */
    static SSLContext user(Path dataDir, String user, List<String> groups) throws IOException {
        Path pki = dataDir.resolve(Pki.DIRECTORY);
        CertificateIssuer.Issued clientCa =
                new CertificateIssuer.Issued(
                        Pem.certificates(pki.resolve(Pki.CLIENT_CA + ".crt")).get(0),
                        Pem.privateKey(pki.resolve(Pki.CLIENT_CA + ".key")));
        CertificateIssuer.Issued issued =
                CertificateIssuer.leaf(
                        clientCa,
                        CertificateIssuer.subject(user, groups),
                        CertificateIssuer.Usage.CLIENT,
                        new ServingNames(List.of(), List.of()),
                        Instant.now(),
                        CertificateLifetimes.LEAF);
        return context(
                Pem.certificates(pki.resolve(Pki.SERVER_CA + ".crt")),
                List.of(issued.certificate()),
                issued.key());
    }

    /** Trusting {@code cas} only, presenting {@code chain} with {@code key}. */
    static SSLContext context(
            List<X509Certificate> cas, List<X509Certificate> chain, PrivateKey key)
            throws IOException {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                trust.setCertificateEntry("ca" + i, cas.get(i));
            }
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            KeyStore identity = KeyStore.getInstance("PKCS12");
            identity.load(null, null);
            identity.setKeyEntry("client", key, NO_PASSWORD, chain.toArray(new X509Certificate[0]));
            KeyManagerFactory kmf =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(identity, NO_PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("building the client's TLS context: " + e.getMessage(), e);
        }
    }

    private static String text(Optional<byte[]> pem) throws IOException {
        return new String(
                pem.orElseThrow(() -> new IOException("no PEM data")), StandardCharsets.US_ASCII);
    }
}
