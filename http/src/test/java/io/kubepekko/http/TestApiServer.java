package io.kubepekko.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.Environment;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import io.kubepekko.http.server.ClusterFlags;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.StorageSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An API server started in-process on a free port with its own temporary data directory, and an
 * HTTPS/1.1 client to talk to it as the admin (the data directory is seeded with {@link TestPki}).
 * One per test class: starting the actor system and the embedded journal takes seconds. With {@code
 * -Dkubepekko.it.storage=cassandra} every server runs on the cassandra profile instead, each in a
 * keyspace of its own (see {@link TestCassandra}).
 *
 * <p>With {@code -Dkubepekko.it.target=cluster} (see {@link TestTarget}) it is three servers
 * instead, each its own actor system, forming one Pekko Cluster on one fresh Cassandra keyspace,
 * and every request goes to the next node in turn: consecutive requests of a test are served by
 * different nodes, so a test passes only if any node answers any request as one server would.
 */
final class TestApiServer implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    private final UnaryOperator<ApiServerSettings> tune;
    private final Environment environment;
    private final int size;

    static final String ROOT_CA_PUBLISHER_OFF =
            "kubepekko.controllers.root-ca-cert-publisher.enabled = off";
    // HTTP/1.1, as the admin of the shared test PKI.
    private final HttpClient client = TestPki.adminClient();

    /** What the servers' reviews ask, and who issues their service-account tokens. */
    private AccessReviews accessReviews = AccessReviews.alwaysAllow();

    private TokenIssuer tokenIssuer = TokenIssuer.unconfigured();

    /** Which node the next request goes to (round-robin over {@link #nodes}). */
    private final AtomicInteger turn = new AtomicInteger();

    private final List<Path> dataDirs = new ArrayList<>();
    private final List<ApiServerSettings> settings = new ArrayList<>();

    /** The running nodes in start order: the seed first. */
    private volatile List<ApiServer> nodes = List.of();

    private TestApiServer(
            UnaryOperator<ApiServerSettings> tune, Environment environment, int size) {
        // kube's root CA publisher puts a ConfigMap in every namespace, which the tests listing
        // and watching ConfigMaps would see come at any moment: off unless a test turns it on.
        this.tune = s -> tune.apply(s.withConfig(ROOT_CA_PUBLISHER_OFF));
        this.environment = environment;
        this.size = size;
    }

    /**
     * A server for one test class, as a JUnit extension: register it in a static field with
     * {@code @RegisterExtension}; it starts before the class's tests and stops after them.
     */
    static TestApiServer perClass() {
        return perClass(s -> s);
    }

    /** {@link #perClass()} with settings adjusted by {@code tune}. */
    static TestApiServer perClass(UnaryOperator<ApiServerSettings> tune) {
        return new TestApiServer(tune, Environment.system(), TestTarget.size());
    }

    /**
     * The class that started the server: @Nested classes inherit the extension and must not start
     * another.
     */
    private String owner;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (nodes.isEmpty()) {
            boot();
            owner = context.getUniqueId();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (context.getUniqueId().equals(owner)) {
            close();
        }
    }

    static TestApiServer start() throws Exception {
        return start(Duration.ZERO);
    }

    /** A server that keeps serving for {@code shutdownDelay} after {@link #close()} begins. */
    static TestApiServer start(Duration shutdownDelay) throws Exception {
        return start(
                s ->
                        new ApiServerSettings(
                                s.dataDir(),
                                s.bindAddress(),
                                s.port(),
                                s.livezGracePeriod(),
                                shutdownDelay,
                                s.reads(),
                                s.overrides(),
                                s.services(),
                                s.storage(),
                                s.cluster()));
    }

    /** A server with settings adjusted by {@code tune} (flags, configuration overrides). */
    static TestApiServer start(UnaryOperator<ApiServerSettings> tune) throws Exception {
        return start(tune, Environment.system());
    }

    /** A server with tuned settings whose clock and randomness come from {@code environment}. */
    static TestApiServer start(UnaryOperator<ApiServerSettings> tune, Environment environment)
            throws Exception {
        return started(new TestApiServer(tune, environment, TestTarget.size()));
    }

    /**
     * One server whatever the target: for tests that set up their own cluster or storage in {@code
     * tune} and would make no sense multiplied.
     */
    static TestApiServer startSingle(UnaryOperator<ApiServerSettings> tune) throws Exception {
        return started(new TestApiServer(tune, Environment.system(), 1));
    }

    /**
     * A server whose reviews ask {@code reviews} and whose token subresource asks {@code tokens}.
     */
    static TestApiServer startWithReviews(AccessReviews reviews, TokenIssuer tokens)
            throws Exception {
        TestApiServer t = new TestApiServer(s -> s, Environment.system(), TestTarget.size());
        t.accessReviews = reviews;
        t.tokenIssuer = tokens;
        return started(t);
    }

    private static TestApiServer started(TestApiServer t) throws Exception {
        t.boot();
        return t;
    }

    private void boot() throws Exception {
        if (size == 1) {
            bootOne();
        } else {
            bootCluster();
        }
    }

    private void bootOne() throws Exception {
        Path dataDir = Files.createTempDirectory("kubepekko-it-");
        dataDirs.add(dataDir);
        TestPki.seed(dataDir);
        ApiServerSettings base =
                new ApiServerSettings(dataDir, "127.0.0.1", 0, Duration.ZERO, Duration.ZERO);
        if (TestCassandra.requested()) {
            base = base.withStorage(TestCassandra.freshKeyspace());
        }
        ApiServerSettings tuned = tune.apply(base);
        settings.add(tuned);
        ApiServer server = ApiServer.start(tuned, environment, accessReviews, tokenIssuer);
        nodes = List.of(server);
        boolean embedded = tuned.storageSettings() instanceof StorageSettings.Embedded;
        if (embedded && !Files.exists(dataDir.resolve("kubepekko.mv.db"))) {
            server.close();
            // Otherwise every test class would share one database and see the others' objects.
            throw new IllegalStateException(
                    "the server did not put its database in its data dir " + dataDir);
        }
    }

    /**
     * {@link #size} nodes on one fresh keyspace, the first the seed of the others; each its own
     * data dir.
     */
    private void bootCluster() throws Exception {
        StorageFlags storage = TestCassandra.freshKeyspace();
        int seedPort = freePort();
        List<String> seeds = List.of("127.0.0.1:" + seedPort);
        for (int i = 0; i < size; i++) {
            Path dataDir = Files.createTempDirectory("kubepekko-it-node" + i + "-");
            dataDirs.add(dataDir);
            TestPki.seed(dataDir);
            settings.add(
                    tune.apply(
                            new ApiServerSettings(
                                            dataDir, "127.0.0.1", 0, Duration.ZERO, Duration.ZERO)
                                    .withStorage(storage)
                                    .withCluster(
                                            new ClusterFlags(
                                                    seeds, i == 0 ? seedPort : 0, "127.0.0.1"))));
        }
        startNodes();
    }

    /**
     * The seed first, alone: it creates the keyspace's tables, which the others would race to
     * create. Then the others together (joining is mostly waiting for gossip), then until every
     * node sees all of them Up and is ready: only then does any node serve every request.
     */
    private void startNodes() throws Exception {
        List<ApiServer> started = new ArrayList<>();
        try {
            started.add(ApiServer.start(settings.get(0), environment, accessReviews, tokenIssuer));
            // Threads of their own: the common pool may have a single thread on a small machine.
            ExecutorService starter = Executors.newFixedThreadPool(settings.size() - 1);
            List<CompletableFuture<ApiServer>> joining = new ArrayList<>();
            for (ApiServerSettings s : settings.subList(1, settings.size())) {
                joining.add(CompletableFuture.supplyAsync(() -> startNode(s), starter));
            }
            starter.shutdown();
            RuntimeException failed = null;
            for (CompletableFuture<ApiServer> j : joining) {
                try {
                    started.add(j.join());
                } catch (RuntimeException e) {
                    failed = e;
                }
            }
            if (failed != null) {
                throw failed;
            }
            awaitFormed(started);
        } catch (Exception | Error e) {
            closeNewestFirst(started);
            throw e;
        }
        nodes = List.copyOf(started);
    }

    private ApiServer startNode(ApiServerSettings s) {
        try {
            return ApiServer.start(s, environment, accessReviews, tokenIssuer);
        } catch (Exception e) {
            throw new IllegalStateException("a cluster node did not start", e);
        }
    }

    private void awaitFormed(List<ApiServer> members) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(
                        () -> {
                            for (ApiServer node : members) {
                                assertEquals(
                                        members.size(),
                                        node.upMembers().size(),
                                        "members Up seen by "
                                                + node.url()
                                                + ": "
                                                + node.upMembers());
                                Response r = send(node, "GET", "/readyz?verbose", Map.of(), null);
                                assertEquals(200, r.code(), node.url() + ": " + r.text());
                            }
                        });
    }

    /** A free port on the loopback address (for a cluster node's remoting). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Stops the server and starts it again on the same data directory (another port); a cluster
     * stops every node and starts them all again on the same keyspace, like a whole-cluster
     * restart.
     */
    void restart() throws Exception {
        closeNewestFirst(nodes);
        nodes = List.of();
        if (size == 1) {
            nodes =
                    List.of(
                            ApiServer.start(
                                    settings.get(0), environment, accessReviews, tokenIssuer));
        } else {
            startNodes();
        }
    }

    /**
     * The newest first: so three nodes close in about 6 s here; closing the seed (the oldest) first
     * makes each later node wait about 13 s for the cluster's exiting timeouts.
     */
    private static void closeNewestFirst(List<ApiServer> servers) {
        for (int i = servers.size() - 1; i >= 0; i--) {
            servers.get(i).close();
        }
    }

    /** The first node (the seed of a cluster): for tests that look at one server's internals. */
    ApiServer server() {
        return nodes.get(0);
    }

    /** Every node, in start order. */
    List<ApiServer> servers() {
        return nodes;
    }

    /**
     * The URL of the node whose turn it is: a watch or raw connection opened with it takes a turn
     * too.
     */
    String url() {
        return next().url();
    }

    private ApiServer next() {
        List<ApiServer> current = nodes;
        return current.get(Math.floorMod(turn.getAndIncrement(), current.size()));
    }

    /** A request to {@code path} (with its query) on this server. */
    Call call(String method, String path) {
        return new Call(method, path);
    }

    Response get(String path) {
        return call("GET", path).send();
    }

    Response get(String path, String accept) {
        return call("GET", path).header("Accept", accept).send();
    }

    Response post(String path, String json) {
        return call("POST", path).json(json).send();
    }

    Response put(String path, String json) {
        return call("PUT", path).json(json).send();
    }

    Response patch(String path, String contentType, String body) {
        return call("PATCH", path).body(contentType, body).send();
    }

    Response delete(String path) {
        return call("DELETE", path).send();
    }

    /** Creates an object and fails the test unless the server answers 201. */
    ObjectNode create(String collectionPath, String json) {
        Response r = post(collectionPath, json);
        if (r.code() != 201) {
            throw new AssertionError(
                    "create at " + collectionPath + " answered " + r.code() + ": " + r.text());
        }
        return r.json();
    }

    @Override
    public void close() throws IOException {
        closeNewestFirst(nodes);
        nodes = List.of();
        for (Path dataDir : dataDirs) {
            try (Stream<Path> files = Files.walk(dataDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private Response send(
            ApiServer node, String method, String path, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(node.url() + path))
                        .timeout(Duration.ofSeconds(60))
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        try {
            HttpResponse<byte[]> r =
                    client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One request being built. */
    final class Call {
        private final String method;
        private final String path;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private byte[] body;
        private ApiServer node;

        private Call(String method, String path) {
            this.method = method;
            this.path = path;
        }

        Call header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        /** A body sent without any Content-Type header. */
        Call rawBody(String text) {
            this.body = text.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        /** A binary body (protobuf), sent without a Content-Type unless one is set. */
        Call bytes(byte[] bytes) {
            this.body = bytes;
            return this;
        }

        Call body(String contentType, String text) {
            return header("Content-Type", contentType).rawBody(text);
        }

        Call json(String text) {
            return body("application/json", text);
        }

        /**
         * Sends it to {@code node} (one of {@link #servers()}) instead of the node whose turn it
         * is.
         */
        Call on(ApiServer node) {
            this.node = node;
            return this;
        }

        /** Sends the request to the node whose turn it is, unless {@link #on} chose one. */
        Response send() {
            return TestApiServer.this.send(
                    node != null ? node : next(), method, path, headers, body);
        }
    }

    /** An object's {@code metadata.resourceVersion} as a number. */
    static long rv(JsonNode object) {
        return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
    }

    /** The names of a list's items, in order. */
    static List<String> itemNames(ObjectNode list) {
        List<String> out = new ArrayList<>();
        list.path("items").forEach(i -> out.add(i.path("metadata").path("name").asText()));
        return out;
    }

    /** JSON written in a test with single quotes for readability ({@code {'a':'b'}}). */
    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    /** Parses JSON written with single quotes. */
    static ObjectNode obj(String singleQuoted) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json(singleQuoted));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
