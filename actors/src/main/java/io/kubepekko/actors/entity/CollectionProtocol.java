package io.kubepekko.actors.entity;

import io.kubepekko.actors.allocation.AllocatorProtocol;
import io.kubepekko.actors.allocation.ValueAllocator;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.persistence.CborSerializable;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages of a {@link CollectionEntity}: its commands (public ones, and internal ones it sends
 * itself) and its replies. They cross the cluster but are never stored.
 */
public final class CollectionProtocol {

    private CollectionProtocol() {}

    /** Protocol of {@link CollectionEntity}. */
    public sealed interface Command extends CborSerializable
            permits Get,
                    ListObjects,
                    Write,
                    Allocated,
                    AllocationFailed,
                    AskVersionsAgain,
                    Flush,
                    ReportHoldings,
                    ClaimAnswered,
                    ClaimTimedOut,
                    DryRunAnswered,
                    Resolve,
                    RevisionsStopped,
                    SnapshotSaved {}

    /** Reads one object at its latest committed state. */
    public record Get(String name, ActorRef<GetReply> replyTo) implements Command {}

    /**
     * Lists the objects named after {@code after} (from the first when null), in name order, up to
     * about {@code maxBytes} of JSON (at least one object): a page small enough to cross between
     * nodes.
     */
    public record ListObjects(String after, int maxBytes, ActorRef<Items> replyTo)
            implements Command {}

    /**
     * Executes one write.
     *
     * @param user who sends it, whose write the collection's admission judges; null for the
     *     server's own writes (its controllers, its bootstrap), which are not admitted
     */
    public record Write(WriteOp op, UserInfo user, ActorRef<WriteResult> replyTo)
            implements Command {

        /** The server's own write. */
        public Write(WriteOp op, ActorRef<WriteResult> replyTo) {
            this(op, null, replyTo);
        }
    }

    /**
     * Internal: the versions for batch {@code batchId}, and the Revisions instance that gave them.
     */
    public record Allocated(long first, long batchId, ActorRef<RevisionsProtocol.Command> from)
            implements Command {}

    /** Internal: Revisions did not answer batch {@code batchId} in time; that batch fails. */
    public record AllocationFailed(long batchId, String reason) implements Command {}

    /**
     * Internal: batch {@code batchId} has no versions yet: ask again through sharding (see {@link
     * #ASK_AGAIN}).
     */
    public record AskVersionsAgain(long batchId) implements Command {}

    /**
     * Revisions asks what became of versions {@code first..last}, allocated to this collection's
     * request {@code requestId}, because neither a commit nor an abandonment was reported in time
     * (the report was lost, or the entity that made the request died: then sharding has just
     * restarted this one from its journal). The answer is a {@link RevisionsProtocol.Resolved}, or
     * none while that request is still in flight: its own report follows.
     */
    public record Resolve(
            long first, long last, long requestId, ActorRef<RevisionsProtocol.Command> replyTo)
            implements Command {}

    /**
     * Internal: the Revisions instance asked directly stopped (its node left); ask through
     * sharding.
     */
    public record RevisionsStopped(ActorRef<RevisionsProtocol.Command> instance)
            implements Command {}

    /**
     * Internal: the snapshot store's answer to the save at {@code sequenceNr}; {@code failure} null
     * on success.
     */
    public record SnapshotSaved(long sequenceNr, String failure) implements Command {}

    /** Internal: start the next batch if writes are queued. */
    public enum Flush implements Command {
        INSTANCE
    }

    /**
     * Asks which cluster-wide values the collection's stored objects hold, and which claim is in
     * flight (claimed, not yet settled or abandoned): what a {@link ValueAllocator} reconciles
     * against.
     */
    public record ReportHoldings(ActorRef<Holdings> replyTo) implements Command {}

    /** Internal: the allocator's answer to the batch's claim. */
    public record ClaimAnswered(AllocatorProtocol.Claimed reply) implements Command {}

    /** Internal: the allocator did not answer claim {@code claimId} in time. */
    public record ClaimTimedOut(String claimId) implements Command {}

    /** Internal: the allocator's evaluation of a dry run, or why there is none. */
    public record DryRunAnswered(String claimId, AllocatorProtocol.Claimed reply, String failure)
            implements Command {}

    // ---- replies ----

    /** The object's JSON, or {@code null} when it does not exist. */
    public record GetReply(byte[] object) implements CborSerializable {}

    /**
     * A page of objects' JSON, sorted by name, and {@link CollectionState#lastVersion}: the page
     * reflects every change of the collection up to it. {@code next} is the name to list after for
     * the next page, or null on the last page.
     */
    public record Items(List<byte[]> items, long lastVersion, String next)
            implements CborSerializable {}

    /**
     * @param held the {@link io.kubepekko.api.alloc.Claims#key keys} the stored objects hold
     * @param inFlight the claim whose batch is not yet settled or abandoned (at most one)
     */
    public record Holdings(List<String> held, List<String> inFlight) implements CborSerializable {}
}
