package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.kubepekko.http.server.ApiServerFlags;
import io.kubepekko.http.server.ApiServerSettings;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.StorageSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped profile {@code cluster-config/profiles/seed-nodes.conf}, read as the server reads it
 * ({@code --config}): every key it sets is one the server knows, and it gives what its comments and
 * the operations guide promise. {@link SeedNodesProfileIT} forms a cluster from it.
 */
class SeedNodesProfileTest {

    /** The shipped file (the build runs this module's tests in {@code http/}). */
    static final Path PROFILE =
            Path.of("..", "cluster-config", "profiles", "seed-nodes.conf")
                    .toAbsolutePath()
                    .normalize();

    private static final String HOSTNAME = "pekko.remote.artery.canonical.hostname";

    private static ApiServerSettings.Resolved resolved(String... args) throws Exception {
        return ApiServerFlags.parse(args, new Properties()).settings().resolve();
    }

    @Test
    void everySettingOfTheProfileIsOneTheServerKnows() throws Exception {
        Config profile =
                ConfigFactory.parseFile(
                                PROFILE.toFile(),
                                ConfigParseOptions.defaults().setAllowMissing(false))
                        .withoutPath(HOSTNAME); // a substitution, left to each node
        Config known =
                ApiServerSettings.defaults()
                        .withStorage(StorageFlags.cassandra(List.of("127.0.0.1:9042"), "kubepekko"))
                        .resolve()
                        .config();
        TreeSet<String> unknown = new TreeSet<>();
        for (Map.Entry<String, ?> e : profile.entrySet()) {
            if (!known.hasPath(e.getKey())) {
                unknown.add(e.getKey());
            }
        }
        assertEquals(
                new TreeSet<>(),
                unknown,
                "misspelt keys are ignored silently: the profile would not do what it says");
        assertTrue(
                profile.entrySet().size() > 20,
                "the profile was read: " + profile.entrySet().size());
    }

    @Test
    void theProfileSelectsCassandraSeedNodesAndTheSplitBrainResolver() throws Exception {
        ApiServerSettings.Resolved r =
                resolved("--config", PROFILE.toString(), "--cluster-hostname", "10.0.0.11");
        Config c = r.config();
        assertEquals(
                new StorageSettings.Cassandra(
                        List.of("10.0.1.21:9042", "10.0.1.22:9042", "10.0.1.23:9042"), "kubepekko"),
                r.storage(),
                "no --storage flag: the file selects the profile");
        assertEquals(
                List.of(
                        "pekko://kubepekko@10.0.0.11:17355",
                        "pekko://kubepekko@10.0.0.12:17355",
                        "pekko://kubepekko@10.0.0.13:17355"),
                r.seedNodes());
        assertEquals("10.0.0.11", c.getString(HOSTNAME));
        assertEquals(17355, c.getInt("pekko.remote.artery.canonical.port"));

        assertEquals(
                "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider",
                c.getString("pekko.cluster.downing-provider-class"));
        assertEquals(
                "keep-majority", c.getString("pekko.cluster.split-brain-resolver.active-strategy"));
        assertEquals(
                Duration.ofMillis(1500),
                c.getDuration("pekko.cluster.split-brain-resolver.stable-after"));
        assertEquals(
                Duration.ofSeconds(2),
                c.getDuration("pekko.cluster.failure-detector.acceptable-heartbeat-pause"));
        assertEquals(Duration.ofMillis(500), c.getDuration("pekko.cluster.down-removal-margin"));
        for (int members = 3; members <= 7; members++) {
            // Pekko's ddata: min(N, max(N / 2 + 1 + plus, min-cap)) members must acknowledge a
            // write.
            int required =
                    Math.min(
                            members,
                            Math.max(
                                    members / 2
                                            + 1
                                            + c.getInt(
                                                    "pekko.cluster.sharding.coordinator-state.write-majority-plus"),
                                    c.getInt(
                                            "pekko.cluster.sharding.distributed-data.majority-min-cap")));
            assertEquals(
                    members / 2 + 1,
                    required,
                    "a dead member must not block the coordinator's writes until it is removed ("
                            + members
                            + ")");
        }
        assertEquals(
                Duration.ofSeconds(2),
                c.getDuration("pekko.cluster.sharding.updating-state-timeout"));
        assertTrue(
                c.getDuration("kubepekko.cluster.write-lease.duration")
                                .compareTo(
                                        c.getDuration(
                                                        "pekko.cluster.failure-detector.acceptable-heartbeat-pause")
                                                .plus(
                                                        c.getDuration(
                                                                "pekko.cluster.split-brain-resolver.stable-after")))
                        < 0,
                "the write lease ends before the others may replace a server they no longer hear from");
        assertEquals(
                "io.kubepekko.persistence.fencing.FencedCassandraJournal",
                c.getString("pekko.persistence.cassandra.journal.class"),
                "the journal is behind the write permit");
        assertEquals(
                "repair-by-discard-old",
                c.getString("pekko.persistence.cassandra.journal.replay-filter.mode"),
                "recovery drops a replaced server's late row that shares a sequence number with its successor's");
        assertEquals(
                "io.kubepekko.persistence.fencing.FencedCassandraSnapshotStore",
                c.getString("pekko.persistence.cassandra.snapshot.class"),
                "so is the snapshot store");
        assertEquals(
                Duration.ofSeconds(10), c.getDuration("pekko.cluster.sharding.rebalance-interval"));
        assertEquals(
                1,
                c.getInt(
                        "pekko.cluster.sharding.least-shard-allocation-strategy.rebalance-threshold"));
        assertEquals(
                3,
                c.getInt(
                        "pekko.cluster.sharding.least-shard-allocation-strategy.max-simultaneous-rebalance"));

        assertEquals(
                "QUORUM",
                c.getString(
                        "datastax-java-driver.profiles.kubepekko-write.basic.request.consistency"));
        assertEquals(
                "QUORUM",
                c.getString(
                        "datastax-java-driver.profiles.kubepekko-read.basic.request.consistency"));
        assertEquals(
                List.of("10.0.1.21:9042", "10.0.1.22:9042", "10.0.1.23:9042"),
                c.getStringList("datastax-java-driver.basic.contact-points"));
        assertEquals("kubepekko", c.getString("pekko.persistence.cassandra.journal.keyspace"));
        assertEquals(
                "NetworkTopologyStrategy",
                c.getString("pekko.persistence.cassandra.journal.replication-strategy"));
        assertEquals(
                List.of("datacenter1:3"),
                c.getStringList(
                        "pekko.persistence.cassandra.journal.data-center-replication-factors"));
        assertFalse(
                c.getBoolean("kubepekko.storage.cassandra.schema-autocreate"),
                "production: schema.cql");
    }

    @Test
    void eachNodeMustGiveItsOwnHostname() throws Exception {
        Assumptions.assumeTrue(
                System.getenv("KUBEPEKKO_CLUSTER_HOSTNAME") == null,
                "KUBEPEKKO_CLUSTER_HOSTNAME is set in this environment: it gives the hostname");
        String refused =
                assertThrows(
                                ApiServerFlags.UsageException.class,
                                () ->
                                        ApiServerFlags.parse(
                                                new String[] {"--config", PROFILE.toString()},
                                                new Properties()))
                        .getMessage();
        assertTrue(
                refused.startsWith("invalid configuration: ")
                        && refused.contains("seed-nodes.conf")
                        && refused.contains("${KUBEPEKKO_CLUSTER_HOSTNAME}"),
                refused);
    }

    @Test
    void aPerNodeFileIncludesTheProfile(@TempDir Path dir) throws Exception {
        Path node = dir.resolve("node.conf");
        Files.writeString(
                node,
                "include required(file(\"" + PROFILE + "\"))\n" + HOSTNAME + " = \"10.0.0.12\"\n");
        ApiServerSettings.Resolved r = resolved("--config", node.toString());
        assertEquals("10.0.0.12", r.config().getString(HOSTNAME));
        assertEquals(3, r.seedNodes().size());
        assertTrue(r.storage() instanceof StorageSettings.Cassandra, r.storage().toString());
    }
}
