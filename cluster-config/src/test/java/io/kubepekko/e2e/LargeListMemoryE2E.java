package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.ClientTls;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.RepositoryRoot;
import io.kubepekko.e2e.support.RunningProcess;
import io.kubepekko.e2e.support.StreamedLists;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A list that does not fit in the heap is served in every representation. The server runs in a JVM
 * of its own, started by {@code cluster-config/bin/apiserver} with a 256 MiB heap, and holds 330
 * ConfigMaps of about 420 KB: the stored objects take most of the heap, and each unpaged list is
 * about twice what is left of it. Every representation is read to its end and its items counted
 * (JSON, pretty JSON, YAML, protobuf, Tables v1 and v1beta1 with each {@code includeObject}, and
 * kubectl's Table); after each, the server is up and ready and never ran out of memory. Before
 * lists were streamed, all but compact JSON answered 500 OutOfMemoryError here.
 *
 * <p>No deletecollection here: it goes through the same list encoding (LargeListsIT shows its
 * response streamed), but on a heap this full the storage itself runs out of room writing a burst
 * of deletes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LargeListMemoryE2E {
    private static final String HEAP = "-Xmx256m";
    private static final int OBJECTS = 330;

    /**
     * Most of each object is data; a part is an annotation, so that Tables with metadata are large
     * too. Objects stay under half a G1 region (512 KiB in this heap): larger ones each take
     * regions of their own, which a full collection does not move, and the storage's multi-megabyte
     * buffers then find no room in a heap this full (H2 closes its database when an allocation
     * fails).
     */
    private static final String DATA = "d".repeat(340_000);

    private static final String NOTE = "n".repeat(80_000);
    private static final String NS = "big";
    private static final String COLLECTION = "/api/v1/namespaces/" + NS + "/configmaps";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);

    /** The line the server logs once it serves, naming its URL. */
    private static final Pattern LISTENING =
            Pattern.compile("kubepekko apiserver listening on (https://\\S+) ");

    /** The admin's client, from the server's kubeconfig. */
    private static HttpClient http;

    @TempDir static Path scratch;

    private static RunningProcess server;
    private static String url;
    private static Path dataDir;
    private static Set<String> names;

    @BeforeAll
    static void startAndFill() throws Exception {
        dataDir = scratch.resolve("data");
        Files.createDirectories(dataDir);
        Path root = RepositoryRoot.find();
        // More data than the default quota (30 % of the heap) lets in: what is under test is a list
        // larger than the
        // free heap, which a user who sets a larger quota gets (MemoryE2E covers a server filled to
        // the default).
        server =
                RunningProcess.start(
                        List.of(
                                root.resolve("cluster-config/bin/apiserver").toString(),
                                "--data-dir",
                                dataDir.toString(),
                                "--bind-address",
                                "127.0.0.1",
                                // a free port: the URL comes from the server's log line
                                "--secure-port",
                                "0",
                                "--storage-quota-bytes",
                                Long.toString(200L * 1024 * 1024)),
                        root,
                        // The build running this test has just packaged the server: no rebuild from
                        // within it.
                        Map.of("KUBEPEKKO_SKIP_BUILD", "1", "KUBEPEKKO_JAVA_OPTS", HEAP));
        url =
                await().atMost(READY_TIMEOUT)
                        .pollInterval(Duration.ofMillis(200))
                        .alias("the server logs its URL")
                        .until(
                                () -> {
                                    assertTrue(
                                            server.isAlive(),
                                            "the server exited while starting\n" + serverOutput());
                                    return listeningOn();
                                },
                                found -> found != null);
        // The kubeconfig is written before the server says it listens.
        http = ClientTls.fromKubeconfig(dataDir.resolve("admin.kubeconfig")).httpClient();
        await().atMost(READY_TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .alias("the server is ready")
                .until(
                        () -> {
                            assertTrue(
                                    server.isAlive(),
                                    "the server exited while starting\n" + serverOutput());
                            return ready();
                        });
        send(
                "POST",
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                        + NS
                        + "\"}}",
                201);
        names = new TreeSet<>();
        // The root CA publisher puts kube-root-ca.crt in every namespace, as kube's does: it is
        // listed beside the test's objects.
        await().atMost(READY_TIMEOUT)
                .pollInterval(Duration.ofMillis(100))
                .alias("kube-root-ca.crt published in " + NS)
                .until(
                        () -> {
                            HttpResponse<InputStream> r =
                                    call(request("GET", COLLECTION + "/kube-root-ca.crt").build());
                            r.body().close();
                            return r.statusCode() == 200;
                        });
        names.add("kube-root-ca.crt");
        for (int i = 0; i < OBJECTS; i++) {
            String name = String.format("big-%03d", i);
            send(
                    "POST",
                    COLLECTION,
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                            + name
                            + "\",\"annotations\":{\"note\":\""
                            + NOTE
                            + "\"}},\"data\":{\"k\":\""
                            + DATA
                            + "\"}}",
                    201);
            names.add(name);
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** JSON (compact and pretty), YAML and protobuf lists, each read to its end. */
    @Order(1)
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "application/json                      | ''",
                "application/json                      | pretty=true",
                "application/yaml                      | ''",
                "application/vnd.kubernetes.protobuf   | ''"
            })
    void everyListEncodingIsServedWhole(String accept, String query) throws Exception {
        Listed listed = list(accept, query);
        assertEquals(names, listed.names(), accept + " " + query);
        assertTrue(
                listed.bytes() > (long) OBJECTS * DATA.length(),
                "every object whole: " + listed.bytes());
        assertServerUp();
    }

    @Order(2)
    @ParameterizedTest(name = "Table {0} includeObject={1}")
    @CsvSource({
        "v1,None",
        "v1,Metadata",
        "v1,Object",
        "v1beta1,None",
        "v1beta1,Metadata",
        "v1beta1,Object"
    })
    void everyTableIsServedWhole(String version, String include) throws Exception {
        Listed listed =
                list(
                        "application/json;as=Table;g=meta.k8s.io;v=" + version,
                        "includeObject=" + include);
        assertEquals(names, listed.names());
        long least =
                switch (include) {
                    case "Object" -> (long) OBJECTS * (DATA.length() + NOTE.length());
                    case "Metadata" -> (long) OBJECTS * NOTE.length();
                    default -> 0;
                };
        assertTrue(listed.bytes() > least, include + ": " + listed.bytes() + " bytes");
        assertServerUp();
    }

    /**
     * kubectl reads the Table of metadata (27 MB, so sent as it is encoded) as it reads
     * kube-apiserver's.
     */
    @Order(3)
    /**
     * The server says in its log when it became ready and how long that took from the JVM's start
     * (issue 28: start-up time is read from this line).
     */
    @Test
    void theServerLogsHowLongItTookToBecomeReady() {
        Pattern ready =
                Pattern.compile(
                        "kubepekko apiserver ready: /readyz passes (\\d+\\.\\d\\d) s after the JVM"
                                + " started");
        String seconds =
                await().atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(100))
                        .alias("the ready line")
                        .until(
                                () -> {
                                    Matcher m = ready.matcher(serverOutput());
                                    return m.find() ? m.group(1) : null;
                                },
                                found -> found != null);
        assertTrue(Double.parseDouble(seconds) > 0, seconds);
    }

    @Test
    void kubectlGetPrintsEveryRow() throws Exception {
        Kubectl kubectl =
                new Kubectl(
                                ClientBinaries.require().kubectl(),
                                dataDir.resolve("admin.kubeconfig"),
                                scratch,
                                scratch)
                        .withTimeout(REQUEST_TIMEOUT);
        ProcessResult get =
                kubectl.run("get", "configmaps", "-n", NS, "--chunk-size=0", "--no-headers");
        assertEquals(0, get.exitCode(), get.describe());
        List<String> printed = get.stdoutText().lines().map(l -> l.split("\\s+")[0]).toList();
        assertEquals(new ArrayList<>(names), printed, get.describe());
        assertServerUp();
    }

    private static String status(InputStream body) {
        try {
            return new String(body.readNBytes(2000), StandardCharsets.UTF_8)
                    + "\n"
                    + tail(serverOutput());
        } catch (IOException e) {
            return e.toString();
        }
    }

    private record Listed(Set<String> names, long bytes) {}

    private static Listed list(String accept, String query) throws Exception {
        HttpResponse<InputStream> response =
                call(
                        request("GET", COLLECTION + (query.isEmpty() ? "" : "?" + query))
                                .header("Accept", accept)
                                .build());
        try (CountingStream body = new CountingStream(response.body())) {
            if (response.statusCode() != 200) {
                throw new AssertionError(
                        accept + " answered " + response.statusCode() + ": " + status(body));
            }
            Set<String> listed = StreamedLists.names(accept, body);
            assertEquals(-1, body.read(), "nothing after the list");
            return new Listed(listed, body.count);
        } catch (IOException e) {
            throw new AssertionError(
                    accept
                            + " "
                            + query
                            + ": the body broke off: "
                            + e
                            + "\n"
                            + tail(serverOutput()),
                    e);
        }
    }

    private static void assertServerUp() throws Exception {
        assertTrue(server.isAlive(), "the server's JVM exited\n" + serverOutput());
        assertTrue(ready(), "/readyz answers 200");
        String output = serverOutput();
        assertFalse(
                output.contains("OutOfMemoryError"),
                "the server ran out of memory\n" + tail(output));
    }

    /** The URL of the server's "listening on" line, or null before it. */
    private static String listeningOn() {
        for (String line : serverOutput().lines().toList()) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }

    private static boolean ready() {
        try {
            return http.send(
                                    request("GET", "/readyz").build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String serverOutput() {
        return String.join("\n", server.lines()) + "\n" + String.join("\n", server.errorLines());
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    /** Sends a request; a failure to get an answer fails with the end of the server's output. */
    private static HttpResponse<InputStream> call(HttpRequest request) throws InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new AssertionError(
                    request.method()
                            + " "
                            + request.uri()
                            + " got no answer: "
                            + e
                            + "\n"
                            + tail(serverOutput()),
                    e);
        }
    }

    private static HttpRequest.Builder request(String method, String path) {
        return HttpRequest.newBuilder(URI.create(url + path))
                .timeout(REQUEST_TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.noBody());
    }

    private static void send(String method, String path, String body, int expected)
            throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(URI.create(url + path))
                                .timeout(REQUEST_TIMEOUT)
                                .header("Content-Type", "application/json")
                                .method(method, HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, response.statusCode(), method + " " + path + ": " + response.body());
    }

    /** Counts what is read through it. */
    private static final class CountingStream extends FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
