package io.kubepekko.actors.sequencing;

import io.kubepekko.persistence.CborSerializable;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/** Events of {@link Revisions}; facts, never renamed. */
public sealed interface RevisionsEvent extends CborSerializable {

    public record BlockReserved(long upTo) implements RevisionsEvent {}

    public record CollectionAdded(String namespace) implements RevisionsEvent {}

    /**
     * An orderly hand-over: nothing was left unresolved, the stream of {@code epoch} was published
     * up to {@code sentUpTo}, and {@code subscribers} were reading it. Valid only as the last
     * event.
     */
    public record HandedOver(
            String epoch, long sentUpTo, List<ActorRef<RevisionsProtocol.Published>> subscribers)
            implements RevisionsEvent {}
}
