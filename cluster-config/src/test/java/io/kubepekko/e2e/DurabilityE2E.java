package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.e2e.support.ServerProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the server acknowledged survives a hard kill: objects created with a 201 are all there after
 * SIGKILL and a restart on the same data directory, unchanged, and resourceVersions keep growing.
 * And a graceful stop (SIGTERM) keeps storing writes until the server is gone.
 */
class DurabilityE2E {
    private static final int OBJECTS = 200;
    private static final int SERVICES = 60;
    private static final int WRITERS = 8;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final List<String> SYSTEM_NAMESPACES =
            List.of("default", "kube-node-lease", "kube-public", "kube-system");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path scratch;

    private ServerProcess server;

    /** The admin's client of {@link #clientOf}. */
    private HttpClient client;

    private ServerProcess clientOf;

    @AfterEach
    void killServer() {
        if (server != null) {
            server.close();
        }
    }

    /**
     * One server and one kill for what must survive it (each start and restart of a server JVM
     * costs seconds): acknowledged ConfigMaps and Services with their cluster IPs, the system
     * namespaces exactly once.
     */
    @Test
    void acknowledgedCreatesSurviveKill9AndRestart() throws Exception {
        server = ServerProcess.start(scratch.resolve("data"));
        assertEquals(
                0,
                configMapCount(),
                "a server on a fresh data directory must start without configmaps");
        assertEquals(SYSTEM_NAMESPACES, namespaceNames());
        Map<String, JsonNode> acknowledged = new TreeMap<>();
        Map<String, String> addresses = new TreeMap<>();
        createConcurrently(acknowledged, addresses);
        assertEquals(
                OBJECTS,
                acknowledged.values().stream()
                        .map(o -> o.at("/metadata/resourceVersion").asText())
                        .distinct()
                        .count(),
                "every acknowledged create has a resourceVersion of its own");

        server.kill9();
        server.restart();

        for (Map.Entry<String, JsonNode> entry : acknowledged.entrySet()) {
            HttpResponse<String> response =
                    send(get("/api/v1/namespaces/default/configmaps/" + entry.getKey()));
            assertEquals(
                    200,
                    response.statusCode(),
                    entry.getKey() + " lost after kill -9: " + response.body());
            JsonNode stored = JSON.readTree(response.body());
            JsonNode created = entry.getValue();
            assertEquals(created.path("data"), stored.path("data"), entry.getKey());
            assertEquals(
                    created.at("/metadata/labels"), stored.at("/metadata/labels"), entry.getKey());
            assertEquals(created.at("/metadata/uid"), stored.at("/metadata/uid"), entry.getKey());
            assertEquals(
                    created.at("/metadata/resourceVersion"),
                    stored.at("/metadata/resourceVersion"),
                    entry.getKey());
            assertEquals(
                    created.at("/metadata/creationTimestamp"),
                    stored.at("/metadata/creationTimestamp"),
                    entry.getKey());
        }

        assertEquals(OBJECTS, configMapCount());
        assertEquals(
                SYSTEM_NAMESPACES,
                namespaceNames(),
                "bootstrap after restart must not duplicate namespaces");

        long newest =
                acknowledged.values().stream()
                        .mapToLong(o -> Long.parseLong(o.at("/metadata/resourceVersion").asText()))
                        .max()
                        .orElseThrow();
        HttpResponse<String> after = send(create("after-restart"));
        assertEquals(201, after.statusCode(), after.body());
        long next =
                Long.parseLong(
                        JSON.readTree(after.body()).at("/metadata/resourceVersion").asText());
        assertTrue(
                next > newest, "resourceVersion " + next + " after restart is not above " + newest);

        assertAddressesNotHandedOutAgain(addresses);
    }

    /**
     * Service cluster IPs are claimed durably before a create is answered: after SIGKILL no address
     * an acknowledged Service holds is handed out again, asked for or picked.
     */
    private void assertAddressesNotHandedOutAgain(Map<String, String> addresses) throws Exception {
        for (Map.Entry<String, String> e : new TreeMap<>(addresses).entrySet()) {
            HttpResponse<String> stored =
                    send(get("/api/v1/namespaces/default/services/" + e.getKey()));
            assertEquals(
                    e.getValue(),
                    JSON.readTree(stored.body()).at("/spec/clusterIP").asText(),
                    e.getKey());
            HttpResponse<String> thief = send(createService("thief-" + e.getKey(), e.getValue()));
            assertEquals(
                    422, thief.statusCode(), e.getValue() + " handed out again: " + thief.body());
            assertTrue(thief.body().contains("provided IP is already allocated"), thief.body());
        }
        for (int i = 0; i < SERVICES; i++) {
            HttpResponse<String> fresh = send(createService("fresh-" + i, null));
            assertEquals(201, fresh.statusCode(), fresh.body());
            String ip = JSON.readTree(fresh.body()).at("/spec/clusterIP").asText();
            assertTrue(!addresses.containsValue(ip), ip + " picked again after kill -9");
        }
    }

    /**
     * SIGTERM, as a process manager stops the server: during {@code --shutdown-delay-duration}
     * /readyz fails but writes are still taken and stored; then the server exits by itself, without
     * failing to persist anything on the way out, and a restart finds every acknowledged write.
     */
    @Test
    void writesAreStoredDuringTheShutdownDelayAndTheServerExitsCleanly() throws Exception {
        server =
                ServerProcess.start(
                        scratch.resolve("data"), List.of("--shutdown-delay-duration", "10s"));
        HttpResponse<String> before = send(create("before"));
        assertEquals(201, before.statusCode(), before.body());
        Path firstLog = server.log();
        // Watches open at the stop (a chunked one and a WebSocket one, as fabric8 watches) end in
        // order: the server ends them before its listener and actor system stop, instead of tearing
        // them down (an ERROR line).
        ChunkedWatch chunked = ChunkedWatch.open(server, "/api/v1/namespaces/default/configmaps");
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        http().newWebSocketBuilder()
                .buildAsync(
                        URI.create(
                                server.url().replace("https://", "wss://")
                                        + "/api/v1/namespaces/default/configmaps?watch=true"),
                        new WebSocket.Listener() {
                            @Override
                            public CompletionStage<?> onClose(
                                    WebSocket ws, int code, String reason) {
                                closed.complete(code);
                                return null;
                            }

                            @Override
                            public void onError(WebSocket ws, Throwable error) {
                                closed.completeExceptionally(error);
                            }
                        })
                .get(30, TimeUnit.SECONDS);

        server.terminate();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> send(get("/readyz")).statusCode() == 500);
        // H2 used to close its database from its own JVM shutdown hook at this moment: this write
        // answered
        // 503, and the sharded actors' hand-over (which persists) failed and waited out sharding's
        // timeouts.
        HttpResponse<String> during = send(create("during"));
        assertEquals(201, during.statusCode(), during.body());

        assertEquals(143, server.awaitExit(Duration.ofSeconds(120)), "exit code after SIGTERM");
        assertEquals(1000, closed.get(30, TimeUnit.SECONDS), "the WebSocket watch closed normally");
        assertTrue(
                chunked.receivedToTheEnd().endsWith("\r\n0\r\n\r\n"),
                "the chunked watch ended with its last chunk");
        String log = Files.readString(firstLog, StandardCharsets.UTF_8);
        assertFalse(log.contains("Database is already closed"), log);
        assertFalse(log.contains("Failed to persist"), log);
        assertFalse(log.contains("not stopped after"), log);
        assertFalse(log.contains("shutdown of shard region timed out"), log);
        // The journal writer used to close its connection after the pool was gone: a
        // NullPointerException's
        // stack trace on every stop. A clean stop logs nothing at WARN or above, and no exception
        // at all.
        assertCleanLog(firstLog);

        server.restart();
        for (String name : List.of("before", "during")) {
            HttpResponse<String> stored =
                    send(get("/api/v1/namespaces/default/configmaps/" + name));
            assertEquals(
                    200,
                    stored.statusCode(),
                    name + " lost across the graceful shutdown: " + stored.body());
        }
        // The restarted server used to take over the watch caches of the stopped one (recorded by
        // the
        // hand-over) and have remoting try their old cluster port again and again.
        assertCleanLog(server.log());
        assertOwnerOnly(server.dataDir());
    }

    /**
     * A chunked watch on a TLS socket of its own, as the admin: what the server sent is read as it
     * is, so that the test sees whether the stream ended with its last chunk. (The server resets
     * the TLS connection at its stop right after that chunk, and the JDK's HttpClient then at times
     * fails the body before handing its end over.)
     */
    private record ChunkedWatch(SSLSocket socket) {
        static ChunkedWatch open(ServerProcess server, String collection) throws IOException {
            SSLSocket socket =
                    (SSLSocket)
                            server.tls()
                                    .sslContext()
                                    .getSocketFactory()
                                    .createSocket("127.0.0.1", server.port());
            socket.setSoTimeout((int) Duration.ofMinutes(2).toMillis());
            socket.getOutputStream()
                    .write(
                            ("GET "
                                            + collection
                                            + "?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                            + "Accept: application/json\r\n\r\n")
                                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            StringBuilder head = new StringBuilder();
            InputStream in = socket.getInputStream();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the connection ended in the head: " + head);
                }
                head.append((char) b);
            }
            assertTrue(head.toString().startsWith("HTTP/1.1 200 "), head.toString());
            assertTrue(head.toString().contains("Transfer-Encoding: chunked"), head.toString());
            return new ChunkedWatch(socket);
        }

        /** The body as it came, until the server closed the connection. */
        String receivedToTheEnd() throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            try (socket) {
                socket.getInputStream().transferTo(body);
            } catch (SocketException reset) {
                // what came before the reset is all there is
            }
            return body.toString(StandardCharsets.UTF_8);
        }
    }

    /** No line at WARN or ERROR, and no stack trace. */
    private static void assertCleanLog(Path log) throws IOException {
        List<String> bad =
                Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                        .filter(
                                l ->
                                        l.matches("^\\S+ (WARN|ERROR) .*")
                                                || l.contains("Exception")
                                                || l.startsWith("\tat "))
                        .toList();
        assertEquals(List.of(), bad, "unexpected lines in " + log);
    }

    /** The data directory holds Secrets: 0700, and the files in it (database, kubeconfig) 0600. */
    private static void assertOwnerOnly(Path dataDir) throws IOException {
        assertEquals(
                "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir)));
        try (Stream<Path> files = Files.list(dataDir)) {
            List<String> open =
                    files.filter(Files::isRegularFile)
                            .filter(
                                    f -> {
                                        try {
                                            return !PosixFilePermissions.toString(
                                                            Files.getPosixFilePermissions(f))
                                                    .equals("rw-------");
                                        } catch (IOException e) {
                                            throw new UncheckedIOException(e);
                                        }
                                    })
                            .map(Path::toString)
                            .toList();
            assertEquals(List.of(), open, "files others can read");
        }
        assertTrue(Files.exists(dataDir.resolve("admin.kubeconfig")));
    }

    @Test
    void serversOnDifferentDataDirectoriesShareNothing() throws Exception {
        server = ServerProcess.start(scratch.resolve("first"));
        HttpResponse<String> created = send(create("only-in-first"));
        assertEquals(201, created.statusCode(), created.body());
        server.kill9();

        server = ServerProcess.start(scratch.resolve("second"));
        HttpResponse<String> response =
                send(get("/api/v1/namespaces/default/configmaps/only-in-first"));
        assertEquals(
                404,
                response.statusCode(),
                "an object created on another data directory is visible: " + response.body());
        assertEquals(SYSTEM_NAMESPACES, namespaceNames());
    }

    private int configMapCount() throws IOException, InterruptedException {
        HttpResponse<String> list =
                send(get("/api/v1/namespaces/default/configmaps?labelSelector=e2e%3Ddurability"));
        assertEquals(200, list.statusCode(), list.body());
        return JSON.readTree(list.body()).path("items").size();
    }

    /**
     * Creates {@value #OBJECTS} ConfigMaps and {@value #SERVICES} Services (each with an address of
     * its own) with {@value #WRITERS} writers, the Services spread among the ConfigMaps to the end:
     * both kinds have writes acknowledged right before a kill that follows.
     */
    private void createConcurrently(
            Map<String, JsonNode> acknowledged, Map<String, String> addresses) throws Exception {
        Map<String, JsonNode> configMaps = new ConcurrentHashMap<>();
        Map<String, String> services = new ConcurrentHashMap<>();
        List<Callable<Void>> creates = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            String name = "durable-%03d".formatted(i);
            creates.add(
                    () -> {
                        HttpResponse<String> response = send(create(name));
                        assertEquals(201, response.statusCode(), name + ": " + response.body());
                        configMaps.put(name, JSON.readTree(response.body()));
                        return null;
                    });
            if ((i + 1) * SERVICES / OBJECTS > i * SERVICES / OBJECTS) {
                String service = "svc-%02d".formatted(i * SERVICES / OBJECTS);
                creates.add(
                        () -> {
                            HttpResponse<String> response = send(createService(service, null));
                            assertEquals(
                                    201, response.statusCode(), service + ": " + response.body());
                            services.put(
                                    service,
                                    JSON.readTree(response.body()).at("/spec/clusterIP").asText());
                            return null;
                        });
            }
        }
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (Callable<Void> c : creates) {
                futures.add(writers.submit(c)); // in order: the queue is first in, first out
            }
            for (Future<Void> future : futures) {
                future.get(5, TimeUnit.MINUTES);
            }
        } finally {
            writers.shutdownNow();
        }
        assertEquals(OBJECTS, configMaps.size());
        assertEquals(SERVICES, services.size());
        assertEquals(
                SERVICES,
                new HashSet<>(services.values()).size(),
                "distinct addresses: " + services);
        acknowledged.putAll(configMaps);
        addresses.putAll(services);
    }

    private List<String> namespaceNames() throws IOException, InterruptedException {
        HttpResponse<String> response = send(get("/api/v1/namespaces"));
        assertEquals(200, response.statusCode(), response.body());
        return StreamSupport.stream(
                        JSON.readTree(response.body()).path("items").spliterator(), false)
                .map(ns -> ns.at("/metadata/name").asText())
                .sorted()
                .toList();
    }

    private HttpRequest create(String name) {
        ObjectNode body = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        body.putObject("metadata").put("name", name).putObject("labels").put("e2e", "durability");
        body.putObject("data").put("name", name).put("payload", "x".repeat(256) + name);
        return HttpRequest.newBuilder(
                        URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build();
    }

    private HttpRequest createService(String name, String clusterIp) {
        ObjectNode body = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Service");
        body.putObject("metadata").put("name", name);
        ObjectNode spec = body.putObject("spec");
        if (clusterIp != null) {
            spec.put("clusterIP", clusterIp);
        }
        spec.putArray("ports").addObject().put("port", 80);
        return HttpRequest.newBuilder(
                        URI.create(server.url() + "/api/v1/namespaces/default/services"))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build();
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create(server.url() + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json")
                .GET()
                .build();
    }

    private HttpResponse<String> send(HttpRequest request)
            throws IOException, InterruptedException {
        return http().send(request, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A client of the current server as its admin (from its kubeconfig): servers on different data
     * directories have CAs of their own.
     */
    private synchronized HttpClient http() {
        if (clientOf != server) {
            client = server.tls().httpClient();
            clientOf = server;
        }
        return client;
    }
}
