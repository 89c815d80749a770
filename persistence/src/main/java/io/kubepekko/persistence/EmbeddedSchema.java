package io.kubepekko.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;

/**
 * Creates the journal and snapshot tables of the embedded profile if they do not exist
 * (idempotent). The tables are our own definition ({@code embedded-schema.sql}) rather than the
 * plugin's stock H2 script: the same columns, shaped for H2, which rewrites every index a commit
 * touches:
 *
 * <ul>
 *   <li>{@code ordering} is the journal's primary key, so rows are stored by it and H2 needs no
 *       hidden row id. The journal has no index by {@code (persistence_id, sequence_number)}: that
 *       lookup goes through {@code event_journal_by_pid}, filled in bulk by the writer (see {@link
 *       PidIndex}), and the writer keeps each persistence id's sequence numbers unique. A database
 *       of an earlier version gets its rows copied into that table and its old index dropped, once
 *       (the copy is skipped when the mark table has its row, and repeats harmlessly if a start
 *       died before writing it). The copy is skipped through a bound on the journal's key (below 1
 *       once marked), not a condition H2 checks row by row: that read every event of the journal at
 *       every start (5 s for 100,000 pods).
 *   <li>Its counter is recorded durably once per 1000 numbers instead of H2's default 32 (each
 *       record is a whole extra store commit). A crash skips at most that many; the journal's
 *       readers tolerate gaps in the ordering. The {@code ALTER} also applies this to tables made
 *       by earlier versions.
 *   <li>{@code event_tag} is keyed by {@code (tag, event_id)}, the order events are read by tag.
 *       Events are never deleted, so it needs no foreign key back to the journal.
 * </ul>
 *
 * The script holds no comments: the plugin runs it statement by statement with its lines joined.
 */
public final class EmbeddedSchema {
    private EmbeddedSchema() {}

    static final String SCRIPT = "embedded-schema.sql";

    public static CompletionStage<?> createIfNotExists(ActorSystem<?> system) {
        return SchemaUtils.applyScript(script(), system);
    }

    static String script() {
        try (InputStream in = EmbeddedSchema.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException(SCRIPT + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
