package io.kubepekko.persistence.fencing;

import com.typesafe.config.Config;
import org.apache.pekko.persistence.AtomicWrite;
import org.apache.pekko.persistence.cassandra.journal.CassandraJournal;
import scala.collection.immutable.Seq;
import scala.concurrent.Future;
import scala.runtime.BoxedUnit;
import scala.util.Try;


/**
 * The Cassandra journal, refusing writes and deletions while this server's {@link WritePermit} has lapsed. The check is
 * the last step before the plugin hands the events to the driver, so nothing that ran before it (an entity
 * that queued a write before a pause) can slip past. A refused write fails like a lost connection to
 * Cassandra: the entity restarts and its writers get a 503, never a false success.
 */
public final class FencedCassandraJournal extends CassandraJournal {
    private final WritePermit permit;

    /** Constructed by Pekko Persistence from the plugin's configuration section. */
    public FencedCassandraJournal(Config config, String configPath) {
        super(config, configPath);
        this.permit = WritePermit.ID.of(context().system());
    }

    @Override
    public Future<Seq<Try<BoxedUnit>>> asyncWriteMessages(Seq<AtomicWrite> messages) {
        return Fence.<Seq<Try<BoxedUnit>>>refused(permit).orElseGet(() -> super.asyncWriteMessages(messages));
    }

    @Override
    public Future<BoxedUnit> asyncDeleteMessagesTo(String persistenceId, long toSequenceNr) {
        return Fence.<BoxedUnit>refused(permit).orElseGet(() -> super.asyncDeleteMessagesTo(persistenceId, toSequenceNr));
    }

    /** A write refused because this server may have been replaced by another member. */
    public static final class FencedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public FencedException(String why) {
            super("this server may not write to the journal now: " + why, null, false, false);
        }
    }
}
