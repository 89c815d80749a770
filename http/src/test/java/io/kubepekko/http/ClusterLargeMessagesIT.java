package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.http.server.ClusterFlags;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Messages between clustered servers that would not fit one Artery frame (8 MiB here, 256 KiB by
 * default; Artery drops an oversized message and the asker only sees a timeout): a namespace's
 * collection of about 10 MiB that a joining server's watch cache loads from another node (it must
 * come in pages, or the server never gets ready), and one large object written through a node that
 * does not host its collection.
 */
class ClusterLargeMessagesIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    /**
     * About 10 MiB of ConfigMaps in one namespace: more than one frame, so only a paged load gets
     * through.
     */
    private static final int OBJECTS = 1200;

    private static final String VALUE = "x".repeat(8 * 1024);

    private static LocalCassandra cassandra;

    @BeforeAll
    static void cassandra() throws Exception {
        cassandra = TestCassandra.local();
    }

    @Test
    void aJoiningServerLoadsALargeCollectionAndLargeObjectsCrossNodes() throws Exception {
        StorageFlags storage =
                StorageFlags.cassandra(List.of(cassandra.contactPoint()), TestCassandra.keyspace());
        int seedPort = TestApiServer.freePort();
        List<String> seeds = List.of("127.0.0.1:" + seedPort);
        try (TestApiServer a =
                TestApiServer.startSingle(
                        s ->
                                s.withStorage(storage)
                                        .withCluster(
                                                new ClusterFlags(seeds, seedPort, "127.0.0.1")))) {
            // Alone in the cluster, A hosts the collection's entity.
            for (int i = 0; i < OBJECTS; i++) {
                a.create(
                        CMS,
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm-"
                                        + i
                                        + "'},'data':{'k':'"
                                        + VALUE
                                        + "'}}"));
            }
            // B's start includes loading its watch caches, this collection's from A.
            try (TestApiServer b =
                    TestApiServer.startSingle(
                            s ->
                                    s.withStorage(storage)
                                            .withCluster(
                                                    new ClusterFlags(seeds, 0, "127.0.0.1")))) {
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200))
                        .untilAsserted(
                                () ->
                                        assertEquals(
                                                2,
                                                b.server().upMembers().size(),
                                                "members Up seen by B"));
                ObjectNode list = b.get(CMS).assertCode(200).json();
                assertEquals(OBJECTS, list.path("items").size(), "B lists the whole collection");

                String large = "y".repeat(1024 * 1024);
                ObjectNode created =
                        b.create(
                                CMS,
                                json(
                                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':"
                                                + "{'name':'large'},'data':{'k':'"
                                                + large
                                                + "'}}"));
                assertEquals(large, created.path("data").path("k").asText());
                assertEquals(
                        large,
                        a.get(CMS + "/large")
                                .assertCode(200)
                                .json()
                                .path("data")
                                .path("k")
                                .asText(),
                        "A serves the 1 MiB object written through B");
            }
        }
    }
}
