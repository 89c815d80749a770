package io.kubepekko.persistence;

import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.DefaultJournalDao;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.collection.immutable.Set;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;

import java.util.ArrayList;
import java.util.List;

/**
 * pekko-persistence-jdbc's journal DAO with a shorter write path, for the embedded profile (set as
 * {@code jdbc-journal.dao}). Everything but the write is the plugin's own: serialization, the rows and
 * tables, replay, deletes and the read journal.
 *
 * <p>Why: the plugin hands each write from the journal actor to a stream, then to Slick's thread pool,
 * and runs its completion through several futures, each a hop to another thread. On a small machine
 * a hop that must wake a parked thread costs tens of microseconds, and a create waited about 1.2 ms
 * for a journal write whose SQL takes 0.2 ms. Here a write is queued to one {@link JournalBatchWriter}
 * thread that drains what has queued and commits it as one transaction, as the plugin's stream batches
 * did; the DAO's own completion steps run on that thread ({@code parasitic}) instead of being
 * dispatched again.
 */
public class DirectWriteJournalDao extends DefaultJournalDao {
    private final JournalBatchWriter writer;

    /** The signature pekko-persistence-jdbc instantiates a configured DAO with. */
    public DirectWriteJournalDao(JdbcBackend.JdbcDatabaseDef db, JdbcProfile profile, JournalConfig config,
                                 Serialization serialization, ExecutionContext ec, Materializer mat) {
        super(db, profile, config, serialization, ExecutionContext.parasitic$.MODULE$, mat);
        this.writer = new JournalBatchWriter(db.source()::createConnection, JournalInserts.of(config),
                config.daoConfig().batchSize());
        mat.system().registerOnTermination(writer::stop);
    }

    @Override
    public Future<BoxedUnit> queueWriteJournalRows(Seq<Tuple2<JournalPekkoSerializationRow, Set<String>>> rows) {
        List<JournalBatchWriter.Row> out = new ArrayList<>(rows.size());
        for (Tuple2<JournalPekkoSerializationRow, Set<String>> row : CollectionConverters.asJava(rows)) {
            out.add(new JournalBatchWriter.Row(row._1(), List.copyOf(CollectionConverters.asJava(row._2()))));
        }
        return writer.write(out);
    }
}
