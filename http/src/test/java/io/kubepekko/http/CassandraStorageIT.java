package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API server on the cassandra storage profile (a local Cassandra started for this class): the
 * verbs and watches work, and a restart on the same keyspace finds everything and keeps
 * resourceVersions increasing.
 */
class CassandraStorageIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    @TempDir
    static Path cassandraDir;

    private static LocalCassandra cassandra;

    @BeforeAll
    static void startCassandra() throws Exception {
        cassandra = LocalCassandra.start(cassandraDir);
    }

    @AfterAll
    static void stopCassandra() {
        if (cassandra != null) {
            cassandra.stop();
        }
    }

    private static ObjectNode configMap(TestApiServer api, String name) {
        return api.create(CMS, json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name
                + "'},'data':{'k':'" + name + "'}}"));
    }

    /** /readyz's storage check probes the cassandra session (every 2 s, so the first answer may lag the start). */
    private static void awaitStorageReady(TestApiServer api) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Response r = api.get("/readyz?verbose");
            assertEquals(200, r.code(), r.text());
            assertTrue(r.text().contains("[+]storage ok"), r.text());
        });
    }

    @Test
    void servesVerbsAndWatchesAndARestartOnTheSameKeyspaceFindsEverything() throws Exception {
        ApiServerSettings.StorageFlags storage = ApiServerSettings.StorageFlags.cassandra(
                List.of(cassandra.contactPoint()), TestCassandra.keyspace());
        try (TestApiServer api = TestApiServer.start(s -> s.withStorage(storage))) {
            awaitStorageReady(api);

            ObjectNode a = configMap(api, "a");
            assertEquals("a", api.get(CMS + "/a").assertCode(200).json().path("data").path("k").asText());
            ObjectNode list = api.get(CMS).assertCode(200).json();
            assertEquals(List.of("a"), itemNames(list));

            long listed = rv(list);
            try (WatchClient w = WatchClient.open(api.url(), CMS + "?watch=true&resourceVersion="
                    + list.path("metadata").path("resourceVersion").asText())) {
                assertEquals(200, w.code());
                ObjectNode b = configMap(api, "b");
                ObjectNode a2 = api.patch(CMS + "/a", "application/merge-patch+json", json("{'data':{'k':'a2'}}"))
                        .assertCode(200).json();
                assertEquals(List.of("ADDED b@" + rv(b), "MODIFIED a@" + rv(a2)), w.next(2));
                assertTrue(rv(b) > listed && rv(a2) > rv(b), "versions increase");
            }
            api.delete(CMS + "/b").assertCode(200);
            long before = rv(api.get(CMS).assertCode(200).json());

            api.restart();

            awaitStorageReady(api);
            assertEquals("a2", api.get(CMS + "/a").assertCode(200).json().path("data").path("k").asText(),
                    "the last write survives the restart");
            api.get(CMS + "/b").assertCode(404);
            ObjectNode after = api.get(CMS).assertCode(200).json();
            assertEquals(List.of("a"), itemNames(after));
            ObjectNode c = configMap(api, "c");
            assertTrue(rv(c) > before, "a version after the restart (" + rv(c) + ") is above those before (" + before + ")");
            try (WatchClient w = WatchClient.open(api.url(), CMS + "?watch=true&resourceVersion="
                    + after.path("metadata").path("resourceVersion").asText())) {
                assertEquals(List.of("ADDED c@" + rv(c)), w.next(1), "a watch after the restart sees new writes");
            }
        }
    }
}
