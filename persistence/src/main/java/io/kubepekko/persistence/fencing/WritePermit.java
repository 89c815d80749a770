package io.kubepekko.persistence.fencing;

import org.apache.pekko.actor.AbstractExtensionId;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Extension;

import java.util.Optional;

/**
 * Whether this server may write to the shared journal now: the fence that keeps a server the rest of the
 * cluster may already have replaced from writing beside its replacement.
 *
 * <p>Sharding starts a dead or partitioned server's entities on another member once the split-brain
 * resolver has downed it; if the old server is in fact still running (cut off by a partition, or paused by
 * the scheduler, a debugger or SIGSTOP and then resumed), its entities would append to the same
 * persistence ids as their successors. A lease (kept by {@code io.kubepekko.actors.fencing.PeerContact})
 * renews the permit for a short time whenever a majority of the cluster has answered this server, and the
 * journal ({@link FencedCassandraJournal}) refuses every write while it has lapsed. The lease is shorter
 * than the time the others wait before they replace a member that stopped answering, so the old server
 * stops writing before its successors start. The clock is {@link System#nanoTime()}, which keeps counting
 * while the process is paused: a server that wakes up after a long pause finds its permit expired before
 * it can write.
 *
 * <p>Until a lease takes over ({@link #grantUntil}), the permit is unconditional: one server on its own
 * storage has nobody to be fenced from.
 */
public final class WritePermit implements Extension {
    /** The permit of an actor system (a classic or typed system's classic view). */
    public static final Id ID = new Id();

    private volatile boolean leased;
    private volatile long validUntilNanos;
    private volatile String lapsed = "";

    /** Why this server may not write now; empty when it may. */
    public Optional<String> refusal() {
        return refusal(System.nanoTime());
    }

    /** {@link #refusal()} at {@code nowNanos} (a {@link System#nanoTime()} reading). */
    public Optional<String> refusal(long nowNanos) {
        if (!leased || nowNanos - validUntilNanos < 0) {
            return Optional.empty();
        }
        return Optional.of(lapsed);
    }

    /**
     * Lets this server write until {@code nanos} (a {@link System#nanoTime()} reading); after it, writes are
     * refused with {@code whyAfter}.
     */
    public void grantUntil(long nanos, String whyAfter) {
        lapsed = whyAfter;
        validUntilNanos = nanos;
        leased = true;
    }

    /** Lets this server write with no time limit (a cluster of one). */
    public void grantAlways() {
        leased = false;
    }

    /** Ends the permit now, for good unless granted again. */
    public void revoke(String why) {
        grantUntil(System.nanoTime(), why);
    }

    /** Lookup of {@link WritePermit} per actor system. */
    public static final class Id extends AbstractExtensionId<WritePermit> {
        private Id() {}

        @Override
        public WritePermit createExtension(ExtendedActorSystem system) {
            return new WritePermit();
        }

        /** The permit of {@code system}. */
        public WritePermit of(ActorSystem system) {
            return get(system);
        }
    }
}
