package io.kubepekko.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubepekko.api.auth.CertificateLifetimes;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.ClientTlsContexts;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * HTTPS clients of a test server's secure port: the admin kubeconfig's cluster and user, clients
 * presenting any certificate, and certificates for other users signed by the server's client CA.
 */
public final class TlsClients {
    private TlsClients() {}

    /** The admin kubeconfig's cluster and user. */
    public record Kubeconfig(
            String server, X509Certificate ca, X509Certificate clientCert, PrivateKey clientKey) {}

    public static Kubeconfig kubeconfig(Path file) throws Exception {
        JsonNode k = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(file));
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
     * A client certificate for {@code user} in {@code groups}, signed by the server's client CA.
     */
    public static CertificateIssuer.Issued userCertificate(
            Path dataDir, String user, List<String> groups) throws Exception {
        return Pki.issueClient(dataDir, user, groups, Clock.systemUTC());
    }

    /** A client certificate signed by a CA the server does not know. */
    public static CertificateIssuer.Issued strangerCertificate(String user, List<String> groups) {
        CertificateIssuer.Issued otherCa =
                CertificateIssuer.selfSignedCa("other", Instant.now(), CertificateLifetimes.CA);
        return CertificateIssuer.leaf(
                otherCa,
                CertificateIssuer.subject(user, groups),
                CertificateIssuer.Usage.CLIENT,
                new ServingNames(List.of(), List.of()),
                Instant.now(),
                CertificateLifetimes.LEAF);
    }

    /**
     * A client trusting {@code ca} that presents {@code cert} (when given) whatever CAs the server
     * names.
     */
    public static HttpClient client(X509Certificate ca, X509Certificate cert, PrivateKey key)
            throws Exception {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(context(ca, cert, key))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /**
     * TLS trusting {@code ca}, presenting {@code cert} (when given) whatever CAs the server names.
     */
    public static SSLContext context(X509Certificate ca, X509Certificate cert, PrivateKey key)
            throws Exception {
        return ClientTlsContexts.of(List.of(ca), cert == null ? List.of() : List.of(cert), key);
    }

    public static HttpResponse<String> get(HttpClient client, String url) throws Exception {
        return send(client, "GET", url, null, Map.of());
    }

    public static HttpResponse<String> send(
            HttpClient client, String method, String url, String json, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .method(
                                method,
                                json == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(json));
        // a patch names its own media type
        if (json != null && !headers.containsKey("Content-Type")) {
            b.header("Content-Type", "application/json");
        }
        headers.forEach(b::header);
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
