package io.kubepekko.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;
import scala.concurrent.Await;
import scala.concurrent.Future;
import scala.concurrent.duration.Duration;
import scala.runtime.BoxedUnit;

/** The journal's writer against an H2 file database with the embedded profile's tables. */
class JournalBatchWriterTest {
    private static final Duration WAIT = Duration.create(10, TimeUnit.SECONDS);

    @TempDir Path dir;
    private String url;
    private JournalBatchWriter writer;

    @BeforeEach
    void createTables() throws Exception {
        url = "jdbc:h2:file:" + dir.resolve("db") + ";DATABASE_TO_UPPER=false;WRITE_DELAY=0";
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            for (String statement : EmbeddedSchema.script().split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
        }
        writer = newWriter(this::connect, INDEX_EVERY);
    }

    /** Small, so that tests see rows both indexed and not. */
    private static final int INDEX_EVERY = 3;

    private static final JournalConfig CONFIG =
            new JournalConfig(ConfigFactory.load().getConfig("jdbc-journal"));
    private static final PidIndex INDEX = PidIndex.of(CONFIG);

    private static JournalBatchWriter newWriter(
            JournalBatchWriter.ConnectionSource connections, int indexEvery) {
        return new JournalBatchWriter(
                connections, JournalInserts.of(CONFIG), INDEX, 400, indexEvery);
    }

    @AfterEach
    void stop() {
        writer.stop();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, "sa", "");
    }

    private static JournalBatchWriter.Row row(String pid, long seq, String... tags) {
        byte[] payload = (pid + "#" + seq).getBytes();
        return new JournalBatchWriter.Row(
                new JournalPekkoSerializationRow(
                        Long.MIN_VALUE,
                        false,
                        pid,
                        seq,
                        "writer-1",
                        1_700_000_000_000L + seq,
                        "",
                        payload,
                        33,
                        "manifest",
                        Option.empty(),
                        Option.empty(),
                        Option.empty()),
                List.of(tags));
    }

    private static void await(Future<BoxedUnit> f) throws Exception {
        Await.result(f, WAIT);
    }

    /** persistence_id#sequence_number → ordering, and each tag's event ids in order. */
    private Map<String, Long> orderings() throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT \"persistence_id\", \"sequence_number\", \"ordering\" FROM \"event_journal\"")) {
            while (r.next()) {
                out.put(r.getString(1) + "#" + r.getLong(2), r.getLong(3));
            }
        }
        return out;
    }

    private List<String> tagged(String tag) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT j.\"persistence_id\", j.\"sequence_number\" FROM \"event_tag\" t "
                                        + "JOIN \"event_journal\" j ON j.\"ordering\" = t.\"event_id\" WHERE t.\"tag\" = '"
                                        + tag
                                        + "' ORDER BY t.\"event_id\"")) {
            while (r.next()) {
                out.add(r.getString(1) + "#" + r.getLong(2));
            }
        }
        return out;
    }

    @Test
    void writesEveryColumnAndPointsEachTagAtItsRow() throws Exception {
        await(writer.write(List.of(row("a", 1, "pods"), row("a", 2, "pods", "all"), row("a", 3))));
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT * FROM \"event_journal\" WHERE \"sequence_number\" = 2")) {
            assertTrue(r.next());
            assertEquals("a", r.getString("persistence_id"));
            assertEquals(false, r.getBoolean("deleted"));
            assertEquals("writer-1", r.getString("writer"));
            assertEquals(1_700_000_000_002L, r.getLong("write_timestamp"));
            assertEquals("", r.getString("adapter_manifest"));
            assertArrayEquals("a#2".getBytes(), r.getBytes("event_payload"));
            assertEquals(33, r.getInt("event_ser_id"));
            assertEquals("manifest", r.getString("event_ser_manifest"));
            r.getBytes("meta_payload");
            assertTrue(r.wasNull());
        }
        assertEquals(List.of("a#1", "a#2"), tagged("pods"));
        assertEquals(List.of("a#2"), tagged("all"));
    }

    @Test
    void concurrentWritesAllCommitAndTheOrderingFollowsEachWritersOrder() throws Exception {
        int writers = 8;
        int perWriter = 200;
        List<Thread> threads = new ArrayList<>();
        List<Future<BoxedUnit>> futures = Collections.synchronizedList(new ArrayList<>());
        for (int w = 0; w < writers; w++) {
            String pid = "pid-" + w;
            Thread t =
                    new Thread(
                            () -> {
                                for (int seq = 1; seq <= perWriter; seq++) {
                                    futures.add(writer.write(List.of(row(pid, seq, "t"))));
                                }
                            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        for (Future<BoxedUnit> f : futures) {
            await(f);
        }
        Map<String, Long> orderings = orderings();
        assertEquals(writers * perWriter, orderings.size());
        for (int w = 0; w < writers; w++) {
            for (int seq = 2; seq <= perWriter; seq++) {
                assertTrue(
                        orderings.get("pid-" + w + "#" + seq)
                                > orderings.get("pid-" + w + "#" + (seq - 1)));
            }
        }
        assertEquals(writers * perWriter, tagged("t").size());
    }

    @Test
    void aFailedWriteLeavesNoneOfItsRowsAndTheNextWriteSucceeds() throws Exception {
        await(writer.write(List.of(row("a", 1, "t"))));
        // (a, 1) exists: the whole write is refused, including (a, 2) before it.
        Future<BoxedUnit> failed = writer.write(List.of(row("a", 2, "t"), row("a", 1, "t")));
        Exception e = assertThrows(Exception.class, () -> await(failed));
        assertTrue(e instanceof SQLIntegrityConstraintViolationException, e.toString());
        assertEquals(
                "persistence id a already has sequence number 2; refusing 1 (a second writer for the same "
                        + "persistence id?)",
                e.getMessage());
        await(writer.write(List.of(row("a", 2, "t"), row("b", 1, "t"))));
        assertEquals(List.of("a#1", "a#2", "b#1"), new ArrayList<>(orderings().keySet()));
        assertEquals(List.of("a#1", "a#2", "b#1"), tagged("t"));
    }

    @Test
    void aWriteThatCannotConnectFailsAndALaterOneConnects() throws Exception {
        writer.stop();
        boolean[] down = {true};
        writer =
                newWriter(
                        () -> {
                            if (down[0]) {
                                throw new SQLException("database unreachable");
                            }
                            return connect();
                        },
                        INDEX_EVERY);
        Exception e =
                assertThrows(Exception.class, () -> await(writer.write(List.of(row("a", 1)))));
        assertEquals("database unreachable", e.getMessage());
        down[0] = false;
        await(writer.write(List.of(row("a", 1))));
        assertEquals(List.of("a#1"), new ArrayList<>(orderings().keySet()));
    }

    @Test
    void afterStopWritesFail() {
        writer.stop();
        Future<BoxedUnit> late = writer.write(List.of(row("a", 1)));
        Exception e = assertThrows(Exception.class, () -> await(late));
        assertEquals("the journal writer has stopped", e.getMessage());
    }

    private List<String> indexEntries() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT i.\"persistence_id\", i.\"sequence_number\", i.\"ordering\", "
                                        + "j.\"persistence_id\", j.\"sequence_number\" FROM \"event_journal_by_pid\" i "
                                        + "JOIN \"event_journal\" j ON j.\"ordering\" = i.\"ordering\" ORDER BY i.\"persistence_id\", "
                                        + "i.\"sequence_number\"")) {
            while (r.next()) {
                // each entry points at its own row
                assertEquals(
                        r.getString(1) + "#" + r.getLong(2), r.getString(4) + "#" + r.getLong(5));
                out.add(r.getString(1) + "#" + r.getLong(2));
            }
        }
        return out;
    }

    private long mark() throws SQLException {
        try (Connection c = connect()) {
            return INDEX.readMark(c);
        }
    }

    private List<String> replay(String pid, long from, long to, long max) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect()) {
            for (JournalPekkoSerializationRow r : INDEX.messages(c, pid, from, to, max)) {
                assertArrayEquals(
                        (r.persistenceId() + "#" + r.sequenceNumber()).getBytes(),
                        r.eventPayload());
                out.add(r.persistenceId() + "#" + r.sequenceNumber());
            }
        }
        return out;
    }

    private long highest(String pid) throws SQLException {
        try (Connection c = connect()) {
            return INDEX.highestSequenceNumber(c, pid);
        }
    }

    @Test
    void rowsAreIndexedInBulkOnceEnoughAreUnindexedAndTheMarkCoversThem() throws Exception {
        await(writer.write(List.of(row("b", 1))));
        await(writer.write(List.of(row("a", 1))));
        assertEquals(List.of(), indexEntries());
        assertEquals(0, mark());
        await(writer.write(List.of(row("b", 2))));
        assertEquals(List.of("a#1", "b#1", "b#2"), indexEntries());
        assertEquals(orderings().get("b#2"), mark());
        await(writer.write(List.of(row("a", 2))));
        assertEquals(3, indexEntries().size());
        assertEquals(orderings().get("b#2"), mark());
    }

    /**
     * Reads scan the unindexed rows' payloads: large rows are indexed sooner than the row count
     * says.
     */
    @Test
    void rowsAreIndexedOnceTheirPayloadsReachTheByteBoundWhateverTheirNumber() throws Exception {
        writer.stop();
        writer =
                new JournalBatchWriter(
                        this::connect, JournalInserts.of(CONFIG), INDEX, 400, 1000, 10);
        await(writer.write(List.of(row("a", 1)))); // "a#1": 3 bytes
        await(writer.write(List.of(row("a", 2)))); // 6
        await(writer.write(List.of(row("b", 1)))); // 9
        assertEquals(List.of(), indexEntries());
        await(writer.write(List.of(row("b", 2)))); // 12: at least 10
        assertEquals(List.of("a#1", "a#2", "b#1", "b#2"), indexEntries());
        assertEquals(orderings().get("b#2"), mark());
        // a writer that reconnects counts what it finds unindexed
        writer.stop();
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.executeUpdate(
                    "INSERT INTO \"event_journal\" (\"persistence_id\", \"sequence_number\", \"writer\", "
                            + "\"write_timestamp\", \"adapter_manifest\", \"event_payload\", \"event_ser_id\", "
                            + "\"event_ser_manifest\") VALUES ('c', 1, 'w', 0, '', X'00112233445566778899', 1, 'm')");
        }
        writer =
                new JournalBatchWriter(
                        this::connect, JournalInserts.of(CONFIG), INDEX, 400, 1000, 10);
        await(writer.write(List.of(row("a", 3))));
        assertEquals(List.of("a#1", "a#2", "a#3", "b#1", "b#2", "c#1"), indexEntries());
    }

    @Test
    void readsByPersistenceIdSeeIndexedAndUnindexedRowsEachOnceInSequenceOrder() throws Exception {
        for (int seq = 1; seq <= 4; seq++) {
            await(writer.write(List.of(row("a", seq), row("b", seq))));
        }
        await(writer.write(List.of(row("a", 5))));
        // a#1..a#4 indexed (eight rows, entries added at every third); a#5 is after the mark
        assertTrue(indexEntries().contains("a#4"));
        assertTrue(!indexEntries().contains("a#5"));
        assertEquals(
                List.of("a#1", "a#2", "a#3", "a#4", "a#5"),
                replay("a", 1, Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(List.of("a#3", "a#4", "a#5"), replay("a", 3, 5, 10));
        assertEquals(List.of("a#4", "a#5"), replay("a", 4, Long.MAX_VALUE, 2));
        assertEquals(List.of("a#2", "a#3"), replay("a", 2, 3, 10));
        assertEquals(List.of("b#1", "b#2", "b#3", "b#4"), replay("b", 0, Long.MAX_VALUE, 100));
        assertEquals(List.of(), replay("c", 0, Long.MAX_VALUE, 100));
        assertEquals(5, highest("a"));
        assertEquals(4, highest("b"));
        assertEquals(0, highest("c"));
        // deleted rows are not replayed but still count towards the highest, as with the plugin's
        // queries
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.executeUpdate(
                    "UPDATE \"event_journal\" SET \"deleted\" = TRUE WHERE \"persistence_id\" = 'a' "
                            + "AND \"sequence_number\" IN (1, 5)");
        }
        assertEquals(List.of("a#2", "a#3", "a#4"), replay("a", 1, Long.MAX_VALUE, 100));
        assertEquals(5, highest("a"));
    }

    @Test
    void aWriteThatDoesNotRaiseItsSequenceNumbersIsRefusedAlsoByTheNextWriter() throws Exception {
        await(writer.write(List.of(row("a", 1), row("a", 2))));
        await(writer.write(List.of(row("a", 3))));
        await(writer.write(List.of(row("a", 4)))); // a#1..a#3 indexed, a#4 not
        assertThrows(
                SQLIntegrityConstraintViolationException.class,
                () -> await(writer.write(List.of(row("a", 4)))));
        assertThrows(
                SQLIntegrityConstraintViolationException.class,
                () -> await(writer.write(List.of(row("a", 2)))));
        writer.stop();
        writer = newWriter(this::connect, 100);
        // the next writer knows them from the index (stopping indexed a#4)
        assertThrows(
                SQLIntegrityConstraintViolationException.class,
                () -> await(writer.write(List.of(row("a", 4)))));
        assertThrows(
                SQLIntegrityConstraintViolationException.class,
                () -> await(writer.write(List.of(row("a", 3)))));
        await(writer.write(List.of(row("a", 5))));
        assertEquals(
                List.of("a#1", "a#2", "a#3", "a#4", "a#5"), new ArrayList<>(orderings().keySet()));
    }

    @Test
    void theNextWriterIndexesRowsAnEarlierProcessLeftUnindexed() throws Exception {
        writer.stop();
        // as if a process died after committing these rows and before indexing them
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            for (int seq = 1; seq <= 2; seq++) {
                s.executeUpdate(
                        "INSERT INTO \"event_journal\" (\"persistence_id\", \"sequence_number\", \"writer\", "
                                + "\"write_timestamp\", \"adapter_manifest\", \"event_payload\", \"event_ser_id\", "
                                + "\"event_ser_manifest\") VALUES ('a', "
                                + seq
                                + ", 'w', 0, '', X'00', 1, 'm')");
            }
        }
        assertEquals(2, highest("a")); // readers find them after the mark
        writer = newWriter(this::connect, 2);
        assertThrows(
                SQLIntegrityConstraintViolationException.class,
                () -> await(writer.write(List.of(row("a", 2)))));
        await(writer.write(List.of(row("b", 1))));
        assertEquals(List.of("a#1", "a#2", "b#1"), indexEntries());
        assertEquals(orderings().get("b#1"), mark());
    }

    @Test
    void stoppingIndexesWhatIsLeft() throws Exception {
        await(writer.write(List.of(row("a", 1))));
        assertEquals(List.of(), indexEntries());
        writer.stop();
        assertTrue(writer.awaitStopped(10_000));
        assertEquals(List.of("a#1"), indexEntries());
        assertEquals(orderings().get("a#1"), mark());
    }
}
