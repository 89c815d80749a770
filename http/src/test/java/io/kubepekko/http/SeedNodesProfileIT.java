package io.kubepekko.http;

import static io.kubepekko.http.SeedNodesProfileTest.PROFILE;
import static io.kubepekko.http.TestApiServer.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.http.server.ApiServerFlags;
import io.kubepekko.http.server.ApiServerSettings;
import io.kubepekko.persistence.StorageSettings;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two API servers started from the shipped profile {@code cluster-config/profiles/seed-nodes.conf}
 * the two ways it tells an operator to, through the server's own flags, form one Pekko Cluster on
 * the test's local Cassandra: node A runs with a per-node file that includes the profile, node B
 * with the profile itself and its per-node values as flags (and no {@code --storage}: the profile
 * selects Cassandra). Only what this machine needs differs from the profile: loopback addresses and
 * free ports, the local Cassandra's contact point and a fresh keyspace, created as the profile
 * says, with {@code schema.cql}.
 */
class SeedNodesProfileIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    @Test
    void twoServersStartedFromTheProfileFormOneCluster(@TempDir Path dir) throws Exception {
        LocalCassandra cassandra = TestCassandra.local();
        String keyspace = TestCassandra.keyspace();
        TestCassandra.applySchemaScript(
                cassandra, keyspace, "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        int portA = TestApiServer.freePort();
        int portB = TestApiServer.freePort();
        Path nodeA = dir.resolve("node-a.conf");
        Files.writeString(
                nodeA,
                """
                include required(file("%s"))
                pekko.remote.artery.canonical { hostname = "127.0.0.1", port = %d }
                pekko.cluster.seed-nodes = ["pekko://kubepekko@127.0.0.1:%d", "pekko://kubepekko@127.0.0.1:%d"]
                kubepekko.storage.cassandra { contact-points = ["%s"], keyspace = %s }
                """
                        .formatted(
                                PROFILE, portA, portA, portB, cassandra.contactPoint(), keyspace));

        // A is the first seed: it forms the cluster once B, the other seed, does not answer.
        try (TestApiServer a =
                        TestApiServer.startSingle(s -> fromFlags(s, "--config", nodeA.toString()));
                TestApiServer b =
                        TestApiServer.startSingle(
                                s ->
                                        fromFlags(
                                                s,
                                                "--config",
                                                PROFILE.toString(),
                                                "--cluster-hostname",
                                                "127.0.0.1",
                                                "--cluster-port",
                                                Integer.toString(portB),
                                                "--cluster-seed-nodes",
                                                "127.0.0.1:" + portA + ",127.0.0.1:" + portB,
                                                "--cassandra-contact-points",
                                                cassandra.contactPoint(),
                                                "--cassandra-keyspace",
                                                keyspace))) {
            assertNull(b.server().settings().storage().profile(), "B was given no --storage flag");
            for (TestApiServer node : List.of(a, b)) {
                assertEquals(
                        new StorageSettings.Cassandra(List.of(cassandra.contactPoint()), keyspace),
                        node.server().settings().resolve().storage());
            }
            ClusterFormationIT.awaitOneCluster(a, b);
            List<String> both = sorted(List.of("127.0.0.1:" + portA, "127.0.0.1:" + portB));
            assertEquals(
                    both,
                    sorted(a.server().upMembers()),
                    "A and B at the addresses they were given");
            assertEquals(both, sorted(b.server().upMembers()));

            // One cluster, not two on one keyspace: B's list and watch are fed by the sequencer
            // that A's
            // writes go through, wherever sharding placed it.
            ObjectNode list = ClusterFormationIT.writtenOnOneReadOnTheOther(a, b);
            String from = list.path("metadata").path("resourceVersion").asText();
            try (WatchClient onB =
                    WatchClient.open(b.url(), CMS + "?watch=true&resourceVersion=" + from)) {
                assertEquals(200, onB.code());
                ObjectNode y = ClusterFormationIT.configMap(a, "y");
                assertEquals(
                        List.of("ADDED y@" + rv(y)), onB.next(1), "a watch on B sees A's create");
            }
        }
    }

    /**
     * The settings the server's command line gives, in the test server's data directory (its PKI
     * the test one) on a free port of 127.0.0.1.
     */
    private static ApiServerSettings fromFlags(ApiServerSettings base, String... flags) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "--data-dir",
                                base.dataDir().toString(),
                                "--bind-address",
                                "127.0.0.1",
                                "--secure-port",
                                "0"));
        args.addAll(List.of(flags));
        try {
            return ApiServerFlags.parse(args.toArray(String[]::new), new Properties()).settings();
        } catch (ApiServerFlags.UsageException e) {
            throw new AssertionError("the server would exit 2: " + e.getMessage(), e);
        }
    }

    private static List<String> sorted(List<String> members) {
        return members.stream().sorted().toList();
    }
}
