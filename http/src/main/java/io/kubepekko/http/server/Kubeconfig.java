package io.kubepekko.http.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * Writes the admin kubeconfig that kubectl can use as is (plain HTTP, no credentials). It says
 * {@code insecure-skip-tls-verify: true}: there is no TLS to verify, and some clients refuse a
 * plain {@code http://} server without it ({@code @kubernetes/client-node} 1.x and 2.x: "HTTP
 * protocol is not allowed when skipTLSVerify is not set or false"); kubectl, helm, client-go and
 * the Java clients accept it.
 */
final class Kubeconfig {
    private Kubeconfig() {}

    static String render(String serverUrl) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kubepekko
                  cluster:
                    server: %s
                    insecure-skip-tls-verify: true
                contexts:
                - name: kubepekko
                  context:
                    cluster: kubepekko
                    user: admin
                    namespace: default
                current-context: kubepekko
                users:
                - name: admin
                  user: {}
                preferences: {}
                """
                .formatted(serverUrl);
    }

    /**
     * The kubeconfig of the secure port: the server CA to verify it with and, when the client CA is
     * the generated one, the admin's client certificate and key, all embedded (base64 PEM) so the
     * file works wherever it is copied.
     */
    static String renderTls(String serverUrl, String caPem, Optional<String[]> certAndKeyPem) {
        String user =
                certAndKeyPem
                        .map(
                                p ->
                                        "\n    client-certificate-data: "
                                                + base64(p[0])
                                                + "\n    client-key-data: "
                                                + base64(p[1]))
                        .orElse(" {}");
        return """
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
                    user: admin
                    namespace: default
                current-context: kubepekko
                users:
                - name: admin
                  user:%s
                preferences: {}
                """
                .formatted(serverUrl, base64(caPem), user);
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    /** Writes {@code content} as the admin kubeconfig, as {@link #write(Path, String)} does. */
    static Path writeContent(Path dataDir, String content) throws IOException {
        Path file = dataDir.resolve("admin.kubeconfig");
        DataDirectory.writePrivately(file, content);
        return file;
    }

    /**
     * Writes atomically, so a client never reads a half-written file; readable by the owner only.
     */
    static Path write(Path dataDir, String serverUrl) throws IOException {
        Path file = dataDir.resolve("admin.kubeconfig");
        DataDirectory.writePrivately(file, render(serverUrl));
        return file;
    }
}
