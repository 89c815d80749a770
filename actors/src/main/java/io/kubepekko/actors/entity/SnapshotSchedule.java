package io.kubepekko.actors.entity;

import java.util.random.RandomGenerator;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.persistence.typed.EventAdapter;
import org.apache.pekko.persistence.typed.EventSeq;

/**
 * When a collection snapshots its state. Once the events since the last snapshot outnumber the
 * objects that snapshot held (and at least 1000) times a spread drawn in [1, 2), the state is
 * saved: a restart loads the last snapshot and replays at most about twice as many events as it
 * held objects, and each snapshot's cost is spread over about as many writes as it has objects.
 * (Counted against the live objects instead, a collection that only grows never snapshots: its
 * replay after a failover was all of its history.) The spread keeps collections that grow in step
 * (a client spreading its writes over namespaces) from snapshotting all at once, queueing their
 * saves behind each other in the snapshot store.
 *
 * <p>Saved in the background (not through Pekko's {@code shouldSnapshot}, which stops the
 * collection's writes until the save is done); while one save is in flight, the next waits for the
 * first write after it. The events replayed after the snapshot count towards the next one, or an
 * entity that restarts (passivation) before each thousandth event would never snapshot: they are
 * counted as the journal hands them over ({@link #countingReplays}), so the event handler stays
 * pure.
 */
final class SnapshotSchedule {

    /**
     * Collections with at least this many objects log their snapshots' saves and their recoveries:
     * those take seconds and hundreds of MB, and {@code bench/snapshot} times its heap figures by
     * these lines.
     */
    static final int LOGGED_OBJECTS = 10_000;

    private final ActorContext<?> context;
    private final String collection;
    private final BackgroundSnapshots snapshots;
    private final RandomGenerator random;
    private long lastSnapshotSeqNr;

    /** The objects the last snapshot held (estimated from below after a recovery). */
    private int lastSnapshotObjects;

    private double spread;

    /** Whether the save in flight was logged (its end is then logged too). */
    private boolean savingLogged;

    /** Events replayed by the current recovery. */
    private long replayed;

    SnapshotSchedule(
            ActorContext<?> context,
            String collection,
            BackgroundSnapshots snapshots,
            RandomGenerator random) {
        this.context = context;
        this.collection = collection;
        this.snapshots = snapshots;
        this.random = random;
        this.spread = draw();
    }

    /** Wraps the adapter recovery reads events through, counting them. */
    <E> EventAdapter<E, ?> countingReplays(EventAdapter<E, E> inner) {
        return new EventAdapter<E, E>() {
            @Override
            public E toJournal(E event) {
                return inner.toJournal(event);
            }

            @Override
            public String manifest(E event) {
                return inner.manifest(event);
            }

            @Override
            public EventSeq<E> fromJournal(E event, String manifest) {
                EventSeq<E> seq = inner.fromJournal(event, manifest);
                replayed += seq.events().size();
                return seq;
            }
        };
    }

    /**
     * Recovery ended at {@code sequenceNr} with {@code objects} objects: each replayed event added
     * at most one.
     */
    void recovered(long sequenceNr, int objects) {
        if (objects >= LOGGED_OBJECTS) {
            context.getLog()
                    .info(
                            "{}: recovered {} objects at {} ({} events replayed)",
                            collection,
                            objects,
                            sequenceNr,
                            replayed);
        }
        lastSnapshotSeqNr = sequenceNr - replayed;
        lastSnapshotObjects = (int) Math.max(0, objects - replayed);
    }

    /**
     * The collection restarts: its save in flight may never be answered, and recovery counts anew.
     */
    void restarting() {
        snapshots.forget();
        savingLogged = false;
        replayed = 0;
    }

    /** The store answered the save at {@code sequenceNr}; {@code failure} is null on success. */
    void saved(long sequenceNr, String failure) {
        snapshots.forget();
        if (savingLogged && failure == null) {
            context.getLog().info("{}: saved the snapshot at {}", collection, sequenceNr);
        }
        savingLogged = false;
        if (failure != null) {
            // Only recovery time suffers; the next snapshot is due an interval later, as if this
            // one had
            // been saved (a state too large to save must not be retried on every write).
            context.getLog()
                    .warn(
                            "{}: saving the snapshot at {} failed: {}",
                            collection,
                            sequenceNr,
                            failure);
        }
    }

    /**
     * Saves {@code state}, whose events up to {@code sequenceNr} are all persisted, when a snapshot
     * is due.
     */
    void saveIfDue(long sequenceNr, CollectionState state) {
        if (!snapshots.saving()
                && sequenceNr - lastSnapshotSeqNr >= spread * Math.max(1000, lastSnapshotObjects)) {
            savingLogged = state.objects().size() >= LOGGED_OBJECTS;
            if (savingLogged) {
                context.getLog()
                        .info(
                                "{}: saving the snapshot at {} ({} objects, {} bytes)",
                                collection,
                                sequenceNr,
                                state.objects().size(),
                                state.sizeInBytes());
            }
            snapshots.save(sequenceNr, state);
            lastSnapshotSeqNr = sequenceNr;
            lastSnapshotObjects = state.objects().size();
            spread = draw();
        }
    }

    private double draw() {
        return 1 + random.nextDouble();
    }
}
