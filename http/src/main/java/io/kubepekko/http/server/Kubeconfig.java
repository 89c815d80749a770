package io.kubepekko.http.server;

import java.io.IOException;
import java.nio.file.Path;

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
     * Writes atomically, so a client never reads a half-written file; readable by the owner only.
     */
    static Path write(Path dataDir, String serverUrl) throws IOException {
        Path file = dataDir.resolve("admin.kubeconfig");
        DataDirectory.writePrivately(file, render(serverUrl));
        return file;
    }
}
