package io.kubepekko.persistence;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.persistence.cassandra.query.javadsl.CassandraReadJournal;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Reads what the journal holds, for resuming watches from before the watch caches' memory. Two
 * questions: where the journal is now (so a later read by tag can start there instead of at the
 * beginning), and the events of a tag from such a position on, as stored now (a finite stream).
 */
public interface JournalReader {

    /**
     * A position such that every event persisted after this call is read by {@link #eventsByTag}
     * from it.
     */
    CompletionStage<Offset> position();

    /** The events tagged {@code tag} after {@code from}, as the journal holds them now. */
    Source<EventEnvelope, NotUsed> eventsByTag(String tag, Offset from);

    /**
     * The embedded profile: pekko-persistence-jdbc's read journal, positions from H2's ordering
     * column.
     */
    static JournalReader embedded(ActorSystem<?> system, Config config) {
        JdbcReadJournal journal =
                PersistenceQuery.get(system)
                        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
        String url = config.getString("kubepekko.storage.embedded.url");
        // The query blocks on JDBC: never on a Pekko dispatcher that runs actors.
        Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
        return new JournalReader() {
            @Override
            public CompletionStage<Offset> position() {
                return CompletableFuture.supplyAsync(
                        () -> {
                            try (Connection c = DriverManager.getConnection(url, "sa", "");
                                    Statement s = c.createStatement();
                                    ResultSet r =
                                            s.executeQuery(
                                                    "SELECT MAX(\"ordering\") FROM PUBLIC.\"event_journal\"")) {
                                return Offset.sequence(r.next() ? r.getLong(1) : 0);
                            } catch (Exception e) {
                                throw new CompletionException(e);
                            }
                        },
                        blocking);
            }

            @Override
            public Source<EventEnvelope, NotUsed> eventsByTag(String tag, Offset from) {
                return journal.currentEventsByTag(tag, from);
            }
        };
    }

    /**
     * The cassandra profile: pekko-persistence-cassandra's read journal, whose offsets are
     * time-based UUIDs from the writers' clocks. A position is "now" less a margin for clock
     * differences between writers; reading from it may repeat earlier events, which callers filter
     * by resourceVersion.
     */
    static JournalReader cassandra(ActorSystem<?> system, Config config) {
        CassandraReadJournal journal =
                PersistenceQuery.get(system)
                        .getReadJournalFor(
                                CassandraReadJournal.class, CassandraReadJournal.Identifier());
        Duration margin = config.getDuration("kubepekko.storage.cassandra.position-margin");
        return new JournalReader() {
            @Override
            public CompletionStage<Offset> position() {
                return CompletableFuture.completedFuture(
                        journal.timeBasedUUIDFrom(System.currentTimeMillis() - margin.toMillis()));
            }

            @Override
            public Source<EventEnvelope, NotUsed> eventsByTag(String tag, Offset from) {
                return journal.currentEventsByTag(tag, from);
            }
        };
    }
}
