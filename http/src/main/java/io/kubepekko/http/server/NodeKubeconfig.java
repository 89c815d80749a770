package io.kubepekko.http.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.auth.node.NodeIdentifier;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A node agent's kubeconfig, as a kubelet's: a client certificate for {@code system:node:<name>} in
 * group {@code system:nodes}, issued by the client CA in a server's data directory, so the Node
 * authorizer confines the agent to its own Node, Lease and pods and what they reference. The server
 * URL and the CA that verifies it are the admin kubeconfig's the server wrote into the same data
 * directory (its address as the server sees it; another can be given).
 */
public final class NodeKubeconfig {
    private NodeKubeconfig() {}

    /**
     * The kubeconfig text for node {@code nodeName}: a new certificate and key each call.
     *
     * @param server the URL to put in it instead of the admin kubeconfig's
     * @throws IOException when the data directory lacks the admin kubeconfig or the client CA
     */
    public static String render(Path dataDir, String nodeName, Optional<String> server, Clock clock)
            throws IOException {
        Path admin = dataDir.resolve("admin.kubeconfig");
        if (!Files.isRegularFile(admin)) {
            throw new IOException(
                    admin + " not found: start the API server with this --data-dir first");
        }
        JsonNode root = Json.YAML.readTree(Files.readString(admin));
        JsonNode cluster = root.path("clusters").path(0).path("cluster");
        String ca = cluster.path("certificate-authority-data").asText("");
        String url = server.orElse(cluster.path("server").asText(""));
        if (ca.isEmpty() || url.isEmpty()) {
            throw new IOException(admin + " names no server or CA");
        }
        CertificateIssuer.Issued issued =
                Pki.issueClient(
                        dataDir,
                        NodeIdentifier.userName(nodeName),
                        List.of(NodeIdentifier.NODES_GROUP),
                        clock);
        return Kubeconfig.render(
                url,
                new String(Base64.getMimeDecoder().decode(ca), StandardCharsets.US_ASCII),
                NodeIdentifier.userName(nodeName),
                Optional.of(
                        new String[] {Pem.encode(issued.certificate()), Pem.encode(issued.key())}));
    }

    /**
     * Writes {@code content} to {@code file} atomically, readable by its owner only: it holds a
     * private key.
     */
    public static void write(Path file, String content) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        DataDirectory.writePrivately(file, content);
    }
}
