package io.kubepekko.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import scala.concurrent.Future;
import scala.concurrent.Promise;
import scala.runtime.BoxedUnit;

/**
 * One thread that writes journal rows over one JDBC connection: it takes the first queued write,
 * adds every write queued behind it (up to {@code maxRows} rows), and inserts and commits them as
 * one transaction, so concurrent writes from many entities share a commit. A failed transaction
 * fails each of its writes and is rolled back whole; the next one starts on a fresh connection.
 *
 * <p>Writes are committed in the order they were queued, and one at a time, so the journal's
 * ordering column grows in commit order (what the read journal's by-tag queries rely on).
 *
 * <p>It also keeps the journal's {@link PidIndex}: once {@code indexEvery} rows, or rows holding
 * {@code indexEveryBytes} of payload, are unindexed it adds their entries and moves the mark in the
 * transaction of the next write. (Every read by persistence id scans the unindexed rows, payloads
 * included: 300 unindexed events of 1 MB objects made each of a restart's recoveries read 300 MB.)
 * And it enforces what the journal's unique index used to: each persistence id's sequence numbers
 * grow. A write that would repeat or go below one fails alone (an {@link
 * SQLIntegrityConstraintViolationException}), before anything is inserted; the others in its batch
 * are committed.
 */
final class JournalBatchWriter {

    /** One journal row and its tags. */
    record Row(JournalPekkoSerializationRow row, List<String> tags) {}

    /** Opens a connection to the journal's database. */
    @FunctionalInterface
    interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private record Write(List<Row> rows, Promise<BoxedUnit> done) {}

    private static final Write STOP = new Write(List.of(), null);

    private final LinkedBlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private final ConnectionSource connections;
    private final JournalInserts inserts;
    private final PidIndex index;
    private final int maxRows;
    private final int indexEvery;
    private final long indexEveryBytes;
    private final Thread thread;

    private boolean stopped; // guarded by this: no write is queued behind STOP
    private Connection connection;
    private PreparedStatement insertEvent;
    private PreparedStatement insertTag;
    private PreparedStatement insertEntry;
    private PreparedStatement updateMark;

    /**
     * Committed rows without an index entry yet, in ordering order; reloaded with each connection.
     */
    private final List<PidIndex.Entry> unindexed = new ArrayList<>();

    /** The payload bytes of {@link #unindexed}. */
    private long unindexedBytes;

    /**
     * The highest sequence number committed per persistence id, for those looked up since
     * connecting.
     */
    private final Map<String, Long> highest = new HashMap<>();

    JournalBatchWriter(
            ConnectionSource connections,
            JournalInserts inserts,
            PidIndex index,
            int maxRows,
            int indexEvery) {
        this(connections, inserts, index, maxRows, indexEvery, Long.MAX_VALUE);
    }

    JournalBatchWriter(
            ConnectionSource connections,
            JournalInserts inserts,
            PidIndex index,
            int maxRows,
            int indexEvery,
            long indexEveryBytes) {
        this.connections = connections;
        this.inserts = inserts;
        this.index = index;
        this.maxRows = Math.max(1, maxRows);
        this.indexEvery = Math.max(1, indexEvery);
        this.indexEveryBytes = Math.max(1, indexEveryBytes);
        this.thread = new Thread(this::run, "kubepekko-journal-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues rows to be written atomically; the future completes once they are committed. */
    Future<BoxedUnit> write(List<Row> rows) {
        Promise<BoxedUnit> done = Promise.apply();
        synchronized (this) {
            if (!stopped) {
                queue.add(new Write(rows, done));
                return done.future();
            }
        }
        return done.failure(new IllegalStateException("the journal writer has stopped")).future();
    }

    /**
     * Ends the thread after the writes queued so far. Not by interrupting it: an interrupt during
     * file I/O closes H2's file channel.
     */
    synchronized void stop() {
        if (!stopped) {
            stopped = true;
            queue.add(STOP);
        }
    }

    /** Waits up to {@code millis} for the thread to end after {@link #stop()}; whether it did. */
    boolean awaitStopped(long millis) throws InterruptedException {
        thread.join(millis);
        return !thread.isAlive();
    }

    private void run() {
        List<Write> batch = new ArrayList<>();
        boolean stopping = false;
        while (!stopping) {
            Write first = take();
            if (first == STOP) {
                break;
            }
            batch.add(first);
            int rows = first.rows().size();
            Write next;
            while (rows < maxRows
                    && (next = queue.peek()) != null
                    && rows + next.rows().size() <= maxRows) {
                queue.poll();
                if (next == STOP) {
                    stopping = true;
                    break;
                }
                batch.add(next);
                rows += next.rows().size();
            }
            commit(batch);
            batch.clear();
        }
        indexBeforeStopping();
        closeConnection();
    }

    /**
     * So that a clean restart finds nothing unindexed; after a crash the next writer indexes the
     * rest.
     */
    private void indexBeforeStopping() {
        if (connection == null || unindexed.isEmpty()) {
            return;
        }
        try {
            addEntries();
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            // left for the next writer, which reloads the rows after the mark
        }
    }

    private Write take() {
        while (true) {
            try {
                return queue.take();
            } catch (InterruptedException e) {
                // Only stop() ends this thread.
            }
        }
    }

    private void commit(List<Write> batch) {
        List<Write> accepted = new ArrayList<>(batch.size());
        Map<String, Long> raised = new HashMap<>();
        try {
            open();
            for (Write w : batch) {
                SQLException refused = checkSequence(w, raised);
                if (refused == null) {
                    accepted.add(w);
                } else {
                    w.done().failure(refused);
                }
            }
            if (!accepted.isEmpty()) {
                insert(accepted);
            }
        } catch (Exception | LinkageError e) {
            closeConnection();
            // every write not refused above: those accepted and those not yet checked
            batch.forEach(w -> w.done().tryFailure(e));
            return;
        }
        highest.putAll(raised);
        accepted.forEach(w -> w.done().success(BoxedUnit.UNIT));
    }

    /**
     * Refuses a write that would not raise its persistence ids' sequence numbers, given what is
     * committed and what the writes before it in this batch ({@code raised}) add; otherwise records
     * it.
     */
    private SQLException checkSequence(Write w, Map<String, Long> raised) throws SQLException {
        Map<String, Long> mine = new HashMap<>();
        for (Row r : w.rows()) {
            String pid = r.row().persistenceId();
            long seq = r.row().sequenceNumber();
            Long before = mine.get(pid);
            if (before == null) {
                before = raised.get(pid);
            }
            if (before == null) {
                before = highest(pid);
            }
            if (seq <= before) {
                return new SQLIntegrityConstraintViolationException(
                        "persistence id "
                                + pid
                                + " already has sequence number "
                                + before
                                + "; refusing "
                                + seq
                                + " (a second writer for the same persistence id?)",
                        "23505");
            }
            mine.put(pid, seq);
        }
        raised.putAll(mine);
        return null;
    }

    private long highest(String pid) throws SQLException {
        Long known = highest.get(pid);
        if (known == null) {
            // The rows after the mark are all in the map (loaded on connecting), so the index has
            // the rest.
            known = index.highestIndexed(connection, pid);
            highest.put(pid, known);
        }
        return known;
    }

    private void open() throws SQLException {
        if (connection != null) {
            return;
        }
        connection = connections.open();
        try {
            connection.setAutoCommit(false);
            insertEvent =
                    connection.prepareStatement(
                            inserts.event(), new String[] {inserts.orderingColumn()});
            insertTag = connection.prepareStatement(inserts.tag());
            insertEntry = connection.prepareStatement(index.insertEntry());
            updateMark = connection.prepareStatement(index.updateMark());
            // What a failed transaction or an earlier process left unindexed; the database is the
            // truth.
            unindexed.clear();
            unindexedBytes = 0;
            highest.clear();
            unindexed.addAll(index.unindexed(connection, index.readMark(connection)));
            for (PidIndex.Entry e : unindexed) {
                highest.merge(e.persistenceId(), e.sequenceNumber(), Math::max);
                unindexedBytes += e.payloadBytes();
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            closeConnection();
            throw e;
        }
    }

    /**
     * Adds the unindexed rows' entries, sorted so each index page is touched once, and moves the
     * mark.
     */
    private void addEntries() throws SQLException {
        List<PidIndex.Entry> sorted = new ArrayList<>(unindexed);
        sorted.sort(BY_KEY);
        long mark = 0;
        for (PidIndex.Entry e : sorted) {
            insertEntry.setString(1, e.persistenceId());
            insertEntry.setLong(2, e.sequenceNumber());
            insertEntry.setLong(3, e.ordering());
            insertEntry.addBatch();
            mark = Math.max(mark, e.ordering());
        }
        insertEntry.executeBatch();
        updateMark.setLong(1, mark);
        updateMark.executeUpdate();
        unindexed.clear();
        unindexedBytes = 0;
    }

    private static final Comparator<PidIndex.Entry> BY_KEY =
            Comparator.comparing(PidIndex.Entry::persistenceId)
                    .thenComparingLong(PidIndex.Entry::sequenceNumber);

    private void insert(List<Write> batch) throws SQLException {
        try {
            List<Row> rows = new ArrayList<>();
            for (Write w : batch) {
                for (Row r : w.rows()) {
                    bind(insertEvent, r.row());
                    insertEvent.addBatch();
                    rows.add(r);
                }
            }
            insertEvent.executeBatch();
            int tagged = 0;
            try (ResultSet keys = insertEvent.getGeneratedKeys()) {
                for (Row r : rows) {
                    if (!keys.next()) {
                        throw new SQLException(
                                "the database returned fewer generated keys than rows inserted");
                    }
                    long ordering = keys.getLong(1);
                    unindexed.add(
                            new PidIndex.Entry(
                                    r.row().persistenceId(),
                                    r.row().sequenceNumber(),
                                    ordering,
                                    r.row().eventPayload().length));
                    unindexedBytes += r.row().eventPayload().length;
                    for (String tag : r.tags()) {
                        insertTag.setLong(1, ordering);
                        insertTag.setString(2, tag);
                        insertTag.addBatch();
                        tagged++;
                    }
                }
            }
            if (tagged > 0) {
                insertTag.executeBatch();
            }
            if (unindexed.size() >= indexEvery || unindexedBytes >= indexEveryBytes) {
                addEntries();
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static void bind(PreparedStatement s, JournalPekkoSerializationRow r)
            throws SQLException {
        s.setBoolean(1, r.deleted());
        s.setString(2, r.persistenceId());
        s.setLong(3, r.sequenceNumber());
        s.setString(4, r.writer());
        s.setLong(5, r.writeTimestamp());
        s.setString(6, r.adapterManifest());
        s.setBytes(7, r.eventPayload());
        s.setInt(8, r.eventSerId());
        s.setString(9, r.eventSerManifest());
        if (r.metaPayload().isDefined()) {
            s.setBytes(10, r.metaPayload().get());
        } else {
            s.setNull(10, Types.BLOB);
        }
        if (r.metaSerId().isDefined()) {
            s.setInt(11, ((Number) r.metaSerId().get()).intValue());
        } else {
            s.setNull(11, Types.INTEGER);
        }
        if (r.metaSerManifest().isDefined()) {
            s.setString(12, r.metaSerManifest().get());
        } else {
            s.setNull(12, Types.VARCHAR);
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close(); // closes its statements too
            } catch (SQLException | RuntimeException ignored) {
                // a broken connection: the next write opens another. RuntimeException: Hikari's
                // close of a
                // connection whose pool was shut down under it throws a NullPointerException.
            }
            connection = null;
            insertEvent = null;
            insertTag = null;
            insertEntry = null;
            updateMark = null;
            // unindexed and highest may hold rows of the failed transaction: reloaded on connecting
            unindexed.clear();
            unindexedBytes = 0;
            highest.clear();
        }
    }
}
