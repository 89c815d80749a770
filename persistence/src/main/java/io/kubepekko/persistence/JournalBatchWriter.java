package io.kubepekko.persistence;

import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import scala.concurrent.Future;
import scala.concurrent.Promise;
import scala.runtime.BoxedUnit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One thread that writes journal rows over one JDBC connection: it takes the first queued write, adds
 * every write queued behind it (up to {@code maxRows} rows), and inserts and commits them as one
 * transaction, so concurrent writes from many entities share a commit. A failed transaction fails
 * each of its writes and is rolled back whole; the next one starts on a fresh connection.
 *
 * <p>Writes are committed in the order they were queued, and one at a time, so the journal's ordering
 * column grows in commit order (what the read journal's by-tag queries rely on).
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
    private final int maxRows;
    private final Thread thread;

    private boolean stopped; // guarded by this: no write is queued behind STOP
    private Connection connection;
    private PreparedStatement insertEvent;
    private PreparedStatement insertTag;

    JournalBatchWriter(ConnectionSource connections, JournalInserts inserts, int maxRows) {
        this.connections = connections;
        this.inserts = inserts;
        this.maxRows = Math.max(1, maxRows);
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
     * Ends the thread after the writes queued so far. Not by interrupting it: an interrupt during file
     * I/O closes H2's file channel.
     */
    synchronized void stop() {
        if (!stopped) {
            stopped = true;
            queue.add(STOP);
        }
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
            while (rows < maxRows && (next = queue.peek()) != null && rows + next.rows().size() <= maxRows) {
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
        closeConnection();
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
        try {
            insert(batch);
        } catch (Exception | LinkageError e) {
            closeConnection();
            batch.forEach(w -> w.done().failure(e));
            return;
        }
        batch.forEach(w -> w.done().success(BoxedUnit.UNIT));
    }

    private void insert(List<Write> batch) throws SQLException {
        if (connection == null) {
            connection = connections.open();
            connection.setAutoCommit(false);
            insertEvent = connection.prepareStatement(inserts.event(), new String[] {inserts.orderingColumn()});
            insertTag = connection.prepareStatement(inserts.tag());
        }
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
                        throw new SQLException("the database returned fewer generated keys than rows inserted");
                    }
                    long ordering = keys.getLong(1);
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

    private static void bind(PreparedStatement s, JournalPekkoSerializationRow r) throws SQLException {
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
            } catch (SQLException ignored) {
                // a broken connection: the next write opens another
            }
            connection = null;
            insertEvent = null;
            insertTag = null;
        }
    }
}
