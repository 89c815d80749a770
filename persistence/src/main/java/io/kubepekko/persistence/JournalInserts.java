package io.kubepekko.persistence;

import org.apache.pekko.persistence.jdbc.config.EventJournalTableColumnNames;
import org.apache.pekko.persistence.jdbc.config.EventJournalTableConfiguration;
import org.apache.pekko.persistence.jdbc.config.EventTagTableConfiguration;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import scala.Option;

/**
 * The two statements a journal write runs, with the table and column names the plugin is configured
 * with (quoted, as Slick's H2 profile quotes them).
 *
 * @param event inserts one journal row; its parameters in {@link JournalBatchWriter}'s order
 * @param orderingColumn the generated key of a journal row, which a tag row points at
 * @param tag inserts one tag row: event id, tag
 */
record JournalInserts(String event, String orderingColumn, String tag) {

    static JournalInserts of(JournalConfig config) {
        EventJournalTableConfiguration journal = config.eventJournalTableConfiguration();
        EventJournalTableColumnNames c = journal.columnNames();
        String event =
                "INSERT INTO "
                        + table(journal.schemaName(), journal.tableName())
                        + " ("
                        + String.join(
                                ", ",
                                q(c.deleted()),
                                q(c.persistenceId()),
                                q(c.sequenceNumber()),
                                q(c.writer()),
                                q(c.writeTimestamp()),
                                q(c.adapterManifest()),
                                q(c.eventPayload()),
                                q(c.eventSerId()),
                                q(c.eventSerManifest()),
                                q(c.metaPayload()),
                                q(c.metaSerId()),
                                q(c.metaSerManifest()))
                        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        EventTagTableConfiguration tags = config.eventTagTableConfiguration();
        String tag =
                "INSERT INTO "
                        + table(tags.schemaName(), tags.tableName())
                        + " ("
                        + q(tags.columnNames().eventId())
                        + ", "
                        + q(tags.columnNames().tag())
                        + ") VALUES (?, ?)";
        return new JournalInserts(event, c.ordering(), tag);
    }

    /** Quotes an SQL identifier as Slick's H2 profile does. */
    static String q(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private static String table(Option<String> schema, String name) {
        return (schema.isDefined() ? q(schema.get()) + "." : "") + q(name);
    }
}
