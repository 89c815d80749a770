package io.kubepekko.actors.sequencing;

import com.fasterxml.jackson.annotation.JsonCreator;
import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.persistence.CborSerializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages of {@link Revisions}: its commands (public ones, and internal ones it sends itself)
 * and its replies. They cross the cluster but are never stored.
 */
public final class RevisionsProtocol {

    private RevisionsProtocol() {}

    /** Protocol of {@link Revisions}. */
    public sealed interface Command extends CborSerializable
            permits Allocate,
                    Committed,
                    Abandoned,
                    Resolved,
                    Subscribe,
                    Unsubscribe,
                    CheckOverdue,
                    GetLatest,
                    GetNamespaces,
                    HandOver {}

    /**
     * Allocates {@code count} consecutive versions for a write from collection {@code namespace};
     * {@code requestId} is echoed so the asker can match the answer to its batch.
     */
    public record Allocate(int count, String namespace, long requestId, ActorRef<Allocated> replyTo)
            implements Command {}

    /**
     * The allocation starting at {@code first} was persisted with these events (one per version, in
     * order).
     */
    public record Committed(long first, List<PublishedEvent> events, boolean more)
            implements Command {

        @JsonCreator
        public Committed {}

        /** The whole allocation's events in one message. */
        public Committed(long first, List<PublishedEvent> events) {
            this(first, events, false);
        }

        /**
         * The allocation's events in order, as messages of about {@code maxBytes} of objects each
         * (at least one event each; every one but the last with {@code more}): a message between
         * nodes must stay well under Artery's frame size.
         */
        public static List<Committed> parts(
                long first, List<PublishedEvent> events, long maxBytes) {
            List<List<PublishedEvent>> parts =
                    SizedParts.split(events, PublishedEvent::size, maxBytes);
            List<Committed> out = new ArrayList<>(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                out.add(new Committed(first, parts.get(i), i < parts.size() - 1));
            }
            return out;
        }
    }

    /** The allocation starting at {@code first} will never be persisted. */
    public record Abandoned(long first) implements Command {}

    /**
     * A collection's answer about an allocation this instance asked it to resolve (it reported
     * neither a commit nor an abandonment in time): see {@link CollectionProtocol.Resolve}.
     */
    public record Resolved(long first, Resolution resolution) implements Command {}

    /** What a collection knows of an allocation it holds or held. */
    public enum Resolution {
        /** Nothing of it was persisted, and nothing ever will be. */
        NOT_PERSISTED,
        /**
         * It may have been persisted (the collection's journal holds versions at or above it), but
         * the collection no longer has its events: readers must rebuild from the collections.
         */
        UNKNOWN
    }

    /**
     * Registers a reader of the ordered change stream. It first receives an empty {@link Published}
     * naming the epoch and the version released so far, then every batch after it, and an empty
     * batch about every second when nothing changes (so a reader that hears nothing for a while
     * subscribes again). Subscribing again is harmless. A batch with another epoch means the reader
     * must rebuild from the collections.
     */
    public record Subscribe(ActorRef<Published> subscriber) implements Command {}

    /** Internal: a subscriber stopped. */
    public record Unsubscribe(ActorRef<Published> subscriber) implements Command {}

    /** Internal: look for allocations left unresolved too long. */
    public enum CheckOverdue implements Command {
        INSTANCE
    }

    /**
     * Sharding's stop message (the entity moves to another node, or its node leaves): stop handing
     * out versions, let every allocation resolve, record where the stream stands and who reads it,
     * and stop. The next incarnation then carries on with the same epoch, so no reader has to
     * rebuild.
     */
    public enum HandOver implements Command {
        INSTANCE
    }

    /**
     * Asks for the version a "Most Recent" read must reflect: the highest one handed out (at least
     * the published one). Every write acknowledged before the read began got its version here
     * before this question arrived — this one actor handed it out — so a read that waits until the
     * ordered stream has passed it reflects every such write, whichever node wrote it and however
     * late its commit report travels (reports from other nodes come by other paths than the
     * question, in no agreed order). It may also wait for writes still in flight; they resolve
     * within a journal write.
     */
    public record GetLatest(ActorRef<Latest> replyTo) implements Command {}

    /** Asks for the namespaces whose collections have held objects of this group-resource. */
    public record GetNamespaces(ActorRef<Namespaces> replyTo) implements Command {}

    // ---- replies ----

    /**
     * Versions {@code first} to {@code first + count - 1} belong to the asker. {@code from} is this
     * instance, so that the asker can send its next request directly instead of through sharding.
     * {@code first == 0} ({@link #MOVING}) allocates nothing: this instance is handing over, so ask
     * again through sharding, which delivers to the next incarnation.
     */
    public record Allocated(long first, long requestId, ActorRef<Command> from)
            implements CborSerializable {
        /** The value of {@code first} that means "ask again through sharding". */
        public static final long MOVING = 0;
    }

    public record Latest(long resourceVersion) implements CborSerializable {}

    public record Namespaces(List<String> namespaces) implements CborSerializable {}

    /**
     * Changes released in order: every version up to {@code upTo} is resolved, and {@code events}
     * are the committed ones in ({@code after}, {@code upTo}]. {@code epoch} changes when Revisions
     * restarts. Consecutive batches of one epoch chain: each one's {@code after} is the previous
     * one's {@code upTo} (a subscription's acknowledgement has {@code after == upTo}). A reader
     * that sees a batch whose {@code after} is above what it has must have lost a message (messages
     * between nodes may be lost) and rebuilds, as for a new epoch.
     */
    public record Published(String epoch, long after, long upTo, List<PublishedEvent> events)
            implements CborSerializable {

        @JsonCreator
        public Published {}

        /**
         * A batch following the one that ended just below its first event (or at {@code upTo} when
         * empty).
         */
        public Published(String epoch, long upTo, List<PublishedEvent> events) {
            this(
                    epoch,
                    events.isEmpty() ? upTo : events.get(0).resourceVersion() - 1,
                    upTo,
                    events);
        }

        /**
         * A published batch's events are split into messages of about this many bytes of objects
         * (at least one event each): a message between nodes must stay well under Artery's frame
         * size, or it is dropped.
         */
        public static final int CHUNK_BYTES = 512 * 1024;

        /**
         * The batch ({@code after}, {@code upTo}] as messages of about {@link #CHUNK_BYTES} each,
         * chained: every version up to a chunk's last event is resolved, since released events are
         * in version order.
         */
        public static List<Published> chunks(
                String epoch, long after, long upTo, List<PublishedEvent> released) {
            List<List<PublishedEvent>> parts =
                    SizedParts.split(released, PublishedEvent::size, CHUNK_BYTES);
            List<Published> out = new ArrayList<>(parts.size());
            long chunkAfter = after;
            for (int i = 0; i < parts.size(); i++) {
                List<PublishedEvent> part = parts.get(i);
                long chunkUpTo =
                        i < parts.size() - 1 ? part.get(part.size() - 1).resourceVersion() : upTo;
                out.add(new Published(epoch, chunkAfter, chunkUpTo, part));
                chunkAfter = chunkUpTo;
            }
            return out;
        }
    }
}
