package io.kubepekko.persistence;

import static io.kubepekko.persistence.JournalInserts.q;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.persistence.jdbc.config.EventJournalTableColumnNames;
import org.apache.pekko.persistence.jdbc.config.EventJournalTableConfiguration;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import scala.Option;

/**
 * The embedded journal's index by persistence id, kept in its own table and filled in bulk.
 *
 * <p>Why not an index on the journal table: H2 rewrites every B-tree page a commit touches. Writes
 * from many collections land in as many places of a {@code (persistence_id, sequence_number)}
 * index, so each commit rewrote dozens of index pages (and their parents) for a few rows each: at
 * 64 concurrent creates over 100 namespaces that index was half the journal writer's CPU. Here the
 * writer appends rows to the journal only (keyed by {@code ordering}, so always the same page) and
 * adds their index entries every few thousand rows in one sorted insert, which rewrites each
 * touched page once for many entries.
 *
 * <p>The rows not yet indexed are exactly those with {@code ordering} above the mark table's one
 * value, moved forward in the same transaction that adds their entries. A reader asks for the
 * indexed rows and for the unindexed tail in one statement, so it sees one snapshot of both and no
 * row twice or never.
 *
 * <p>The uniqueness of {@code (persistence_id, sequence_number)}, which a unique index gave at
 * write time, is checked by {@link JournalBatchWriter} (the only writer of an embedded journal)
 * before it inserts; the index table's primary key is the second line.
 */
record PidIndex(
        String journal,
        String entries,
        String mark,
        String ordering,
        String persistenceId,
        String sequenceNumber,
        String deleted,
        String payload,
        String columns) {

    /** Entries: persistence id, sequence number, ordering. */
    static final String ENTRIES_SUFFIX = "_by_pid";

    /** One row, id 1: every journal row with an ordering up to this one has its entry. */
    static final String MARK_SUFFIX = "_by_pid_mark";

    static PidIndex of(JournalConfig config) {
        EventJournalTableConfiguration t = config.eventJournalTableConfiguration();
        EventJournalTableColumnNames c = t.columnNames();
        String prefix = t.schemaName().isDefined() ? q(t.schemaName().get()) + "." : "";
        String columns =
                String.join(
                        ", ",
                        "j." + q(c.ordering()),
                        "j." + q(c.deleted()),
                        "j." + q(c.persistenceId()),
                        "j." + q(c.sequenceNumber()),
                        "j." + q(c.writer()),
                        "j." + q(c.writeTimestamp()),
                        "j." + q(c.adapterManifest()),
                        "j." + q(c.eventPayload()),
                        "j." + q(c.eventSerId()),
                        "j." + q(c.eventSerManifest()),
                        "j." + q(c.metaPayload()),
                        "j." + q(c.metaSerId()),
                        "j." + q(c.metaSerManifest()));
        return new PidIndex(
                prefix + q(t.tableName()),
                prefix + q(t.tableName() + ENTRIES_SUFFIX),
                prefix + q(t.tableName() + MARK_SUFFIX),
                q(c.ordering()),
                q(c.persistenceId()),
                q(c.sequenceNumber()),
                q(c.deleted()),
                q(c.eventPayload()),
                columns);
    }

    /** Adds one entry: persistence id, sequence number, ordering. */
    String insertEntry() {
        return "INSERT INTO "
                + entries
                + " ("
                + persistenceId
                + ", "
                + sequenceNumber
                + ", "
                + ordering
                + ") VALUES (?, ?, ?)";
    }

    String updateMark() {
        return "UPDATE " + mark + " SET " + ordering + " = ? WHERE \"id\" = 1";
    }

    /**
     * The mark now; 0 when the table has no row (it always has one once the schema is prepared).
     */
    long readMark(Connection c) throws SQLException {
        try (PreparedStatement s =
                        c.prepareStatement(
                                "SELECT " + ordering + " FROM " + mark + " WHERE \"id\" = 1");
                ResultSet r = s.executeQuery()) {
            return r.next() ? r.getLong(1) : 0;
        }
    }

    /**
     * One journal row's key: persistence id, sequence number and where it is stored; and its
     * payload's length (how much a scan of the unindexed rows reads for it).
     */
    record Entry(String persistenceId, long sequenceNumber, long ordering, long payloadBytes) {}

    /** The rows after {@code mark}, in ordering order: those the index does not cover yet. */
    List<Entry> unindexed(Connection c, long mark) throws SQLException {
        List<Entry> out = new ArrayList<>();
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT "
                                + persistenceId
                                + ", "
                                + sequenceNumber
                                + ", "
                                + ordering
                                + ", OCTET_LENGTH("
                                + payload
                                + ") FROM "
                                + journal
                                + " WHERE "
                                + ordering
                                + " > ? ORDER BY "
                                + ordering)) {
            s.setLong(1, mark);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(new Entry(r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4)));
                }
            }
        }
        return out;
    }

    /** The highest sequence number the index has for a persistence id, or 0. */
    long highestIndexed(Connection c, String pid) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT MAX("
                                + sequenceNumber
                                + ") FROM "
                                + entries
                                + " WHERE "
                                + persistenceId
                                + " = ?")) {
            s.setString(1, pid);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getLong(1) : 0;
            }
        }
    }

    /**
     * The highest sequence number stored for a persistence id, indexed or not, or 0 (deleted rows
     * count, as they do for the plugin's own query).
     */
    long highestSequenceNumber(Connection c, String pid) throws SQLException {
        String sql =
                "SELECT MAX(s) FROM ("
                        + "SELECT MAX(i."
                        + sequenceNumber
                        + ") s FROM "
                        + entries
                        + " i WHERE i."
                        + persistenceId
                        + " = ?"
                        + " UNION ALL SELECT MAX(j."
                        + sequenceNumber
                        + ") s FROM "
                        + journal
                        + " j WHERE j."
                        + ordering
                        + " > (SELECT m."
                        + ordering
                        + " FROM "
                        + mark
                        + " m WHERE m.\"id\" = 1) AND j."
                        + persistenceId
                        + " = ?) t";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, pid);
            s.setString(2, pid);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getLong(1) : 0;
            }
        }
    }

    /**
     * Where a replay page that starts at {@code from} ends: the highest sequence number such that
     * the rows (not deleted) in {@code [from, end]} hold at most {@code maxBytes} of payload, or
     * the first row's number when that one alone holds more. Only numbers up to {@code min(to, from
     * + window - 1)} are looked at; when none is stored there, that bound. Reads the rows' lengths,
     * not their payloads.
     *
     * <p>Why two queries per page: H2 sorts the union of indexed and unindexed rows in memory
     * before applying a {@code LIMIT}, payloads included, so a page bounded by a row count alone
     * held up to that many events of whatever size (400 events of 1 MB objects: more than a 512 MiB
     * heap).
     */
    long pageEnd(Connection c, String pid, long from, long to, int window, long maxBytes)
            throws SQLException {
        long last =
                window <= 0 || Long.MAX_VALUE - window < from
                        ? to
                        : Math.min(to, from + window - 1);
        String range = " BETWEEN ? AND ?";
        String sql =
                "SELECT s, n FROM ("
                        + "SELECT j."
                        + sequenceNumber
                        + " s, OCTET_LENGTH(j."
                        + payload
                        + ") n FROM "
                        + entries
                        + " i JOIN "
                        + journal
                        + " j ON j."
                        + ordering
                        + " = i."
                        + ordering
                        + " WHERE i."
                        + persistenceId
                        + " = ? AND i."
                        + sequenceNumber
                        + range
                        + " AND j."
                        + deleted
                        + " = FALSE"
                        + " UNION ALL SELECT j."
                        + sequenceNumber
                        + " s, OCTET_LENGTH(j."
                        + payload
                        + ") n FROM "
                        + journal
                        + " j WHERE j."
                        + ordering
                        + " > (SELECT m."
                        + ordering
                        + " FROM "
                        + mark
                        + " m WHERE m.\"id\" = 1)"
                        + " AND j."
                        + persistenceId
                        + " = ? AND j."
                        + sequenceNumber
                        + range
                        + " AND j."
                        + deleted
                        + " = FALSE) t ORDER BY s";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, pid);
            s.setLong(2, from);
            s.setLong(3, last);
            s.setString(4, pid);
            s.setLong(5, from);
            s.setLong(6, last);
            long bytes = 0;
            long end = -1;
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    bytes += r.getLong(2);
                    if (end >= 0 && bytes > maxBytes) {
                        return end;
                    }
                    end = r.getLong(1);
                }
            }
            return last;
        }
    }

    /**
     * A persistence id's rows that are not deleted, with sequence numbers in {@code [from, to]}, in
     * sequence order, at most {@code max}: what the plugin's replay query returns.
     */
    List<JournalPekkoSerializationRow> messages(
            Connection c, String pid, long from, long to, long max) throws SQLException {
        String range = " BETWEEN ? AND ?";
        String sql =
                "SELECT * FROM ("
                        + "SELECT "
                        + columns
                        + " FROM "
                        + entries
                        + " i JOIN "
                        + journal
                        + " j ON j."
                        + ordering
                        + " = i."
                        + ordering
                        + " WHERE i."
                        + persistenceId
                        + " = ? AND i."
                        + sequenceNumber
                        + range
                        + " AND j."
                        + deleted
                        + " = FALSE"
                        + " UNION ALL SELECT "
                        + columns
                        + " FROM "
                        + journal
                        + " j WHERE j."
                        + ordering
                        + " > (SELECT m."
                        + ordering
                        + " FROM "
                        + mark
                        + " m WHERE m.\"id\" = 1) AND j."
                        + persistenceId
                        + " = ? AND j."
                        + sequenceNumber
                        + range
                        + " AND j."
                        + deleted
                        + " = FALSE"
                        + ") t ORDER BY "
                        + sequenceNumber
                        + " LIMIT ?";
        List<JournalPekkoSerializationRow> out = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, pid);
            s.setLong(2, from);
            s.setLong(3, to);
            s.setString(4, pid);
            s.setLong(5, from);
            s.setLong(6, to);
            s.setLong(7, Math.min(max, Integer.MAX_VALUE));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    out.add(row(r));
                }
            }
        }
        return out;
    }

    private static JournalPekkoSerializationRow row(ResultSet r) throws SQLException {
        byte[] metaPayload = r.getBytes(11);
        int metaSerId = r.getInt(12);
        Option<Object> metaSerIdOption = r.wasNull() ? Option.empty() : Option.apply(metaSerId);
        return new JournalPekkoSerializationRow(
                r.getLong(1),
                r.getBoolean(2),
                r.getString(3),
                r.getLong(4),
                r.getString(5),
                r.getLong(6),
                r.getString(7),
                r.getBytes(8),
                r.getInt(9),
                r.getString(10),
                Option.apply(metaPayload),
                metaSerIdOption,
                Option.apply(r.getString(13)));
    }
}
