package io.kubepekko.persistence;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.pattern.Patterns;
import org.apache.pekko.persistence.DeleteSnapshotsSuccess;
import org.apache.pekko.persistence.Persistence;
import org.apache.pekko.persistence.SaveSnapshotSuccess;
import org.apache.pekko.persistence.SelectedSnapshot;
import org.apache.pekko.persistence.SnapshotMetadata;
import org.apache.pekko.persistence.SnapshotProtocol;
import org.apache.pekko.persistence.SnapshotSelectionCriteria;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PartedSnapshotStore} over the embedded profile's JDBC snapshot store. */
class PartedSnapshotStoreTest {

    /** A snapshot of strings; its parts hold about {@code maxBytes} of them each. */
    record Lines(List<String> lines) implements CborSerializable, SnapshotInParts {
        @Override
        public long sizeInBytes() {
            return lines.stream().mapToLong(String::length).sum();
        }

        @Override
        public Iterator<?> parts(long maxBytes) {
            List<LinesPart> parts = new ArrayList<>();
            List<String> current = new ArrayList<>();
            long bytes = 0;
            for (String line : lines) {
                if (!current.isEmpty() && bytes + line.length() > maxBytes) {
                    parts.add(new LinesPart(current));
                    current = new ArrayList<>();
                    bytes = 0;
                }
                current.add(line);
                bytes += line.length();
            }
            if (!current.isEmpty()) {
                parts.add(new LinesPart(current));
            }
            return parts.iterator();
        }

        @Override
        public Header header(int count) {
            return new LinesHeader(count);
        }
    }

    record LinesPart(List<String> lines) implements CborSerializable {}

    record LinesHeader(int parts) implements CborSerializable, SnapshotInParts.Header {
        @Override
        public SnapshotInParts.Assembly assemble() {
            List<String> all = new ArrayList<>();
            return new SnapshotInParts.Assembly() {
                @Override
                public void add(Object part) {
                    all.addAll(((LinesPart) part).lines());
                }

                @Override
                public Object result() {
                    return new Lines(all);
                }
            };
        }
    }

    /**
     * {@link Lines} whose parts are cut only as the store asks for them, each after {@link
     * #beforeEachPart} ran: what the store had stored by then.
     */
    record Watched(Lines lines) implements SnapshotInParts {
        static volatile Runnable beforeEachPart = () -> {};

        @Override
        public long sizeInBytes() {
            return lines.sizeInBytes();
        }

        @Override
        public Iterator<?> parts(long maxBytes) {
            Iterator<?> parts = lines.parts(maxBytes);
            return new Iterator<Object>() {
                @Override
                public boolean hasNext() {
                    return parts.hasNext();
                }

                @Override
                public Object next() {
                    beforeEachPart.run();
                    return parts.next();
                }
            };
        }

        @Override
        public Header header(int count) {
            return lines.header(count);
        }
    }

    @TempDir Path dir;
    private ActorTestKit kit;
    private ActorRef store;
    private ActorRef jdbc;

    private Config config() {
        return new StorageSettings.Embedded(dir)
                .toConfig()
                .withFallback(
                        ConfigFactory.parseString(
                                "kubepekko.snapshot-store.part-bytes = 1000\n"
                                        + "pekko.actor.provider = local"))
                .withFallback(ConfigFactory.load())
                .resolve();
    }

    @BeforeEach
    void start() throws Exception {
        kit = ActorTestKit.create(config());
        EmbeddedSchema.createIfNotExists(kit.system())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        Persistence persistence = Persistence.get(Adapter.toClassic(kit.system()));
        store = persistence.snapshotStoreFor("", ConfigFactory.empty());
        jdbc = persistence.snapshotStoreFor("jdbc-snapshot-store", ConfigFactory.empty());
    }

    @AfterEach
    void stop() {
        kit.shutdownTestKit();
    }

    private static Lines lines(int count, int length, char c) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(String.valueOf(c).repeat(length - 4) + String.format("%04d", i));
        }
        return new Lines(out);
    }

    private static Object ask(ActorRef to, Object message) throws Exception {
        return Patterns.ask(to, message, Duration.ofSeconds(20))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
    }

    private static void save(ActorRef to, String pid, long n, Object snapshot) throws Exception {
        assertInstanceOf(
                SaveSnapshotSuccess.class,
                ask(
                        to,
                        new SnapshotProtocol.SaveSnapshot(
                                new SnapshotMetadata(pid, n, 0L), snapshot)));
    }

    private Optional<SelectedSnapshot> load(String pid) throws Exception {
        var r =
                (SnapshotProtocol.LoadSnapshotResult)
                        ask(
                                store,
                                new SnapshotProtocol.LoadSnapshot(
                                        pid, SnapshotSelectionCriteria.latest(), Long.MAX_VALUE));
        return r.snapshot().isDefined() ? Optional.of(r.snapshot().get()) : Optional.empty();
    }

    /**
     * The sequence numbers of the snapshot rows of each persistence id starting with {@code pid}.
     */
    private TreeMap<String, List<Long>> rows(String pid) throws Exception {
        TreeMap<String, List<Long>> out = new TreeMap<>();
        try (Connection c =
                        DriverManager.getConnection(
                                config().getString("kubepekko.storage.embedded.url"), "sa", "");
                PreparedStatement s =
                        c.prepareStatement(
                                "SELECT \"persistence_id\", \"sequence_number\" FROM \"snapshot\""
                                        + " WHERE \"persistence_id\" LIKE ? ORDER BY 1, 2")) {
            s.setString(1, pid + "%");
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.computeIfAbsent(r.getString(1), k -> new ArrayList<>()).add(r.getLong(2));
                }
            }
        }
        return out;
    }

    @Test
    void savesALargeSnapshotInPartsAndLoadsItWhole() throws Exception {
        Lines big = lines(25, 100, 'a'); // 2500 bytes: three parts of at most 1000
        save(store, "big", 7, big);

        assertEquals(
                List.of("big", "big#snapshot-part-0", "big#snapshot-part-1", "big#snapshot-part-2"),
                new ArrayList<>(rows("big").keySet()));
        SelectedSnapshot loaded = load("big").orElseThrow();
        assertEquals(7, loaded.metadata().sequenceNr());
        assertEquals(big, loaded.snapshot());
    }

    /**
     * The store holds one part at a time: it asks for a part only once the one before is stored, so
     * a save never has more than one part's values (and their serialized bytes) in hand.
     */
    @Test
    void asksForEachPartOnlyOnceThePartBeforeIsStored() throws Exception {
        List<Integer> storedBeforeEachPart = new ArrayList<>();
        Watched.beforeEachPart =
                () -> {
                    try {
                        storedBeforeEachPart.add(rows("watched#").size());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                };
        try {
            save(store, "watched", 4, new Watched(lines(25, 100, 'w'))); // three parts
        } finally {
            Watched.beforeEachPart = () -> {};
        }

        assertEquals(List.of(0, 1, 2), storedBeforeEachPart);
        assertEquals(lines(25, 100, 'w'), load("watched").orElseThrow().snapshot());
    }

    @Test
    void savesASmallSnapshotWhole() throws Exception {
        Lines small = lines(3, 100, 'b');
        save(store, "small", 3, small);

        assertEquals(List.of("small"), new ArrayList<>(rows("small").keySet()));
        assertEquals(small, load("small").orElseThrow().snapshot());
    }

    @Test
    void loadsASnapshotSavedWholeBeforePartsExisted() throws Exception {
        Lines old = lines(25, 100, 'c');
        save(jdbc, "old", 5, old); // as the JDBC store alone saved it

        assertEquals(old, load("old").orElseThrow().snapshot());
    }

    @Test
    void aNewSnapshotDeletesOlderSnapshotsAndTheirParts() throws Exception {
        save(store, "moving", 10, lines(25, 100, 'd')); // three parts
        save(
                store,
                "moving",
                20,
                lines(12, 100, 'e')); // two parts: part 2 of the first one goes too

        awaitRows("moving", List.of("moving", "moving#snapshot-part-0", "moving#snapshot-part-1"));
        assertEquals(List.of(20L), rows("moving").get("moving"));
        assertEquals(List.of(20L), rows("moving").get("moving#snapshot-part-0"));
        assertEquals(List.of(20L), rows("moving").get("moving#snapshot-part-1"));
        assertEquals(null, rows("moving").get("moving#snapshot-part-2"));

        save(store, "moving", 30, lines(2, 100, 'f')); // small again: no part remains
        awaitRows("moving", List.of("moving"));
        assertEquals(List.of(30L), rows("moving").get("moving"));
        assertEquals(lines(2, 100, 'f'), load("moving").orElseThrow().snapshot());
    }

    @Test
    void aSnapshotMissingAPartGivesWayToAnEarlierOneOrNone() throws Exception {
        save(store, "torn", 20, lines(25, 100, 'g'));
        save(
                jdbc,
                "torn",
                10,
                lines(2, 100, 'h')); // an earlier snapshot, written after the clean-up
        assertInstanceOf(
                DeleteSnapshotsSuccess.class,
                ask(
                        jdbc,
                        new SnapshotProtocol.DeleteSnapshots(
                                "torn#snapshot-part-1", SnapshotSelectionCriteria.latest())));

        SelectedSnapshot loaded = load("torn").orElseThrow();
        assertEquals(10, loaded.metadata().sequenceNr());
        assertEquals(lines(2, 100, 'h'), loaded.snapshot());

        assertInstanceOf(
                DeleteSnapshotsSuccess.class,
                ask(
                        jdbc,
                        new SnapshotProtocol.DeleteSnapshots(
                                "torn", new SnapshotSelectionCriteria(10, Long.MAX_VALUE, 0, 0))));
        assertTrue(load("torn").isEmpty(), "no snapshot: the journal replays from the start");
    }

    /** The clean-up after a save runs after its answer: wait for it. */
    private void awaitRows(String pid, List<String> ids) {
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertEquals(ids, new ArrayList<>(rows(pid).keySet())));
    }
}
