package io.kubepekko.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.pattern.Patterns;
import org.apache.pekko.persistence.Persistence;
import org.apache.pekko.persistence.SaveSnapshotFailure;
import org.apache.pekko.persistence.SaveSnapshotSuccess;
import org.apache.pekko.persistence.SelectedSnapshot;
import org.apache.pekko.persistence.SnapshotMetadata;
import org.apache.pekko.persistence.SnapshotProtocol;
import org.apache.pekko.persistence.SnapshotSelectionCriteria;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PartedSnapshotStore} on the cassandra profile: a collection snapshot larger than one Cassandra request
 * may carry (Cassandra 5.0 refuses CQL messages over 12.8 MiB, and mutations over half a commit log segment,
 * 16 MiB) is saved in parts and loaded whole; the Cassandra plugin alone refuses it. On the Cassandra at {@code -Dkubepekko.it.cassandra.contact-points}, or a local
 * one started for this class.
 */
class CassandraSnapshotsIT {

    @TempDir
    static Path dir;
    private static LocalCassandra cassandra;
    private static ActorTestKit kit;

    @BeforeAll
    static void start() throws Exception {
        String configured = System.getProperty("kubepekko.it.cassandra.contact-points", "");
        List<String> contactPoints;
        if (configured.isBlank()) {
            cassandra = LocalCassandra.start(dir.resolve("cassandra"));
            contactPoints = List.of(cassandra.contactPoint());
        } else {
            contactPoints = Arrays.asList(configured.split(","));
        }
        String keyspace = "snapshots_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Config config = new StorageSettings.Cassandra(contactPoints, keyspace).toConfig()
                .withFallback(ConfigFactory.parseString("pekko.actor.provider = local"));
        kit = ActorTestKit.create(ConfigFactory.load(config));
        CassandraSchema.prepare(kit.system()).toCompletableFuture().get(120, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        if (kit != null) {
            kit.shutdownTestKit();
        }
        if (cassandra != null) {
            cassandra.stop();
        }
    }

    private static Object ask(String plugin, Object message) throws Exception {
        var store = Persistence.get(Adapter.toClassic(kit.system())).snapshotStoreFor(plugin, ConfigFactory.empty());
        return Patterns.ask(store, message, Duration.ofSeconds(60)).toCompletableFuture().get(90, TimeUnit.SECONDS);
    }

    /** 24 lines of 1 MB: 24 MB, over what one request may carry. */
    private static PartedSnapshotStoreTest.Lines big(char c) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            lines.add(String.valueOf(c).repeat(1_000_000 - 4) + String.format("%04d", i));
        }
        return new PartedSnapshotStoreTest.Lines(lines);
    }

    @Test
    void aSnapshotLargerThanAMutationIsSavedInPartsAndLoadedWhole() throws Exception {
        PartedSnapshotStoreTest.Lines snapshot = big('a');
        assertInstanceOf(SaveSnapshotSuccess.class, ask("", new SnapshotProtocol.SaveSnapshot(
                new SnapshotMetadata("big", 42, 0L), snapshot)));

        var loaded = (SnapshotProtocol.LoadSnapshotResult) ask("",
                new SnapshotProtocol.LoadSnapshot("big", SnapshotSelectionCriteria.latest(), Long.MAX_VALUE));
        SelectedSnapshot selected = loaded.snapshot().get();
        assertEquals(42, selected.metadata().sequenceNr());
        assertEquals(snapshot, selected.snapshot());
    }

    @Test
    void theCassandraPluginAloneRefusesTheSameSnapshot() throws Exception {
        Object reply = ask("pekko.persistence.cassandra.snapshot", new SnapshotProtocol.SaveSnapshot(
                new SnapshotMetadata("whole", 42, 0L), big('b')));
        SaveSnapshotFailure failure = assertInstanceOf(SaveSnapshotFailure.class, reply);
        // Cassandra 5.0 refuses the request itself: "CQL Message of size 24018289 bytes exceeds allowed
        // maximum of 13421772 bytes"; an older one would refuse the mutation (over 16 MiB).
        String why = String.valueOf(failure.cause());
        assertTrue(why.contains("exceeds allowed maximum") || why.toLowerCase().contains("mutation"), why);
    }
}
