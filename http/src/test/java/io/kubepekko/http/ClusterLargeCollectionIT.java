package io.kubepekko.http;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A server joins a cluster in which one collection (configmaps in one namespace) already holds more
 * than Artery's largest frame (256 KiB): its watch cache loads that collection from the node hosting
 * it, and must serve it like the node that wrote it.
 */
class ClusterLargeCollectionIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final int OBJECTS = 40;

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    @Disabled("open bug: the joining node's configmaps cache never loads: the collection's one ListObjects reply "
            + "(about 400 KB) exceeds Artery's maximum-frame-size and is dropped (OversizedPayloadException), "
            + "so the start fails with 'the watch caches did not load within PT2M: [configmaps]'")
    void aServerJoiningAfterACollectionGrewPast256KiBServesIt() throws Exception {
        ApiServerSettings.StorageFlags storage = ApiServerSettings.StorageFlags.cassandra(
                List.of(TestCassandra.local().contactPoint()), TestCassandra.keyspace());
        int seedPort = freePort();
        List<String> seeds = List.of("127.0.0.1:" + seedPort);
        try (TestApiServer a = TestApiServer.startSingle(s -> s.withStorage(storage)
                .withCluster(new ApiServerSettings.ClusterFlags(seeds, seedPort, "127.0.0.1")))) {
            String value = "x".repeat(10_000);
            for (int i = 0; i < OBJECTS; i++) {
                a.create(CMS, json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c" + i + "'},"
                        + "'data':{'k':'" + value + "'}}"));
            }
            // The collection lives on A, the only member when it was written: B's cache reads it across nodes.
            try (TestApiServer b = TestApiServer.startSingle(s -> s.withStorage(storage)
                    .withCluster(new ApiServerSettings.ClusterFlags(seeds, 0, "127.0.0.1")))) {
                assertEquals(OBJECTS, itemNames(b.get(CMS).assertCode(200).json()).size());
            }
        }
    }
}
