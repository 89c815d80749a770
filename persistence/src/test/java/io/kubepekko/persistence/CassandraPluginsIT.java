package io.kubepekko.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import io.kubepekko.persistence.fencing.WritePermit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.pattern.Patterns;
import org.apache.pekko.persistence.AtomicWrite;
import org.apache.pekko.persistence.JournalProtocol;
import org.apache.pekko.persistence.Persistence;
import org.apache.pekko.persistence.PersistentEnvelope;
import org.apache.pekko.persistence.PersistentRepr;
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
import scala.jdk.javaapi.CollectionConverters;

/**
 * The storage plugins of the cassandra profile. The fenced journal ({@code
 * FencedCassandraJournal}): a server whose write permit lapsed writes no row, and a replaced
 * server's late row that shares a sequence number with its successor's is dropped on recovery.
 * {@link PartedSnapshotStore}: a collection snapshot larger than one Cassandra request may carry
 * (Cassandra 5.0 refuses CQL messages over 12.8 MiB, and mutations over half a commit log segment,
 * 16 MiB) is saved in parts and loaded whole; the Cassandra plugin alone refuses it. On the
 * Cassandra at {@code -Dkubepekko.it.cassandra.contact-points}, or a local one started for this
 * class.
 */
class CassandraPluginsIT {

    @TempDir static Path dir;
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
        String keyspace =
                "plugins_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Config config =
                new StorageSettings.Cassandra(contactPoints, keyspace)
                        .toConfig()
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

    private static ActorRef journal() {
        return Persistence.get(Adapter.toClassic(kit.system()))
                .journalFor("", ConfigFactory.empty());
    }

    private static JournalProtocol.WriteMessages write(
            TestProbe<Object> to, String pid, long seqNr, String writer, String payload) {
        PersistentRepr event =
                PersistentRepr.apply(payload, seqNr, pid, "", false, ActorRef.noSender(), writer);
        return new JournalProtocol.WriteMessages(
                CollectionConverters.asScala(List.<PersistentEnvelope>of(AtomicWrite.apply(event)))
                        .toList(),
                Adapter.toClassic(to.ref()),
                1);
    }

    private static void written(TestProbe<Object> probe) {
        probe.expectMessageClass(
                JournalProtocol.WriteMessagesSuccessful$.class, Duration.ofSeconds(30));
        probe.expectMessageClass(JournalProtocol.WriteMessageSuccess.class, Duration.ofSeconds(30));
    }

    /** The payloads recovery replays for {@code pid}, in order. */
    private static List<Object> replay(String pid) {
        TestProbe<Object> probe = kit.createTestProbe();
        journal()
                .tell(
                        new JournalProtocol.ReplayMessages(
                                1,
                                Long.MAX_VALUE,
                                Long.MAX_VALUE,
                                pid,
                                Adapter.toClassic(probe.ref())),
                        ActorRef.noSender());
        List<Object> payloads = new ArrayList<>();
        while (true) {
            Object m = probe.receiveMessage(Duration.ofSeconds(30));
            if (m instanceof JournalProtocol.ReplayedMessage r) {
                payloads.add(r.persistent().payload());
            } else {
                assertInstanceOf(JournalProtocol.RecoverySuccess.class, m);
                return payloads;
            }
        }
    }

    @Test
    void aReplacedServersLateRowIsDroppedOnRecoveryForItsSuccessorsOfTheSameSequenceNumber() {
        TestProbe<Object> probe = kit.createTestProbe();
        String pid = "late-" + UUID.randomUUID();
        // The replaced server's second event got its row key before the pause (its permit held
        // then) and landed
        // after its successor had recovered event 1 and written its own event 2, whose row key is
        // later.
        journal().tell(write(probe, pid, 1, "replaced", "first"), ActorRef.noSender());
        written(probe);
        journal().tell(write(probe, pid, 2, "replaced", "late"), ActorRef.noSender());
        written(probe);
        journal().tell(write(probe, pid, 2, "successor", "acknowledged"), ActorRef.noSender());
        written(probe);

        assertEquals(
                List.of("first", "acknowledged"),
                replay(pid),
                "the late row shares the last number");

        journal().tell(write(probe, pid, 3, "successor", "next"), ActorRef.noSender());
        written(probe);
        assertEquals(
                List.of("first", "acknowledged", "next"),
                replay(pid),
                "the late row is in the middle");
    }

    @Test
    void aServerWhosePermitLapsedWritesNoRow() {
        TestProbe<Object> probe = kit.createTestProbe();
        String pid = "fenced-" + UUID.randomUUID();
        WritePermit permit = WritePermit.ID.of(Adapter.toClassic(kit.system()));
        permit.revoke("replaced in this test");
        try {
            journal().tell(write(probe, pid, 1, "replaced", "refused"), ActorRef.noSender());
            JournalProtocol.WriteMessagesFailed failed =
                    probe.expectMessageClass(
                            JournalProtocol.WriteMessagesFailed.class, Duration.ofSeconds(30));
            assertTrue(
                    String.valueOf(failed.cause()).contains("replaced in this test"),
                    String.valueOf(failed.cause()));
        } finally {
            permit.grantAlways();
        }
        assertEquals(List.of(), replay(pid));
    }

    private static Object ask(String plugin, Object message) throws Exception {
        var store =
                Persistence.get(Adapter.toClassic(kit.system()))
                        .snapshotStoreFor(plugin, ConfigFactory.empty());
        return Patterns.ask(store, message, Duration.ofSeconds(60))
                .toCompletableFuture()
                .get(90, TimeUnit.SECONDS);
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
        assertInstanceOf(
                SaveSnapshotSuccess.class,
                ask(
                        "",
                        new SnapshotProtocol.SaveSnapshot(
                                new SnapshotMetadata("big", 42, 0L), snapshot)));

        var loaded =
                (SnapshotProtocol.LoadSnapshotResult)
                        ask(
                                "",
                                new SnapshotProtocol.LoadSnapshot(
                                        "big", SnapshotSelectionCriteria.latest(), Long.MAX_VALUE));
        SelectedSnapshot selected = loaded.snapshot().get();
        assertEquals(42, selected.metadata().sequenceNr());
        assertEquals(snapshot, selected.snapshot());
    }

    @Test
    void theCassandraPluginAloneRefusesTheSameSnapshot() throws Exception {
        Object reply =
                ask(
                        "pekko.persistence.cassandra.snapshot",
                        new SnapshotProtocol.SaveSnapshot(
                                new SnapshotMetadata("whole", 42, 0L), big('b')));
        SaveSnapshotFailure failure = assertInstanceOf(SaveSnapshotFailure.class, reply);
        // Cassandra 5.0 refuses the request itself: "CQL Message of size 24018289 bytes exceeds
        // allowed
        // maximum of 13421772 bytes"; an older one would refuse the mutation (over 16 MiB).
        String why = String.valueOf(failure.cause());
        assertTrue(
                why.contains("exceeds allowed maximum") || why.toLowerCase().contains("mutation"),
                why);
    }
}
