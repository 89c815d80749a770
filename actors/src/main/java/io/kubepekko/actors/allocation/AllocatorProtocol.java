package io.kubepekko.actors.allocation;

import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.persistence.CborSerializable;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages of a {@link ValueAllocator}: its commands (public ones, and internal ones it sends
 * itself) and its reply. They cross the cluster but are never stored.
 */
public final class AllocatorProtocol {

    private AllocatorProtocol() {}

    /** Protocol of {@link ValueAllocator}. */
    public sealed interface Command extends CborSerializable
            permits Claim,
                    Settle,
                    Abandon,
                    Flush,
                    Tick,
                    NamespacesListed,
                    HoldingsReported,
                    AskAgain {}

    /**
     * Claims values for the writes of one batch of {@code collection} (a collection entity id),
     * each write's requests granted all together or not at all. {@code claimId} names the claim in
     * {@link Settle}, {@link Abandon} and holdings reports. A dry run only evaluates, as
     * Kubernetes' dry-run allocators do, and records nothing.
     */
    public record Claim(
            String collection,
            String claimId,
            List<List<ValueRequest>> writes,
            boolean dryRun,
            ActorRef<Claimed> replyTo)
            implements Command {}

    /**
     * The batch that made claim {@code claimId} ({@code null} when it claimed nothing) is
     * persisted: its claimed values are held; {@code released} are values its objects no longer
     * hold.
     */
    public record Settle(String collection, String claimId, List<String> released)
            implements Command {}

    /**
     * The batch that made claim {@code claimId} will never be persisted: its values are free again.
     */
    public record Abandon(String collection, String claimId) implements Command {}

    /** Internal: persist what is queued. */
    public enum Flush implements Command {
        INSTANCE
    }

    /** Internal: look for claims left unsettled too long. */
    public enum Tick implements Command {
        INSTANCE
    }

    /**
     * Internal: the namespaces whose collections of {@code resource} may hold values, or a failure.
     */
    public record NamespacesListed(String resource, List<String> namespaces, String failure)
            implements Command {}

    /**
     * Internal: a collection's report, asked for when the allocator had processed {@code asked}
     * items, or a failure.
     */
    public record HoldingsReported(
            String collection, long asked, CollectionProtocol.Holdings holdings, String failure)
            implements Command {}

    /** Internal: ask a collection (or a resource's namespace list) again. */
    public record AskAgain(String collection, String resource) implements Command {}

    // ---- replies ----

    /**
     * One result per write of the claim, in order; {@code unavailable} (results empty) when the
     * allocator cannot take claims now.
     */
    public record Claimed(String claimId, List<ClaimResult> results, String unavailable)
            implements CborSerializable {}
}
