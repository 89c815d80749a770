package io.kubepekko.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.ClientTlsContexts;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * A client's side of the server's TLS, as a kubeconfig gives it: the server CA to verify the
 * serving certificate with, and the client certificate (with its key) that says who the client is,
 * or none (then the server takes the client for {@code system:anonymous}). Read from a server's
 * {@code admin.kubeconfig}, or made for another user with a certificate from a server's client CA
 * ({@link #userCertificate}), as kube's own tests make theirs.
 *
 * @param serverCa the CA the serving certificate is checked against
 * @param user the client certificate and key presented, if any
 */
public record ClientTls(X509Certificate serverCa, Optional<CertificateIssuer.Issued> user) {

    /** The cluster's CA and the first user of {@code kubeconfig} (embedded PEM data). */
    public static ClientTls fromKubeconfig(Path kubeconfig) {
        try {
            JsonNode k = new YAMLMapper().readTree(Files.readString(kubeconfig));
            JsonNode cluster = k.path("clusters").path(0).path("cluster");
            JsonNode user = k.path("users").path(0).path("user");
            X509Certificate ca =
                    Pem.certificates(decode(cluster.path("certificate-authority-data")), "CA")
                            .get(0);
            if (!user.hasNonNull("client-certificate-data")) {
                return new ClientTls(ca, Optional.empty());
            }
            return new ClientTls(
                    ca,
                    Optional.of(
                            new CertificateIssuer.Issued(
                                    Pem.certificates(
                                                    decode(user.path("client-certificate-data")),
                                                    "client certificate")
                                            .get(0),
                                    Pem.privateKey(
                                            decode(user.path("client-key-data")), "client key"))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kubeconfig " + kubeconfig, e);
        }
    }

    /** The {@code server:} URL of the first cluster of {@code kubeconfig}. */
    public static String serverOf(Path kubeconfig) {
        try {
            return new YAMLMapper()
                    .readTree(Files.readString(kubeconfig))
                    .path("clusters")
                    .path(0)
                    .path("cluster")
                    .path("server")
                    .asText();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the kubeconfig " + kubeconfig, e);
        }
    }

    /** The admin of {@code pki}: its server CA and its admin client certificate. */
    public static ClientTls admin(Pki.Material pki) {
        return new ClientTls(pki.serverCa(), Optional.of(pki.admin().orElseThrow()));
    }

    /**
     * A client certificate for {@code user} in {@code groups} (CN and O, as kube reads them),
     * signed by the client CA under {@code dataDir/pki}: the server there, and every server sharing
     * its CAs, authenticates it.
     */
    public static CertificateIssuer.Issued userCertificate(
            Path dataDir, String user, List<String> groups) {
        try {
            return Pki.issueClient(dataDir, user, groups, Clock.systemUTC());
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** The same trust, presenting {@code certificate} instead. */
    public ClientTls as(CertificateIssuer.Issued certificate) {
        return new ClientTls(serverCa, Optional.of(certificate));
    }

    /** The same trust, presenting no certificate: the server's anonymous user. */
    public ClientTls anonymous() {
        return new ClientTls(serverCa, Optional.empty());
    }

    /** TLS trusting only the server CA, presenting the user's certificate if there is one. */
    public SSLContext sslContext() {
        try {
            return ClientTlsContexts.of(
                    List.of(serverCa),
                    user.map(u -> List.of(u.certificate())).orElse(List.of()),
                    user.map(CertificateIssuer.Issued::key).orElse(null));
        } catch (IOException e) {
            throw new IllegalStateException("TLS context of the test client", e);
        }
    }

    /** An HTTP/1.1 client with this TLS and a 5 s connect timeout. */
    public HttpClient httpClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(sslContext())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /**
     * Writes a kubeconfig for this client of {@code server} to {@code file}, every credential
     * embedded, as the server writes its admin's; without a certificate its user is empty
     * (anonymous), unless {@code token} names a bearer token.
     */
    public Path writeKubeconfig(Path file, String server, Optional<String> token) {
        StringBuilder userFields = new StringBuilder();
        user.ifPresent(
                u ->
                        userFields
                                .append("\n    client-certificate-data: ")
                                .append(base64(Pem.encode(u.certificate())))
                                .append("\n    client-key-data: ")
                                .append(base64(Pem.encode(u.key()))));
        token.ifPresent(t -> userFields.append("\n    token: ").append(t));
        String text =
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kubepekko
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                contexts:
                - name: kubepekko
                  context:
                    cluster: kubepekko
                    user: user
                    namespace: default
                current-context: kubepekko
                users:
                - name: user
                  user:%s
                """
                        .formatted(
                                server,
                                base64(Pem.encode(serverCa)),
                                userFields.isEmpty() ? " {}" : userFields);
        try {
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String decode(JsonNode base64) {
        if (!base64.isTextual()) {
            throw new IllegalArgumentException("no embedded PEM data: " + base64);
        }
        return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.US_ASCII);
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }
}
