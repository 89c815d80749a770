package io.kubepekko.actors.entity;

import com.typesafe.config.ConfigFactory;
import java.util.function.BiFunction;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.persistence.Persistence;
import org.apache.pekko.persistence.SaveSnapshotFailure;
import org.apache.pekko.persistence.SaveSnapshotSuccess;
import org.apache.pekko.persistence.SnapshotMetadata;
import org.apache.pekko.persistence.SnapshotProtocol;

/**
 * Saves an event-sourced actor's snapshots while the actor goes on taking commands.
 *
 * <p>Pekko's {@code EventSourcedBehavior} stashes every command while a snapshot it decided on is
 * being saved. A collection of 100,000 ConfigMaps snapshots about 280 MB, and its writes stopped
 * for the seconds that save took. A collection's state is immutable, so nothing has to wait: this
 * sends the snapshot store the same {@code SaveSnapshot} message the behavior itself sends, and the
 * behavior's recovery loads the result as any other snapshot. The caller saves only states whose
 * events are all persisted, and at most one save is in flight at a time.
 *
 * <p>The snapshot store's protocol ({@code Persistence.snapshotStoreFor}, {@code SnapshotProtocol})
 * is marked internal by Pekko; it is the one Pekko's own behaviors use, the Pekko version is
 * pinned, and {@code CollectionEntityTest} fails if it changes.
 */
final class BackgroundSnapshots {

    private final String persistenceId;
    private final org.apache.pekko.actor.ActorRef store;
    private final org.apache.pekko.actor.ActorRef replies;
    private boolean saving;

    /**
     * @param pluginId the snapshot plugin of the actor ("" for the default one)
     * @param answer turns the store's answer (the sequence number saved, and why it failed or null)
     *     into the actor's command; the actor then calls {@link #forget}
     */
    <C> BackgroundSnapshots(
            ActorContext<C> context,
            String persistenceId,
            String pluginId,
            BiFunction<Long, String, C> answer) {
        this.persistenceId = persistenceId;
        this.store =
                Persistence.get(Adapter.toClassic(context.getSystem()))
                        .snapshotStoreFor(pluginId, ConfigFactory.empty());
        ActorRef<SnapshotProtocol.Response> adapter =
                context.messageAdapter(
                        SnapshotProtocol.Response.class,
                        r -> {
                            if (r instanceof SaveSnapshotSuccess s) {
                                return answer.apply(s.metadata().sequenceNr(), null);
                            }
                            if (r instanceof SaveSnapshotFailure f) {
                                return answer.apply(
                                        f.metadata().sequenceNr(), String.valueOf(f.cause()));
                            }
                            return answer.apply(
                                    0L, "unexpected answer of the snapshot store: " + r);
                        });
        this.replies = Adapter.toClassic(adapter);
    }

    /** Whether a save is in flight. */
    boolean saving() {
        return saving;
    }

    /**
     * Saves {@code state} as the snapshot at {@code sequenceNr}, whose events must all be
     * persisted.
     */
    void save(long sequenceNr, Object state) {
        saving = true;
        store.tell(
                new SnapshotProtocol.SaveSnapshot(
                        new SnapshotMetadata(persistenceId, sequenceNr, 0L), state),
                replies);
    }

    /**
     * Forgets the save in flight, so that another may start: the store answered it, or the actor
     * restarted and its answer may never come.
     */
    void forget() {
        saving = false;
    }
}
