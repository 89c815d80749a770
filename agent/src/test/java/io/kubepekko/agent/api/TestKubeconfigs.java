package io.kubepekko.agent.api;

import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.NodeKubeconfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Credentials for an in-process test API server, read by the agent from files as in production: the
 * admin kubeconfig the server wrote into its data directory ({@code kubernetes-admin} in {@code
 * system:masters}, for what a test arranges and checks), and a node's kubeconfig issued from the
 * server's client CA as {@code bin/node-kubeconfig} issues it ({@code system:node:<name>} in {@code
 * system:nodes}, for the agent under test, which the Node authorizer confines to its node).
 */
public final class TestKubeconfigs {
    private TestKubeconfigs() {}

    /** The server's admin kubeconfig. */
    public static Kubeconfig admin(ApiServer server) throws Kubeconfig.Invalid {
        return Kubeconfig.load(server.kubeconfig());
    }

    /** A kubeconfig for node {@code node} of {@code server}. */
    public static Kubeconfig node(ApiServer server, String node)
            throws IOException, Kubeconfig.Invalid {
        return node(server.settings().dataDir(), node, Optional.empty());
    }

    /**
     * A kubeconfig for node {@code node} issued from the PKI and admin kubeconfig in {@code
     * dataDir}, naming {@code serverUrl} instead of the admin kubeconfig's server when given (a
     * server not started yet, whose data directory shares that PKI).
     */
    public static Kubeconfig node(Path dataDir, String node, Optional<String> serverUrl)
            throws IOException, Kubeconfig.Invalid {
        Path file = Files.createTempFile("kubepekko-node-" + node + "-", ".kubeconfig");
        file.toFile().deleteOnExit();
        NodeKubeconfig.write(
                file, NodeKubeconfig.render(dataDir, node, serverUrl, Clock.systemUTC()));
        return Kubeconfig.load(file);
    }

    /** A client without the agent's throttle, as tests use it. */
    public static ApiClient client(Kubeconfig k) throws GeneralSecurityException {
        return new ApiClient(
                k,
                ApiClient.userAgent("test"),
                new TokenBucket(1000, 1000, System.nanoTime()),
                Duration.ofSeconds(10));
    }
}
