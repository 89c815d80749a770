package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.api.TestKubeconfigs;
import io.kubepekko.agent.api.TokenBucket;
import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * What the agent's ITs share: an API server in this JVM (embedded storage under {@code dir/data}, a
 * free port, HTTPS only with the PKI it creates in its data directory), an unthrottled client of it
 * as its admin for what the tests arrange and check, and node clients for the agent under test,
 * with the calls every test makes.
 */
final class TestApi implements AutoCloseable {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    final ApiServer server;

    /** The admin's client ({@code system:masters}). */
    final ApiClient client;

    private TestApi(ApiServer server, ApiClient client) {
        this.server = server;
        this.client = client;
    }

    static TestApi start(Path dir) throws Exception {
        return start(dir, 0);
    }

    /**
     * As {@link #start(Path)} on {@code port} (0: a free one): again on the same dir and port, the
     * same server, with the same PKI.
     */
    static TestApi start(Path dir, int port) throws Exception {
        ApiServer server =
                ApiServer.start(
                        new ApiServerSettings(
                                dir.resolve("data"),
                                "127.0.0.1",
                                port,
                                Duration.ZERO,
                                Duration.ZERO));
        return new TestApi(server, TestKubeconfigs.client(TestKubeconfigs.admin(server)));
    }

    /**
     * The agent's client of node {@code node}: a kubeconfig for {@code system:node:<node>} issued
     * from the server's client CA, unthrottled, with {@code timeout} per request.
     */
    ApiClient nodeClient(String node, Duration timeout) throws Exception {
        return new ApiClient(
                TestKubeconfigs.node(server, node),
                ApiClient.userAgent("agent"),
                new TokenBucket(1000, 1000, System.nanoTime()),
                timeout);
    }

    /** {@link #nodeClient(String, Duration)} with a 10 s timeout. */
    ApiClient nodeClient(String node) throws Exception {
        return nodeClient(node, Duration.ofSeconds(10));
    }

    /** The call's result, waited for at most 10 s. */
    static <T> T sync(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static ObjectNode yaml(String s) {
        try {
            return (ObjectNode) YAML.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The pod {@code name} of namespace {@code default}, or empty once it is gone. */
    Optional<ObjectNode> pod(String name) throws Exception {
        try {
            return Optional.of(sync(client.get(Resource.PODS.object("default", name))));
        } catch (ExecutionException e) {
            if (ApiError.of(e).isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
