package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.http.server.ApiServerSettings;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The API server on the cassandra storage profile (a local Cassandra started for this class): the
 * verbs and watches work, and a restart on the same keyspace finds everything and keeps
 * resourceVersions increasing.
 */
class CassandraStorageIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    private static LocalCassandra cassandra;

    @BeforeAll
    static void cassandra() throws Exception {
        cassandra = TestCassandra.local();
    }

    private static ObjectNode configMap(TestApiServer api, String name) {
        return api.create(
                CMS,
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                + name
                                + "'},'data':{'k':'"
                                + name
                                + "'}}"));
    }

    /**
     * /readyz's storage check probes the cassandra session (every 2 s, so the first answer may lag
     * the start).
     */
    private static void awaitStorageReady(TestApiServer api) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(
                        () -> {
                            Response r = api.get("/readyz?verbose");
                            assertEquals(200, r.code(), r.text());
                            assertTrue(r.text().contains("[+]storage ok"), r.text());
                        });
    }

    @Test
    void servesVerbsAndWatchesAndARestartOnTheSameKeyspaceFindsEverything() throws Exception {
        StorageFlags storage =
                StorageFlags.cassandra(List.of(cassandra.contactPoint()), TestCassandra.keyspace());
        try (TestApiServer api = TestApiServer.start(s -> s.withStorage(storage))) {
            awaitStorageReady(api);

            ObjectNode a = configMap(api, "a");
            assertEquals(
                    "a",
                    api.get(CMS + "/a").assertCode(200).json().path("data").path("k").asText());
            ObjectNode list = api.get(CMS).assertCode(200).json();
            assertEquals(List.of("a"), itemNames(list));

            long listed = rv(list);
            try (WatchClient w =
                    WatchClient.open(
                            api.url(),
                            CMS
                                    + "?watch=true&resourceVersion="
                                    + list.path("metadata").path("resourceVersion").asText())) {
                assertEquals(200, w.code());
                ObjectNode b = configMap(api, "b");
                ObjectNode a2 =
                        api.patch(
                                        CMS + "/a",
                                        "application/merge-patch+json",
                                        json("{'data':{'k':'a2'}}"))
                                .assertCode(200)
                                .json();
                assertEquals(List.of("ADDED b@" + rv(b), "MODIFIED a@" + rv(a2)), w.next(2));
                assertTrue(rv(b) > listed && rv(a2) > rv(b), "versions increase");
            }
            api.delete(CMS + "/b").assertCode(200);
            long before = rv(api.get(CMS).assertCode(200).json());

            api.restart();

            awaitStorageReady(api);
            assertEquals(
                    "a2",
                    api.get(CMS + "/a").assertCode(200).json().path("data").path("k").asText(),
                    "the last write survives the restart");
            api.get(CMS + "/b").assertCode(404);
            ObjectNode after = api.get(CMS).assertCode(200).json();
            assertEquals(List.of("a"), itemNames(after));
            ObjectNode c = configMap(api, "c");
            assertTrue(
                    rv(c) > before,
                    "a version after the restart ("
                            + rv(c)
                            + ") is above those before ("
                            + before
                            + ")");
            try (WatchClient w =
                    WatchClient.open(
                            api.url(),
                            CMS
                                    + "?watch=true&resourceVersion="
                                    + after.path("metadata").path("resourceVersion").asText())) {
                assertEquals(
                        List.of("ADDED c@" + rv(c)),
                        w.next(1),
                        "a watch after the restart sees new writes");
            }
        }
    }

    /**
     * Production: with schema creation off the server refuses an empty keyspace, naming the script;
     * once {@code cluster-config/cassandra/schema.cql} is applied (its replication filled in), it
     * starts.
     */
    @Test
    void withoutSchemaCreationTheServerNeedsTheProductionScript() throws Exception {
        StorageFlags storage =
                StorageFlags.cassandra(List.of(cassandra.contactPoint()), "kubepekko");
        UnaryOperator<ApiServerSettings> production =
                s ->
                        s.withStorage(storage)
                                .withConfig("kubepekko.storage.cassandra.schema-autocreate = off");
        Exception refused =
                assertThrows(Exception.class, () -> TestApiServer.start(production).close());
        assertTrue(
                causes(refused).contains("cluster-config/cassandra/schema.cql"), causes(refused));

        TestCassandra.applySchemaScript(
                cassandra, "kubepekko", "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        try (TestApiServer api = TestApiServer.start(production)) {
            ObjectNode d = configMap(api, "d");
            assertEquals(rv(d), rv(api.get(CMS + "/d").assertCode(200).json()));
        }
    }

    private static String causes(Throwable t) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            out.append(c).append('\n');
        }
        return out.toString();
    }
}
