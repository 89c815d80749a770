package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.ServerProcess;
import io.kubepekko.e2e.support.StreamedLists;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server with a 512 MiB heap (what {@link ServerProcess} gives it), filled with 1 MB ConfigMaps
 * up to its default storage quota: the next write is refused with 507 instead of the heap running
 * out, and the server restarts with all of it (twice, after kill -9), lists everything unpaged in
 * every representation (JSON, pretty JSON, YAML, protobuf, PartialObjectMetadataList, Tables) and
 * stays up, and takes deletes and new writes. Before the quota and the bounded recovery, such a
 * server took writes until it failed, and a server that had held its data could not always read it
 * back.
 */
class MemoryE2E {
    private static final int OBJECT_BYTES = 1_000_000;
    private static final int NAMESPACES = 4;
    private static final int WRITERS = 4;
    private static final long MAX_HEAP = 512L * 1024 * 1024;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern QUOTA =
            Pattern.compile(
                    "over the storage quota of ([0-9]+) bytes " + "\\(--storage-quota-bytes\\)");

    /**
     * A way a list of every object is read back, with how to find the items' names in the streamed
     * body (a list of 150 MB is never held whole, here or in the server).
     */
    private record Representation(String accept, String query, ItemNames names) {}

    private interface ItemNames {
        Collection<String> read(InputStream body) throws IOException;
    }

    /** Compact JSON, each item's data checked too: after every restart. */
    private static final Representation JSON_LIST =
            new Representation("application/json", "", MemoryE2E::jsonItemNames);

    /** Every other representation of a list: after the last restart, each once. */
    private static final List<Representation> OTHERS =
            List.of(
                    streamed("application/json", "pretty=true"),
                    streamed("application/yaml", ""),
                    streamed("application/vnd.kubernetes.protobuf", ""),
                    streamed(
                            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", ""),
                    streamed("application/json;as=Table;g=meta.k8s.io;v=v1", ""),
                    streamed(
                            "application/json;as=Table;g=meta.k8s.io;v=v1", "includeObject=Object"),
                    streamed(
                            "application/json;as=Table;g=meta.k8s.io;v=v1beta1",
                            "includeObject=None"));

    private static Representation streamed(String accept, String query) {
        return new Representation(accept, query, body -> StreamedLists.names(accept, body));
    }

    @TempDir Path scratch;

    private ServerProcess server;

    /** The server's admin's, over TLS. */
    private HttpClient http;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aServerFilledToItsDefaultQuotaRefusesMoreAndRestartsWithAllItsData() throws Exception {
        // Up means ready but for the storage quota: a full server is not ready for more data (as
        // kube-apiserver
        // with etcd's NOSPACE alarm), and writers racing to the quota may end a little over it.
        // Full JIT: the lists below move over a gigabyte through the server's encoders and TLS.
        server =
                ServerProcess.start(
                        scratch.resolve("data"),
                        List.of(),
                        "/readyz?exclude=storage-quota",
                        ServerProcess.Jit.FULL);
        http = server.tls().httpClient();
        for (int n = 0; n < NAMESPACES; n++) {
            HttpResponse<String> ns =
                    send(
                            post(
                                    "/api/v1/namespaces",
                                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"fill-"
                                            + n
                                            + "\"}}"));
            assertEquals(201, ns.statusCode(), ns.body());
        }

        Set<String> created = new ConcurrentSkipListSet<>();
        long started = System.nanoTime();
        HttpResponse<String> refused = fillUntilRefused(created);
        System.out.printf(
                "[memory e2e] %d ConfigMaps of %d bytes stored in %d s, then %d%n",
                created.size(),
                OBJECT_BYTES,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
                refused.statusCode());

        assertEquals(507, refused.statusCode(), refused.body());
        JsonNode status = JSON.readTree(refused.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals(507, status.path("code").asInt());
        String message = status.path("message").asText();
        assertTrue(message.startsWith("database space exceeded: "), message);
        Matcher quota = QUOTA.matcher(message);
        assertTrue(quota.find(), message);
        long quotaBytes = Long.parseLong(quota.group(1));
        assertTrue(
                quotaBytes > MAX_HEAP * 28 / 100 && quotaBytes <= MAX_HEAP * 30 / 100,
                "the default quota is 30% of the 512 MiB heap: " + quotaBytes);
        assertTrue(
                created.size() >= quotaBytes / OBJECT_BYTES - 2 * WRITERS,
                "filled close to the quota: "
                        + created.size()
                        + " objects of "
                        + OBJECT_BYTES
                        + " bytes");
        assertEquals(
                500,
                send(get("/readyz/storage-quota")).statusCode(),
                "the refusal fails the readyz check");

        for (int restart = 1; restart <= 2; restart++) {
            server.kill9();
            long restarting = System.nanoTime();
            server.restart(); // waits for /readyz (but the quota): the caches hold every object
            // again
            System.out.printf(
                    "[memory e2e] restart %d ready in %d s%n",
                    restart, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - restarting));
            assertEquals(
                    created, new TreeSet<>(listAll(JSON_LIST)), "listed after restart " + restart);
            HttpResponse<String> more =
                    send(
                            post(
                                    "/api/v1/namespaces/fill-0/configmaps",
                                    configMap("more-" + restart)));
            assertEquals(
                    507,
                    more.statusCode(),
                    "still full after restart " + restart + ": " + more.body());
        }
        for (Representation r : OTHERS) {
            long listing = System.nanoTime();
            assertEquals(
                    created,
                    new TreeSet<>(listAll(r)),
                    "listed as " + r.accept() + " " + r.query());
            System.out.printf(
                    "[memory e2e] listed as %s %s in %d ms%n",
                    r.accept(),
                    r.query(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - listing));
            assertTrue(
                    server.isAlive(),
                    "the server is up after the list as " + r.accept() + " " + r.query());
        }
        assertEquals(
                200,
                send(get("/readyz?exclude=storage-quota")).statusCode(),
                "ready after every list");

        List<String> deleted = new ArrayList<>(created).subList(0, 3);
        for (String name : deleted) {
            HttpResponse<String> d =
                    send(
                            HttpRequest.newBuilder(
                                            uri(
                                                    "/api/v1/namespaces/"
                                                            + namespaceOf(name)
                                                            + "/configmaps/"
                                                            + name))
                                    .timeout(REQUEST_TIMEOUT)
                                    .DELETE()
                                    .build());
            assertEquals(200, d.statusCode(), d.body());
            created.remove(name);
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> send(get("/readyz/storage-quota")).statusCode() == 200);
        HttpResponse<String> after =
                send(post("/api/v1/namespaces/fill-0/configmaps", configMap("after-deletes")));
        assertEquals(201, after.statusCode(), after.body());
        created.add("after-deletes");
        assertEquals(created, new TreeSet<>(listAll(JSON_LIST)));
        assertTrue(server.isAlive());
        for (int run = 1; run <= 3; run++) {
            Path log = scratch.resolve("data-server-" + run + ".log");
            assertFalse(
                    Files.readString(log, StandardCharsets.UTF_8).contains("OutOfMemoryError"),
                    log.toString());
        }
    }

    /**
     * Creates 1 MB ConfigMaps over the namespaces with a few writers until one is refused; returns
     * the refusal.
     */
    private HttpResponse<String> fillUntilRefused(Set<String> created) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<HttpResponse<String>> refusal = new AtomicReference<>();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                running.add(
                        writers.submit(
                                () -> {
                                    while (refusal.get() == null) {
                                        int i = next.getAndIncrement();
                                        if (i > MAX_HEAP / OBJECT_BYTES) {
                                            throw new AssertionError(
                                                    "more than the heap was accepted: "
                                                            + i
                                                            + " objects of 1 MB");
                                        }
                                        String name = "cm-" + i;
                                        HttpResponse<String> r =
                                                send(
                                                        post(
                                                                "/api/v1/namespaces/"
                                                                        + namespaceOf(name)
                                                                        + "/configmaps",
                                                                configMap(name)));
                                        if (r.statusCode() == 201) {
                                            created.add(name);
                                        } else {
                                            refusal.compareAndSet(null, r);
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> f : running) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            writers.shutdownNow();
        }
        return refusal.get();
    }

    private static String namespaceOf(String name) {
        return "fill-" + Math.floorMod(name.hashCode(), NAMESPACES);
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name
                + "\"},"
                + "\"data\":{\"v\":\""
                + "x".repeat(OBJECT_BYTES)
                + "\"}}";
    }

    /**
     * Every ConfigMap of the fill namespaces, by name, listed unpaged in {@code representation}.
     */
    private List<String> listAll(Representation representation) throws Exception {
        HttpRequest list =
                HttpRequest.newBuilder(
                                uri(
                                        "/api/v1/configmaps"
                                                + (representation.query().isEmpty()
                                                        ? ""
                                                        : "?" + representation.query())))
                        .timeout(Duration.ofMinutes(2))
                        .header("Accept", representation.accept())
                        .GET()
                        .build();
        HttpResponse<InputStream> response =
                http.send(list, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            assertEquals(200, response.statusCode(), representation.accept());
            return representation.names().read(body).stream()
                    .filter(n -> n.startsWith("cm-") || n.startsWith("after-"))
                    .toList();
        }
    }

    /** The names of a JSON list's items, read one item at a time. */
    private static List<String> jsonItemNames(InputStream body) throws IOException {
        List<String> names = new ArrayList<>();
        try (JsonParser p = JSON.getFactory().createParser(body)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME
                        && "items".equals(p.currentName())
                        && p.getParsingContext().getParent().inRoot()) {
                    p.nextToken();
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        JsonNode item = JSON.readTree(p);
                        String name = item.at("/metadata/name").asText();
                        if (name.startsWith("cm-")) {
                            assertEquals(OBJECT_BYTES, item.at("/data/v").asText().length(), name);
                        }
                        names.add(name);
                    }
                    return names;
                }
            }
        }
        throw new AssertionError("no items in the list");
    }

    private URI uri(String path) {
        return URI.create(server.url() + path);
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(uri(path)).timeout(REQUEST_TIMEOUT).GET().build();
    }

    private HttpRequest post(String path, String json) {
        return HttpRequest.newBuilder(uri(path))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
