package io.kubepekko.persistence;

import com.typesafe.config.ConfigFactory;
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

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The journal's writer against an H2 file database with the embedded profile's tables. */
class JournalBatchWriterTest {
    private static final Duration WAIT = Duration.create(10, TimeUnit.SECONDS);

    @TempDir
    Path dir;
    private String url;
    private JournalBatchWriter writer;

    @BeforeEach
    void createTables() throws Exception {
        url = "jdbc:h2:file:" + dir.resolve("db") + ";DATABASE_TO_UPPER=false;WRITE_DELAY=0";
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String statement : EmbeddedSchema.script().split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
        }
        JournalConfig config = new JournalConfig(ConfigFactory.load().getConfig("jdbc-journal"));
        writer = new JournalBatchWriter(this::connect, JournalInserts.of(config), 400);
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
        return new JournalBatchWriter.Row(new JournalPekkoSerializationRow(Long.MIN_VALUE, false, pid, seq, "writer-1",
                1_700_000_000_000L + seq, "", payload, 33, "manifest", Option.empty(), Option.empty(), Option.empty()),
                List.of(tags));
    }

    private static void await(Future<BoxedUnit> f) throws Exception {
        Await.result(f, WAIT);
    }

    /** persistence_id#sequence_number → ordering, and each tag's event ids in order. */
    private Map<String, Long> orderings() throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT \"persistence_id\", \"sequence_number\", \"ordering\" FROM \"event_journal\"")) {
            while (r.next()) {
                out.put(r.getString(1) + "#" + r.getLong(2), r.getLong(3));
            }
        }
        return out;
    }

    private List<String> tagged(String tag) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT j.\"persistence_id\", j.\"sequence_number\" FROM \"event_tag\" t "
                     + "JOIN \"event_journal\" j ON j.\"ordering\" = t.\"event_id\" WHERE t.\"tag\" = '" + tag
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
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT * FROM \"event_journal\" WHERE \"sequence_number\" = 2")) {
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
        List<Future<BoxedUnit>> futures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int w = 0; w < writers; w++) {
            String pid = "pid-" + w;
            Thread t = new Thread(() -> {
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
                assertTrue(orderings.get("pid-" + w + "#" + seq) > orderings.get("pid-" + w + "#" + (seq - 1)));
            }
        }
        assertEquals(writers * perWriter, tagged("t").size());
    }

    @Test
    void aFailedWriteLeavesNoneOfItsRowsAndTheNextWriteSucceeds() throws Exception {
        await(writer.write(List.of(row("a", 1, "t"))));
        // (a, 1) exists: the unique index refuses the whole write, including (a, 2) before it.
        Future<BoxedUnit> failed = writer.write(List.of(row("a", 2, "t"), row("a", 1, "t")));
        Exception e = assertThrows(Exception.class, () -> await(failed));
        assertTrue(e instanceof SQLException, e.toString());
        await(writer.write(List.of(row("a", 2, "t"), row("b", 1, "t"))));
        assertEquals(List.of("a#1", "a#2", "b#1"), new ArrayList<>(orderings().keySet()));
        assertEquals(List.of("a#1", "a#2", "b#1"), tagged("t"));
    }

    @Test
    void aWriteThatCannotConnectFailsAndALaterOneConnects() throws Exception {
        writer.stop();
        boolean[] down = {true};
        JournalConfig config = new JournalConfig(ConfigFactory.load().getConfig("jdbc-journal"));
        writer = new JournalBatchWriter(() -> {
            if (down[0]) {
                throw new SQLException("database unreachable");
            }
            return connect();
        }, JournalInserts.of(config), 400);
        Exception e = assertThrows(Exception.class, () -> await(writer.write(List.of(row("a", 1)))));
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
}
