package io.kubepekko.actors.entity;

import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * How a collection reaches {@link Revisions}: through sharding, or directly at the instance that
 * answered last, which saves the two sharding hops per batch. The direct instance is forgotten when
 * it does not answer in time or hands over, so a moved instance is found again through sharding; it
 * is watched, so that its node leaving is noticed at once (see {@link
 * CollectionProtocol.RevisionsStopped}).
 */
final class RevisionsRoute {

    private final ActorContext<CollectionProtocol.Command> context;
    private final RecipientRef<RevisionsProtocol.Command> sharded;
    private ActorRef<RevisionsProtocol.Command> direct;

    RevisionsRoute(
            ActorContext<CollectionProtocol.Command> context,
            RecipientRef<RevisionsProtocol.Command> sharded) {
        this.context = context;
        this.sharded = sharded;
    }

    /** Whether an instance is known to ask directly. */
    boolean knowsInstance() {
        return direct != null;
    }

    /**
     * Sends {@code allocate} to the known instance when {@code directly} (and one is known), else
     * through sharding.
     */
    void ask(RevisionsProtocol.Allocate allocate, boolean directly) {
        if (directly && direct != null) {
            direct.tell(allocate);
        } else {
            sharded.tell(allocate);
        }
    }

    /** Sends a report, directly when an instance is known. */
    void tell(RevisionsProtocol.Command report) {
        if (direct != null) {
            direct.tell(report);
        } else {
            sharded.tell(report);
        }
    }

    /** {@code from} answered: ask it directly from now on. */
    void answeredBy(ActorRef<RevisionsProtocol.Command> from) {
        if (!from.equals(direct)) {
            direct = from;
            context.watchWith(from, new CollectionProtocol.RevisionsStopped(from));
        }
    }

    void forget() {
        direct = null;
    }

    /** {@code instance} stopped; whether it was the one asked directly (now forgotten). */
    boolean stopped(ActorRef<RevisionsProtocol.Command> instance) {
        if (instance.equals(direct)) {
            direct = null;
            return true;
        }
        return false;
    }
}
