package io.kubepekko.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.persistence.PersistentRepr;
import org.apache.pekko.persistence.jdbc.PekkoSerialization$;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.DefaultJournalDao;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.scaladsl.Source;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.collection.immutable.Set;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.concurrent.duration.FiniteDuration;
import scala.jdk.javaapi.CollectionConverters;
import scala.jdk.javaapi.FutureConverters;
import scala.runtime.BoxedUnit;
import scala.util.Try;
import slick.dbio.DBIOAction;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;
import slick.jdbc.SimpleJdbcAction;

/**
 * pekko-persistence-jdbc's journal DAO with a shorter write path, for the embedded profile (set as
 * {@code jdbc-journal.dao}). Everything but the write is the plugin's own: serialization, the rows
 * and tables, replay, deletes and the read journal.
 *
 * <p>Why: the plugin hands each write from the journal actor to a stream, then to Slick's thread
 * pool, and runs its completion through several futures, each a hop to another thread. On a small
 * machine a hop that must wake a parked thread costs tens of microseconds, and a create waited
 * about 1.2 ms for a journal write whose SQL takes 0.2 ms. Here a write is queued to one {@link
 * JournalBatchWriter} thread that drains what has queued and commits it as one transaction, as the
 * plugin's stream batches did; the DAO's own completion steps run on that thread ({@code
 * parasitic}) instead of being dispatched again.
 *
 * <p>Reads by persistence id (replay, highest sequence number) go through {@link PidIndex}, the
 * journal's bulk-filled index, which the writer maintains in place of a unique index on the journal
 * table.
 */
public class DirectWriteJournalDao extends DefaultJournalDao {
    /**
     * Config key: rows written between two bulk additions to the persistence-id index (see {@link
     * PidIndex}).
     */
    static final String INDEX_EVERY = "kubepekko.storage.embedded.journal-index-every";

    /**
     * Config key: payload bytes written between two bulk additions to the persistence-id index, at
     * most.
     */
    static final String INDEX_EVERY_BYTES = "kubepekko.storage.embedded.journal-index-every-bytes";

    /**
     * Config key: about how many bytes of events one page of a replay reads (see {@link
     * #messagesWithBatch}).
     */
    static final String REPLAY_PAGE_BYTES = "kubepekko.storage.embedded.replay-page-bytes";

    /**
     * How long the shutdown waits for the writer's last commit (its queue is empty by then: nothing
     * writes).
     */
    private static final long STOP_WAIT_MILLIS = 10_000;

    private final JournalBatchWriter writer;
    private final PidIndex index;
    private final JdbcBackend.JdbcDatabaseDef database;
    private final Serialization serialization;
    private final long replayPageBytes;

    /** The signature pekko-persistence-jdbc instantiates a configured DAO with. */
    public DirectWriteJournalDao(
            JdbcBackend.JdbcDatabaseDef db,
            JdbcProfile profile,
            JournalConfig config,
            Serialization serialization,
            ExecutionContext ec,
            Materializer mat) {
        super(db, profile, config, serialization, ExecutionContext.parasitic$.MODULE$, mat);
        this.index = PidIndex.of(config);
        this.database = db;
        this.serialization = serialization;
        this.writer =
                new JournalBatchWriter(
                        db.source()::createConnection,
                        JournalInserts.of(config),
                        index,
                        config.daoConfig().batchSize(),
                        mat.system().settings().config().getInt(INDEX_EVERY),
                        mat.system().settings().config().getBytes(INDEX_EVERY_BYTES));
        // The plugin closes the connection pool when its journal actor stops, as the actor system
        // terminates:
        // the writer must have finished with its connection before then, or closing it fails on a
        // closed pool.
        CoordinatedShutdown.get(mat.system())
                .addTask(
                        CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
                        "kubepekko-journal-writer-stop",
                        () ->
                                CompletableFuture.supplyAsync(
                                        () -> {
                                            writer.stop();
                                            try {
                                                writer.awaitStopped(STOP_WAIT_MILLIS);
                                            } catch (InterruptedException e) {
                                                Thread.currentThread().interrupt();
                                            }
                                            return Done.getInstance();
                                        }));
        mat.system().registerOnTermination(writer::stop);
        this.replayPageBytes = mat.system().settings().config().getBytes(REPLAY_PAGE_BYTES);
    }

    @Override
    public Future<BoxedUnit> queueWriteJournalRows(
            Seq<Tuple2<JournalPekkoSerializationRow, Set<String>>> rows) {
        List<JournalBatchWriter.Row> out = new ArrayList<>(rows.size());
        for (Tuple2<JournalPekkoSerializationRow, Set<String>> row :
                CollectionConverters.asJava(rows)) {
            out.add(
                    new JournalBatchWriter.Row(
                            row._1(), List.copyOf(CollectionConverters.asJava(row._2()))));
        }
        return writer.write(out);
    }

    @Override
    public Source<Try<Tuple2<PersistentRepr, Object>>, NotUsed> messages(
            String persistenceId, long fromSequenceNr, long toSequenceNr, long max) {
        Future<List<JournalPekkoSerializationRow>> rows =
                run(c -> index.messages(c, persistenceId, fromSequenceNr, toSequenceNr, max));
        return org.apache.pekko.stream.javadsl.Source.completionStage(FutureConverters.asJava(rows))
                .mapConcat(list -> list)
                .map(row -> PekkoSerialization$.MODULE$.fromRow(serialization, row))
                .asScala();
    }

    /**
     * A replay, read in pages of about {@code kubepekko.storage.embedded.replay-page-bytes} of
     * events (and at most {@code batchSize} sequence numbers) instead of the plugin's pages of
     * {@code batchSize} events whatever their size: a collection of 1 MB objects replayed 400 MB at
     * a time, and the server that had held the collection ran out of memory recovering it. Each
     * page is deserialized and handed on before the next is read. Live queries ({@code
     * refreshInterval} set) are the plugin's.
     */
    @Override
    public Source<Try<Tuple2<PersistentRepr, Object>>, NotUsed> messagesWithBatch(
            String persistenceId,
            long fromSequenceNr,
            long toSequenceNr,
            int batchSize,
            Option<Tuple2<FiniteDuration, Scheduler>> refreshInterval) {
        if (refreshInterval.isDefined()) {
            return super.messagesWithBatch(
                    persistenceId, fromSequenceNr, toSequenceNr, batchSize, refreshInterval);
        }
        long first = Math.max(1, fromSequenceNr);
        // The first page also finds the highest number stored, so that a replay "to the end"
        // (Long.MAX_VALUE)
        // stops there instead of walking empty windows.
        return org.apache.pekko.stream.javadsl.Source.<ReplayPage, ReplayPage>unfoldAsync(
                        new ReplayPage(first, -1, List.of()),
                        at -> {
                            if (at.last() >= 0 && at.next() > at.last()) {
                                return CompletableFuture.completedFuture(Optional.empty());
                            }
                            return FutureConverters.asJava(
                                            run(
                                                    c -> {
                                                        long last =
                                                                at.last() >= 0
                                                                        ? at.last()
                                                                        : Math.min(
                                                                                toSequenceNr,
                                                                                index
                                                                                        .highestSequenceNumber(
                                                                                                c,
                                                                                                persistenceId));
                                                        if (at.next() > last) {
                                                            return new ReplayPage(
                                                                    at.next(), last, List.of());
                                                        }
                                                        long end =
                                                                index.pageEnd(
                                                                        c,
                                                                        persistenceId,
                                                                        at.next(),
                                                                        last,
                                                                        batchSize,
                                                                        replayPageBytes);
                                                        return new ReplayPage(
                                                                end + 1,
                                                                last,
                                                                index.messages(
                                                                        c,
                                                                        persistenceId,
                                                                        at.next(),
                                                                        end,
                                                                        Long.MAX_VALUE));
                                                    }))
                                    .thenApply(page -> Optional.of(Pair.create(page, page)));
                        })
                .mapConcat(ReplayPage::rows)
                .map(row -> PekkoSerialization$.MODULE$.fromRow(serialization, row))
                .asScala();
    }

    /**
     * A page of a replay: its rows, where the next page starts, and the last sequence number to
     * read (-1: not yet known).
     */
    private record ReplayPage(long next, long last, List<JournalPekkoSerializationRow> rows) {}

    @Override
    public Future<Object> highestSequenceNr(String persistenceId, long fromSequenceNr) {
        Future<Long> highest = run(c -> index.highestSequenceNumber(c, persistenceId));
        return highest.map(n -> (Object) n, ExecutionContext.parasitic$.MODULE$);
    }

    /**
     * A read on one of the plugin's pooled connections, run on its database threads as its own
     * reads are.
     */
    private interface Read<R> {
        R apply(Connection c) throws SQLException;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private <R> Future<R> run(Read<R> read) {
        DBIOAction action =
                SimpleJdbcAction.apply(
                        ctx -> {
                            try {
                                return read.apply(ctx.connection());
                            } catch (SQLException e) {
                                throw new JournalReadException(e);
                            }
                        });
        return (Future<R>) database.run(action);
    }

    /** A failed read by persistence id; its cause is the database's error. */
    static final class JournalReadException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        JournalReadException(SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
