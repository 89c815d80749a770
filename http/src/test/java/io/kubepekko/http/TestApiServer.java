package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * An API server started in-process on a free port with its own temporary data directory, and a
 * plain HTTP/1.1 client to talk to it. One per test class: starting the actor system and the
 * embedded journal takes seconds. With {@code -Dkubepekko.it.storage=cassandra} every server runs on
 * the cassandra profile instead, each in a keyspace of its own (see {@link TestCassandra}).
 */
final class TestApiServer implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    private final java.util.function.UnaryOperator<ApiServerSettings> tune;
    private final io.kubepekko.actors.Environment environment;
    // HTTP/1.1 only: the default client would ask for an h2c upgrade on every request.
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private Path dataDir;
    private ApiServerSettings settings;
    private ApiServer server;

    private TestApiServer(java.util.function.UnaryOperator<ApiServerSettings> tune,
                          io.kubepekko.actors.Environment environment) {
        this.tune = tune;
        this.environment = environment;
    }

    /**
     * A server for one test class, as a JUnit extension: register it in a static field with
     * {@code @RegisterExtension}; it starts before the class's tests and stops after them.
     */
    static TestApiServer perClass() {
        return perClass(s -> s);
    }

    /** {@link #perClass()} with settings adjusted by {@code tune}. */
    static TestApiServer perClass(java.util.function.UnaryOperator<ApiServerSettings> tune) {
        return new TestApiServer(tune, io.kubepekko.actors.Environment.system());
    }

    /** The class that started the server: @Nested classes inherit the extension and must not start another. */
    private String owner;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (server == null) {
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
        return start(s -> new ApiServerSettings(s.dataDir(), s.bindAddress(), s.port(), s.livezGracePeriod(),
                shutdownDelay, s.reads(), s.overrides(), s.services(), s.storage(), s.cluster()));
    }

    /** A server with settings adjusted by {@code tune} (flags, configuration overrides). */
    static TestApiServer start(java.util.function.UnaryOperator<ApiServerSettings> tune) throws Exception {
        return start(tune, io.kubepekko.actors.Environment.system());
    }

    /** A server with tuned settings whose clock and randomness come from {@code environment}. */
    static TestApiServer start(java.util.function.UnaryOperator<ApiServerSettings> tune,
                               io.kubepekko.actors.Environment environment) throws Exception {
        TestApiServer t = new TestApiServer(tune, environment);
        t.boot();
        return t;
    }

    private void boot() throws Exception {
        dataDir = Files.createTempDirectory("kubepekko-it-");
        ApiServerSettings base = new ApiServerSettings(dataDir, "127.0.0.1", 0, Duration.ZERO, Duration.ZERO);
        if (TestCassandra.requested()) {
            base = base.withStorage(TestCassandra.freshKeyspace());
        }
        settings = tune.apply(base);
        server = ApiServer.start(settings, environment);
        boolean embedded = settings.storage().profile() == io.kubepekko.persistence.StorageSettings.Profile.EMBEDDED;
        if (embedded && !Files.exists(dataDir.resolve("kubepekko.mv.db"))) {
            server.close();
            // Otherwise every test class would share one database and see the others' objects.
            throw new IllegalStateException("the server did not put its database in its data dir " + dataDir);
        }
    }

    /** Stops the server and starts it again on the same data directory (another port). */
    void restart() throws Exception {
        server.close();
        server = ApiServer.start(settings, environment);
    }

    ApiServer server() {
        return server;
    }

    String url() {
        return server.url();
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
            throw new AssertionError("create at " + collectionPath + " answered " + r.code() + ": " + r.text());
        }
        return r.json();
    }

    @Override
    public void close() throws IOException {
        server.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** One request being built. */
    final class Call {
        private final String method;
        private final String path;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private byte[] body;

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

        Response send() {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path))
                    .timeout(Duration.ofSeconds(60))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach(b::header);
            try {
                HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
                return new Response(r.statusCode(), r.headers(), r.body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** An object's {@code metadata.resourceVersion} as a number. */
    static long rv(com.fasterxml.jackson.databind.JsonNode object) {
        return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
    }

    /** The names of a list's items, in order. */
    static java.util.List<String> itemNames(ObjectNode list) {
        java.util.List<String> out = new java.util.ArrayList<>();
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
