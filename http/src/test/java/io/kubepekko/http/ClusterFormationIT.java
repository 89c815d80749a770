package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.server.ClusterFlags;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two API servers in this JVM (each its own actor system) forming one Pekko Cluster on one
 * Cassandra keyspace: server A is the seed, B joins it. Whatever is written through one node is
 * read and watched through the other. Each collection entity and Revisions lives on one of the two
 * nodes, so a write through one and a read or watch through the other crosses nodes whichever it
 * is.
 */
class ClusterFormationIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    private static LocalCassandra cassandra;

    @BeforeAll
    static void cassandra() throws Exception {
        cassandra = TestCassandra.local();
    }

    static ObjectNode configMap(TestApiServer api, String name) {
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
     * Waits until each of these servers (started alone, as one cluster's members) sees all of them
     * Up and passes /readyz with its {@code cluster} check.
     */
    static void awaitOneCluster(TestApiServer... members) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(
                        () -> {
                            for (TestApiServer node : members) {
                                assertEquals(
                                        members.length,
                                        node.server().upMembers().size(),
                                        "members Up seen by "
                                                + node.server().url()
                                                + ": "
                                                + node.server().upMembers());
                            }
                        });
        for (TestApiServer node : members) {
            await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(
                            () -> {
                                Response r = node.get("/readyz?verbose");
                                assertEquals(200, r.code(), r.text());
                                assertTrue(
                                        r.text().lines().anyMatch("[+]cluster ok"::equals),
                                        r.text());
                            });
        }
    }

    /**
     * Creates ConfigMap x in namespace default through {@code writer}; {@code reader} gets it and
     * lists it (at Most Recent). Returns the reader's list.
     */
    static ObjectNode writtenOnOneReadOnTheOther(TestApiServer writer, TestApiServer reader) {
        ObjectNode x = configMap(writer, "x");
        assertEquals(
                rv(x),
                rv(reader.get(CMS + "/x").assertCode(200).json()),
                "the reader gets what the writer wrote");
        ObjectNode list = reader.get(CMS).assertCode(200).json();
        // A server whose controllers run publishes kube-root-ca.crt in every namespace, as kube's
        // root CA publisher does.
        assertEquals(
                List.of("x"),
                itemNames(list).stream().filter(n -> !n.equals("kube-root-ca.crt")).toList(),
                "the reader's list (Most Recent) reflects the write");
        return list;
    }

    @Test
    void twoServersShareObjectsAndWatches() throws Exception {
        StorageFlags storage =
                StorageFlags.cassandra(List.of(cassandra.contactPoint()), TestCassandra.keyspace());
        String seed = "127.0.0.1:" + TestApiServer.freePort();
        int seedPort = Integer.parseInt(seed.substring(seed.indexOf(':') + 1));
        try (TestApiServer a =
                        TestApiServer.startSingle(
                                s ->
                                        s.withStorage(storage)
                                                .withCluster(
                                                        new ClusterFlags(
                                                                List.of(seed),
                                                                seedPort,
                                                                "127.0.0.1")));
                TestApiServer b =
                        TestApiServer.startSingle(
                                s ->
                                        s.withStorage(storage)
                                                .withCluster(
                                                        new ClusterFlags(
                                                                List.of(seed), 0, "127.0.0.1")))) {
            awaitOneCluster(a, b);
            ObjectNode list = writtenOnOneReadOnTheOther(a, b);

            // A watch on each node: Revisions of configmaps lives on one of them, so at least one
            // of the
            // two watch caches is fed across nodes.
            String from =
                    CMS
                            + "?watch=true&resourceVersion="
                            + list.path("metadata").path("resourceVersion").asText();
            try (WatchClient onB = WatchClient.open(b.url(), from);
                    WatchClient onA = WatchClient.open(a.url(), from)) {
                assertEquals(200, onB.code());
                assertEquals(200, onA.code());
                ObjectNode y = configMap(a, "y");
                ObjectNode x2 =
                        b.patch(
                                        CMS + "/x",
                                        "application/merge-patch+json",
                                        json("{'data':{'k':'x2'}}"))
                                .assertCode(200)
                                .json();
                List<String> expected = List.of("ADDED y@" + rv(y), "MODIFIED x@" + rv(x2));
                assertEquals(
                        expected,
                        onB.next(2),
                        "a watch on B sees A's create, then B's update, in order");
                assertEquals(expected, onA.next(2), "so does a watch on A");
            }

            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .untilAsserted(
                            () ->
                                    assertEquals(
                                            1,
                                            (a.server().controllersActiveHere() ? 1 : 0)
                                                    + (b.server().controllersActiveHere() ? 1 : 0),
                                            "the controllers run on exactly one node"));
            // The namespace controller (wherever it runs) empties and removes a namespace deleted
            // through either node.
            a.create(
                    "/api/v1/namespaces",
                    json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'team'}}"));
            a.create(
                    "/api/v1/namespaces/team/configmaps",
                    json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c'}}"));
            b.delete("/api/v1/namespaces/team").assertCode(200);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(
                            () -> {
                                a.get("/api/v1/namespaces/team").assertCode(404);
                                b.get("/api/v1/namespaces/team").assertCode(404);
                            });
            assertEquals(
                    List.of(),
                    itemNames(b.get("/api/v1/namespaces/team/configmaps").assertCode(200).json()));
        }
    }

    /**
     * Kinds with trivial bodies, by collection path in namespace default and the body to create
     * one.
     */
    private static final Map<String, String> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put(
                "/api/v1/namespaces/default/configmaps",
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'%s'}}");
        KINDS.put(
                "/api/v1/namespaces/default/secrets",
                "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'%s'}}");
        KINDS.put(
                "/api/v1/namespaces/default/serviceaccounts",
                "{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'%s'}}");
        KINDS.put(
                "/api/v1/namespaces/default/endpoints",
                "{'apiVersion':'v1','kind':'Endpoints','metadata':{'name':'%s'}}");
        KINDS.put(
                "/apis/coordination.k8s.io/v1/namespaces/default/leases",
                "{'apiVersion':'coordination.k8s.io/v1','kind':'Lease','metadata':{'name':'%s'}}");
        KINDS.put(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
                "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'Role','metadata':{'name':'%s'}}");
    }

    /**
     * A node leaving in order hands its resourceVersion sequencers over (sharding's stop message):
     * their successors on the other node carry on with the same change stream, so watches of those
     * kinds go on without a 410. When B starts, every sequencer already runs on A (A's watch caches
     * started them), so closing A moves each one that rebalancing has not moved to B already —
     * every move a hand-over.
     */
    @Test
    void watchesGoOnWhenTheirSequencersMoveInOrder() throws Exception {
        StorageFlags storage =
                StorageFlags.cassandra(List.of(cassandra.contactPoint()), TestCassandra.keyspace());
        int seedPort = TestApiServer.freePort();
        String seed = "127.0.0.1:" + seedPort;
        TestApiServer a =
                TestApiServer.startSingle(
                        s ->
                                s.withStorage(storage)
                                        .withCluster(
                                                new ClusterFlags(
                                                        List.of(seed), seedPort, "127.0.0.1")));
        boolean aClosed = false;
        try (TestApiServer b =
                TestApiServer.startSingle(
                        s ->
                                s.withStorage(storage)
                                        .withCluster(
                                                new ClusterFlags(List.of(seed), 0, "127.0.0.1")))) {
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertEquals(2, b.server().upMembers().size()));
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertEquals(200, b.get("/readyz").code()));

            Map<String, WatchClient> watches = new LinkedHashMap<>();
            try {
                for (var kind : KINDS.entrySet()) {
                    String path = kind.getKey();
                    b.create(path, json(kind.getValue().formatted("before")));
                    String from =
                            b.get(path)
                                    .assertCode(200)
                                    .json()
                                    .path("metadata")
                                    .path("resourceVersion")
                                    .asText();
                    WatchClient w =
                            WatchClient.open(b.url(), path + "?watch=true&resourceVersion=" + from);
                    assertEquals(200, w.code());
                    watches.put(path, w);
                }

                a.close();
                aClosed = true;
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100))
                        .untilAsserted(() -> assertEquals(1, b.server().upMembers().size()));

                for (var kind : KINDS.entrySet()) {
                    ObjectNode created =
                            createRetrying(b, kind.getKey(), kind.getValue().formatted("after"));
                    assertEquals(
                            List.of("ADDED after@" + rv(created)),
                            watches.get(kind.getKey()).next(1),
                            kind.getKey()
                                    + ": the watch goes on, with no 410, after its sequencer moved");
                }
            } finally {
                for (WatchClient w : watches.values()) {
                    w.close();
                }
            }
        } finally {
            if (!aClosed) {
                a.close();
            }
        }
    }

    /**
     * A create that tries again while the collection's shard is still moving (503/504 meanwhile).
     */
    private static ObjectNode createRetrying(TestApiServer api, String path, String body) {
        ObjectNode[] created = new ObjectNode[1];
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            Response r = api.post(path, json(body));
                            if (r.code() == 201) {
                                created[0] = r.json();
                                return true;
                            }
                            if (r.code()
                                    == 409) { // an earlier try that timed out was done after all
                                String name =
                                        Json.parseTrusted(
                                                        json(body).getBytes(StandardCharsets.UTF_8))
                                                .path("metadata")
                                                .path("name")
                                                .asText();
                                created[0] = api.get(path + "/" + name).assertCode(200).json();
                                return true;
                            }
                            assertTrue(
                                    r.code() == 503 || r.code() == 504,
                                    path + ": " + r.code() + " " + r.text());
                            return false;
                        });
        return created[0];
    }
}
