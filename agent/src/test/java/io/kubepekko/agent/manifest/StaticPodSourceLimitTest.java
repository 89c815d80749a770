package io.kubepekko.agent.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.LoggingTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file and URL sources refuse a manifest over their limit (a smaller one than the shipped 10
 * MiB, so the test stays small) as a bad manifest, naming the source and the limit; exactly at the
 * limit it is read.
 */
class StaticPodSourceLimitTest {

    private static final String NODE = "node-l";
    private static ActorTestKit kit;
    private static HttpServer http;
    private static final AtomicReference<byte[]> served = new AtomicReference<>(new byte[0]);

    @TempDir Path dir;

    @BeforeAll
    static void start() throws Exception {
        kit = ActorTestKit.create();
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext(
                "/pods",
                exchange -> {
                    byte[] body = served.get();
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
        http.start();
    }

    @AfterAll
    static void stop() {
        http.stop(0);
        kit.shutdownTestKit();
    }

    private static String manifest(String name) {
        return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: "
                + name
                + "\nspec:\n  containers:\n  - name: app\n"
                + "    image: busybox\n";
    }

    private static List<String> names(List<ObjectNode> pods) {
        return pods.stream().map(p -> p.path("metadata").path("name").asText()).toList();
    }

    @Test
    void aFileOverTheLimitIsRefusedNamingItAndTheLimitWhileTheOtherFilesRun() throws Exception {
        byte[] at = manifest("at").getBytes(StandardCharsets.UTF_8);
        int limit = at.length;
        Files.write(dir.resolve("at.yaml"), at);
        Path over = Files.writeString(dir.resolve("over.yaml"), manifest("ov") + " ");
        assertEquals(limit + 1, Files.size(over));

        List<ObjectNode> pods = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        StaticPodSource.readPath(dir, NODE, Clock.systemUTC(), pods, errors, limit);

        assertEquals(List.of("at-" + NODE), names(pods));
        assertEquals(
                List.of(
                        "file "
                                + over
                                + ": larger than the limit of "
                                + limit
                                + " bytes ("
                                + limit
                                + " B): not read"),
                errors);
    }

    @Test
    void aUrlBodyOverTheLimitIsRefusedAndTheSourcesPodsKeepRunningExactlyAtTheLimitItIsRead() {
        byte[] body = manifest("web").getBytes(StandardCharsets.UTF_8);
        int limit = body.length;
        URI url = URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/pods");
        TestProbe<StaticPodSet> sets = kit.createTestProbe();

        served.set(body);
        var source =
                kit.spawn(
                        StaticPodSource.url(
                                url,
                                Map.of(),
                                Duration.ofMillis(100),
                                NODE,
                                Clock.systemUTC(),
                                sets.getRef()::tell,
                                limit));
        assertEquals(
                List.of("web-" + NODE), names(sets.receiveMessage(Duration.ofSeconds(10)).pods()));

        // One byte over: refused with a warning naming the URL and the limit; no set is sent, so
        // the URL's pods keep
        // running (an empty set would stop them).
        LoggingTestKit.warn("http " + url + ": larger than the limit of " + limit + " bytes")
                .expect(
                        kit.system(),
                        () -> {
                            served.set((manifest("web") + " ").getBytes(StandardCharsets.UTF_8));
                            return null;
                        });
        served.set(manifest("db").getBytes(StandardCharsets.UTF_8));
        StaticPodSet next;
        do {
            next = sets.receiveMessage(Duration.ofSeconds(10));
            assertEquals(
                    1, next.pods().size(), "no set without the pod while the body was too large");
        } while (!names(next.pods()).equals(List.of("db-" + NODE)));
        kit.stop(source);
    }
}
