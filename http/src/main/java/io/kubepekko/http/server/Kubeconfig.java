package io.kubepekko.http.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * Writes the admin kubeconfig that kubectl, helm and the client libraries use as is: the server's
 * HTTPS URL, the CA that verifies it, and the admin's client certificate.
 */
final class Kubeconfig {
    private Kubeconfig() {}

    /**
     * The kubeconfig of the server: the server CA to verify it with and, when the client CA is the
     * generated one, the admin's client certificate and key, all embedded (base64 PEM) so the file
     * works wherever it is copied.
     */
    static String renderTls(String serverUrl, String caPem, Optional<String[]> certAndKeyPem) {
        return render(serverUrl, caPem, "admin", certAndKeyPem);
    }

    /**
     * A kubeconfig for {@code userName} (the kubeconfig's entry name; the server knows the user by
     * the certificate): server, CA, client certificate and key embedded, context {@code kubepekko}
     * in namespace {@code default}.
     */
    static String render(
            String serverUrl, String caPem, String userName, Optional<String[]> certAndKeyPem) {
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
                    user: %s
                    namespace: default
                current-context: kubepekko
                users:
                - name: %s
                  user:%s
                preferences: {}
                """
                .formatted(serverUrl, base64(caPem), userName, userName, user);
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Writes {@code content} as the admin kubeconfig, atomically, so a client never reads a
     * half-written file; readable by the owner only.
     */
    static Path writeContent(Path dataDir, String content) throws IOException {
        Path file = dataDir.resolve("admin.kubeconfig");
        DataDirectory.writePrivately(file, content);
        return file;
    }
}
