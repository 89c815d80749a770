package io.kubepekko.bench;

import io.kubepekko.agent.api.Kubeconfig;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.ClientTlsContexts;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * The TLS side of a client of our server, as kube's own benchmarks and integration tests connect:
 * the server CA and the admin client certificate of {@code <data-dir>/admin.kubeconfig}, or a
 * client certificate for another user issued from the server's client CA under {@code
 * <data-dir>/pki}. PEM is read with the server's own {@link Pem}, certificates issued with its
 * {@link CertificateIssuer}, so the bench reads and issues exactly what the server writes.
 */
final class ClientTls {
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
        CertificateIssuer.Issued issued = Pki.issueClient(dataDir, user, groups, Clock.systemUTC());
        return context(
                Pem.certificates(dataDir.resolve(Pki.DIRECTORY).resolve(Pki.SERVER_CA + ".crt")),
                List.of(issued.certificate()),
                issued.key());
    }

    /** Trusting {@code cas} only, presenting {@code chain} with {@code key}. */
    static SSLContext context(
            List<X509Certificate> cas, List<X509Certificate> chain, PrivateKey key)
            throws IOException {
        return ClientTlsContexts.of(cas, chain, key);
    }

    private static String text(Optional<byte[]> pem) throws IOException {
        return new String(
                pem.orElseThrow(() -> new IOException("no PEM data")), StandardCharsets.US_ASCII);
    }
}
