package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two API servers in this JVM (each its own actor system) forming one Pekko Cluster on one Cassandra
 * keyspace: server A is the seed, B joins it. Whatever is written through one node is read and watched
 * through the other. Each collection entity and Revisions lives on one of the two nodes, so a write
 * through one and a read or watch through the other crosses nodes whichever it is.
 */
class ClusterFormationIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    private static LocalCassandra cassandra;

    @BeforeAll
    static void cassandra() throws Exception {
        cassandra = TestCassandra.local();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static ObjectNode configMap(TestApiServer api, String name) {
        return api.create(CMS, json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name
                + "'},'data':{'k':'" + name + "'}}"));
    }

    @Test
    void twoServersShareObjectsAndWatches() throws Exception {
        ApiServerSettings.StorageFlags storage = ApiServerSettings.StorageFlags.cassandra(
                List.of(cassandra.contactPoint()), TestCassandra.keyspace());
        String seed = "127.0.0.1:" + freePort();
        int seedPort = Integer.parseInt(seed.substring(seed.indexOf(':') + 1));
        try (TestApiServer a = TestApiServer.start(s -> s.withStorage(storage)
                .withCluster(new ApiServerSettings.ClusterFlags(List.of(seed), seedPort, "127.0.0.1")));
             TestApiServer b = TestApiServer.start(s -> s.withStorage(storage)
                     .withCluster(new ApiServerSettings.ClusterFlags(List.of(seed), 0, "127.0.0.1")))) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                assertEquals(2, a.server().upMembers().size(), "members Up seen by A: " + a.server().upMembers());
                assertEquals(2, b.server().upMembers().size(), "members Up seen by B: " + b.server().upMembers());
            });
            for (TestApiServer node : List.of(a, b)) {
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    Response r = node.get("/readyz?verbose");
                    assertEquals(200, r.code(), r.text());
                    assertTrue(r.text().lines().anyMatch("[+]cluster ok"::equals), r.text());
                });
            }

            ObjectNode x = configMap(a, "x");
            assertEquals(rv(x), rv(b.get(CMS + "/x").assertCode(200).json()), "B reads what A wrote");
            ObjectNode list = b.get(CMS).assertCode(200).json();
            assertEquals(List.of("x"), itemNames(list), "B's list (Most Recent) reflects A's write");

            // A watch on each node: Revisions of configmaps lives on one of them, so at least one of the
            // two watch caches is fed across nodes.
            String from = CMS + "?watch=true&resourceVersion=" + list.path("metadata").path("resourceVersion").asText();
            try (WatchClient onB = WatchClient.open(b.url(), from); WatchClient onA = WatchClient.open(a.url(), from)) {
                assertEquals(200, onB.code());
                assertEquals(200, onA.code());
                ObjectNode y = configMap(a, "y");
                ObjectNode x2 = b.patch(CMS + "/x", "application/merge-patch+json", json("{'data':{'k':'x2'}}"))
                        .assertCode(200).json();
                List<String> expected = List.of("ADDED y@" + rv(y), "MODIFIED x@" + rv(x2));
                assertEquals(expected, onB.next(2), "a watch on B sees A's create, then B's update, in order");
                assertEquals(expected, onA.next(2), "so does a watch on A");
            }

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                    assertEquals(1, (a.server().controllersActiveHere() ? 1 : 0) + (b.server().controllersActiveHere() ? 1 : 0),
                            "the controllers run on exactly one node"));
            // The namespace controller (wherever it runs) empties and removes a namespace deleted through either node.
            a.create("/api/v1/namespaces", json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'team'}}"));
            a.create("/api/v1/namespaces/team/configmaps", json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c'}}"));
            b.delete("/api/v1/namespaces/team").assertCode(200);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                a.get("/api/v1/namespaces/team").assertCode(404);
                b.get("/api/v1/namespaces/team").assertCode(404);
            });
            assertEquals(List.of(), itemNames(b.get("/api/v1/namespaces/team/configmaps").assertCode(200).json()));
        }
    }
}
