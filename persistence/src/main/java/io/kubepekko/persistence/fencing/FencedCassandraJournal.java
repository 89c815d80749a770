package io.kubepekko.persistence.fencing;

import com.typesafe.config.Config;
import java.util.Optional;
import java.util.UUID;
import org.apache.pekko.persistence.AtomicWrite;
import org.apache.pekko.persistence.PersistentRepr;
import org.apache.pekko.persistence.cassandra.journal.CassandraJournal;
import scala.Function1;
import scala.collection.immutable.Seq;
import scala.concurrent.Future;
import scala.concurrent.Future$;
import scala.runtime.BoxedUnit;
import scala.util.Try;

/**
 * The Cassandra journal, refusing writes and deletions while this server's {@link WritePermit} has
 * lapsed. The check is made when each event's row key is made, the last step before the plugin
 * hands the events to the driver, so nothing that ran before it (an entity that queued a write
 * before a pause) can slip past; and the write's answer is checked again ({@link Fence#confirmed}),
 * since the driver may hold a write across a pause and send it after the others replaced this
 * server. A refused write fails like a lost connection to Cassandra: the entity restarts and its
 * writers get an error, never a false success.
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
        try {
            return Fence.confirmed(
                    permit, super.asyncWriteMessages(messages), context().dispatcher());
        } catch (FencedException refused) {
            return Future$.MODULE$.failed(refused);
        }
    }

    /**
     * The event's row key (a time-based UUID, the second clustering column after the sequence
     * number), made only while this server may write. The permit is checked here, once the row's
     * time is fixed, rather than before: a late row of a replaced server then always carries an
     * earlier time than its successor's row of the same sequence number (given clocks in step
     * across servers, which Cassandra needs anyway), the order in which recovery's replay filter
     * ({@code repair-by-discard-old}) discards the replaced writer's row.
     */
    @Override
    public UUID generateUUID(PersistentRepr event) {
        UUID uuid = super.generateUUID(event);
        Optional<String> refusal = permit.refusal();
        if (refusal.isPresent()) {
            throw new FencedException(refusal.get());
        }
        return uuid;
    }

    /**
     * Replays one sequence number further than asked, passing on only the events asked for. A
     * replaced server's late row can share the last sequence number with its successor's row and
     * sorts first (its row key is older); the plugin's replay stops at the first row of the last
     * number asked for, so without this the successor's row is never read and the late row wins.
     * Read on, both rows reach the replay filter, which keeps the newer writer's.
     */
    @Override
    public Future<BoxedUnit> asyncReplayMessages(
            String persistenceId,
            long fromSequenceNr,
            long toSequenceNr,
            long max,
            Function1<PersistentRepr, BoxedUnit> replayCallback) {
        long through = toSequenceNr == Long.MAX_VALUE ? toSequenceNr : toSequenceNr + 1;
        return super.asyncReplayMessages(
                persistenceId,
                fromSequenceNr,
                through,
                max,
                event -> {
                    if (event.sequenceNr() <= toSequenceNr) {
                        replayCallback.apply(event);
                    }
                    return BoxedUnit.UNIT;
                });
    }

    @Override
    public Future<BoxedUnit> asyncDeleteMessagesTo(String persistenceId, long toSequenceNr) {
        return Fence.<BoxedUnit>refused(permit)
                .orElseGet(() -> super.asyncDeleteMessagesTo(persistenceId, toSequenceNr));
    }

    /** A write refused because this server may have been replaced by another member. */
    public static final class FencedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public FencedException(String why) {
            super("this server may not write to the journal now: " + why, null, false, false);
        }
    }
}
