package io.kubepekko.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes the admin kubeconfig that kubectl can use as is (plain HTTP, no credentials). */
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
                """.formatted(serverUrl);
    }

    /** Writes atomically, so a client never reads a half-written file. */
    static Path write(Path dataDir, String serverUrl) throws IOException {
        Path file = dataDir.resolve("admin.kubeconfig");
        Path tmp = dataDir.resolve("admin.kubeconfig.tmp");
        Files.writeString(tmp, render(serverUrl));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }
}
