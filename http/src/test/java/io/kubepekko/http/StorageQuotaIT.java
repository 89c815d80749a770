package io.kubepekko.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.http.server.ApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The storage quota ({@code --storage-quota-bytes}) on a server with a small one: a write that
 * would add data past it answers 507 with a Status saying "database space exceeded", /readyz fails
 * its {@code storage-quota} check meanwhile, deletes and shrinking writes go on, dry runs are not
 * refused, and a restarted server counts what it holds again. One scenario in steps: each starts
 * where the last left off.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StorageQuotaIT {

    /**
     * About 100 KiB for the test's objects on top of what a fresh server stores: kube's bootstrap
     * RBAC roles and bindings (the controllers' and kube-system's too) take about 150 KB of it.
     */
    private static final long QUOTA = 256 * 1024;

    private static final String CMS = "/api/v1/namespaces/quota/configmaps";
    private static TestApiServer api;

    /** The ConfigMaps created until the quota refused one. */
    private static final List<String> stored = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start(s -> s.withStorage(s.storage().withQuotaBytes(QUOTA)));
        api.create(
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"quota\"}}");
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static String configMap(String name, int bytes) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name
                + "\"},"
                + "\"data\":{\"v\":\""
                + "x".repeat(bytes)
                + "\"}}";
    }

    /** Creates 4 KB ConfigMaps until one is refused; returns the refusal. */
    private static Response fill(String prefix) {
        for (int i = 0; i < 100; i++) {
            String name = prefix + "-" + i;
            Response r = api.post(CMS, configMap(name, 4000));
            if (r.code() != 201) {
                return r;
            }
            stored.add(name);
        }
        throw new AssertionError(
                "a quota of " + QUOTA + " bytes took more than 100 ConfigMaps of 4 KB");
    }

    private static void assertQuotaExceeded(Response r) {
        assertEquals(507, r.code(), r.text());
        ObjectNode status = r.json();
        assertEquals("Status", status.path("kind").asText());
        assertEquals("Failure", status.path("status").asText());
        assertEquals(507, status.path("code").asInt());
        String message = status.path("message").asText();
        assertTrue(message.startsWith("database space exceeded: "), message);
        assertTrue(
                message.contains(
                        "over the storage quota of " + QUOTA + " bytes (--storage-quota-bytes)"),
                message);
    }

    /**
     * Whether /readyz passes: on every node, or (not ready) on the node whose collection refused
     * the write, which raised the alarm there; in a cluster the other nodes' alarms stay off until
     * they refuse one.
     */
    private static void assertReady(boolean ready) {
        HttpClient http = TestPki.adminClient();
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(
                        () -> {
                            List<String> bodies = new ArrayList<>();
                            for (ApiServer node : api.servers()) {
                                HttpResponse<String> r =
                                        http.send(
                                                HttpRequest.newBuilder(
                                                                URI.create(
                                                                        node.url()
                                                                                + "/readyz?verbose"))
                                                        .GET()
                                                        .build(),
                                                HttpResponse.BodyHandlers.ofString());
                                assertEquals(
                                        r.statusCode() == 200,
                                        r.body().lines().anyMatch("[+]storage-quota ok"::equals),
                                        r.body());
                                bodies.add(r.statusCode() + " " + r.body());
                            }
                            if (ready) {
                                assertTrue(
                                        bodies.stream().allMatch(b -> b.startsWith("200 ")),
                                        bodies.toString());
                            } else {
                                assertTrue(
                                        bodies.stream()
                                                .anyMatch(
                                                        b ->
                                                                b.startsWith("500 ")
                                                                        && b.contains(
                                                                                "[-]storage-quota failed: reason withheld")),
                                        bodies.toString());
                            }
                        });
    }

    @Test
    @Order(1)
    void aCreatePastTheQuotaIsRefusedWith507AndStoresNothing() {
        api.create(
                CMS,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"held\","
                        + "\"finalizers\":[\"example.com/hold\"]},\"data\":{\"v\":\""
                        + "y".repeat(4000)
                        + "\"}}");
        assertReady(true);

        Response refused = fill("cm");

        assertQuotaExceeded(refused);
        assertTrue(stored.size() >= 15, "about 96 KiB of 4 KB objects fit: " + stored.size());
        api.get(CMS + "/cm-" + stored.size()).assertCode(404);
        assertReady(false);
    }

    @Test
    @Order(2)
    void growingWritesAreRefusedShrinkingOnesAndDryRunsGoOn() {
        String first = CMS + "/" + stored.get(0);
        assertQuotaExceeded(api.put(first, configMap(stored.get(0), 12000)));
        assertQuotaExceeded(
                api.patch(
                        first,
                        "application/merge-patch+json",
                        "{\"data\":{\"more\":\"" + "z".repeat(8000) + "\"}}"));
        assertEquals(
                4000,
                api.get(first).assertCode(200).json().path("data").path("v").asText().length());

        // a dry run is executed and answered, never stored nor counted
        Response dry = api.post(CMS + "?dryRun=All", configMap("dry", 20000));
        assertEquals(201, dry.code(), dry.text());
        api.get(CMS + "/dry").assertCode(404);

        api.put(first, configMap(stored.get(0), 1000)).assertCode(200);
        assertEquals(
                1000,
                api.get(first).assertCode(200).json().path("data").path("v").asText().length());
    }

    @Test
    @Order(3)
    void deletesGoOnAndFreeRoom() {
        // marking an object terminating writes it too: a full server must still take it
        Response marked = api.delete(CMS + "/held");
        assertEquals(200, marked.code(), marked.text());
        assertTrue(marked.json().path("metadata").has("deletionTimestamp"), marked.text());
        api.patch(
                        CMS + "/held",
                        "application/merge-patch+json",
                        "{\"metadata\":{\"finalizers\":null}}")
                .assertCode(200);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> api.get(CMS + "/held").assertCode(404));

        for (int i = 1; i < 4; i++) {
            api.delete(CMS + "/" + stored.remove(stored.size() - 1)).assertCode(200);
        }
        assertReady(true);
        api.create(CMS, configMap("after-deletes", 4000));
        stored.add("after-deletes");
    }

    @Test
    @Order(4)
    void aRestartedServerCountsWhatItHolds() throws Exception {
        assertQuotaExceeded(fill("again"));
        int held = stored.size();

        api.restart();

        assertQuotaExceeded(api.post(CMS, configMap("after-restart", 4000)));
        assertEquals(held, api.get(CMS).assertCode(200).json().path("items").size());
        api.delete(CMS + "/" + stored.remove(stored.size() - 1)).assertCode(200);
        api.delete(CMS + "/" + stored.remove(stored.size() - 1)).assertCode(200);
        // The quota counts what the watch caches hold: a delete frees its room once the caches have
        // applied it,
        // a moment after it is answered (the alarm clears then), as step 3 waits too.
        assertReady(true);
        api.create(CMS, configMap("after-restart", 4000));
    }
}
