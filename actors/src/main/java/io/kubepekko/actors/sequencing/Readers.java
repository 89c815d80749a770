package io.kubepekko.actors.sequencing;

import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Command;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Published;
import io.kubepekko.actors.sequencing.RevisionsProtocol.Unsubscribe;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The readers of the ordered change stream a {@link Revisions} instance publishes: who they are
 * (each watched, so that one that stops is dropped), and whether a batch went out since the last
 * heartbeat tick.
 */
final class Readers {

    private final Set<ActorRef<Published>> subscribers = new HashSet<>();
    private final ActorContext<Command> context;
    private final Predicate<Address> member;

    /** Whether a batch went out since the last heartbeat tick. */
    private boolean sentSinceTick;

    /**
     * @param member whether an address is a member of the cluster now (see {@link #takeOver})
     */
    Readers(ActorContext<Command> context, Predicate<Address> member) {
        this.context = context;
        this.member = member;
    }

    /** Adds a reader, unless it is one already. */
    void subscribe(ActorRef<Published> reader) {
        if (subscribers.add(reader)) {
            context.watchWith(reader, new Unsubscribe(reader));
        }
    }

    void unsubscribe(ActorRef<Published> reader) {
        subscribers.remove(reader);
    }

    /**
     * Subscribes the readers of a hand-over that can still be there: those of this system and of
     * the cluster's current members. A hand-over is also recorded when the whole cluster stops; the
     * readers it names then belonged to processes that are gone, and watching one at an address
     * nobody listens on would only have remoting try to connect to it again and again. Their
     * successors subscribe anew.
     */
    void takeOver(List<ActorRef<Published>> readers) {
        for (ActorRef<Published> s : readers) {
            Address address = s.path().address();
            if (address.hasLocalScope() || member.test(address)) {
                subscribe(s);
            }
        }
    }

    /**
     * Sends the batch ({@code after}, {@code upTo}] of {@code epoch} to every reader, in messages
     * of a size nodes can exchange ({@link Published#chunks}).
     */
    void send(String epoch, long after, long upTo, List<PublishedEvent> released) {
        if (subscribers.isEmpty()) {
            return;
        }
        for (Published batch : Published.chunks(epoch, after, upTo, released)) {
            subscribers.forEach(s -> s.tell(batch));
        }
        sentSinceTick = true;
    }

    boolean sentSinceTick() {
        return sentSinceTick;
    }

    /** A heartbeat tick passed: counts the batches sent from now. */
    void tick() {
        sentSinceTick = false;
    }

    List<ActorRef<Published>> all() {
        return List.copyOf(subscribers);
    }

    int count() {
        return subscribers.size();
    }
}
