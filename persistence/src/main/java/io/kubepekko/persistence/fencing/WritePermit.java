package io.kubepekko.persistence.fencing;

import java.time.Duration;
import java.util.Optional;
import org.apache.pekko.actor.AbstractExtensionId;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Extension;

/**
 * Whether this server may write to the shared journal now: the fence that keeps a server the rest
 * of the cluster may already have replaced from writing beside its replacement.
 *
 * <p>Sharding starts a dead or partitioned server's entities on another member once the split-brain
 * resolver has downed it; if the old server is in fact still running (cut off by a partition, or
 * paused by the scheduler, a debugger or SIGSTOP and then resumed), its entities would append to
 * the same persistence ids as their successors. A lease (kept by {@code
 * io.kubepekko.actors.fencing.PeerContact}) renews the permit for a short time whenever a majority
 * of the cluster has answered this server, and the journal ({@link FencedCassandraJournal}) refuses
 * every write while it has lapsed. The lease is shorter than the time the others wait before they
 * replace a member that stopped answering, so the old server stops writing before its successors
 * start. The clock is {@link System#nanoTime()}, which keeps counting while the process is paused:
 * a server that wakes up after a long pause finds its permit expired before it can write.
 *
 * <p>A second lease guards against a whole other cluster on the same storage: a server that formed
 * a new cluster because this one looked dead (every member silent, e.g. all paused) records a newer
 * generation in the storage, and {@code io.kubepekko.actors.fencing.GenerationWatch} renews {@link
 * #grantGenerationUntil} only while the storage still names this cluster's generation; once it
 * names a newer one the permit ends for good ({@link #supersede}).
 *
 * <p>Until a lease takes over ({@link #grantUntil}), the permit is unconditional: one server on its
 * own storage has nobody to be fenced from.
 */
public final class WritePermit implements Extension {
    /** The permit of an actor system (a classic or typed system's classic view). */
    public static final Id ID = new Id();

    private volatile boolean leased;
    private volatile long validUntilNanos;
    private volatile String lapsed = "";
    private volatile boolean generationLeased;
    private volatile long generationValidUntilNanos;
    private volatile String generationLapsed = "";
    private volatile String superseded;

    /**
     * How long after a lease lapsed the others can at the earliest have replaced this server; -1:
     * not known.
     */
    private volatile long replacedNoSoonerNanos = -1;

    /** Why this server may not write now; empty when it may. */
    public Optional<String> refusal() {
        return refusal(System.nanoTime());
    }

    /** {@link #refusal()} at {@code nowNanos} (a {@link System#nanoTime()} reading). */
    public Optional<String> refusal(long nowNanos) {
        if (superseded != null) {
            return Optional.of(superseded);
        }
        if (leased && nowNanos - validUntilNanos >= 0) {
            return Optional.of(lapsed);
        }
        if (generationLeased && nowNanos - generationValidUntilNanos >= 0) {
            return Optional.of(generationLapsed);
        }
        return Optional.empty();
    }

    /**
     * Why the answer to a write this server sent while it could write, arriving at {@code
     * nowNanos}, may not be reported as a success; empty when it may. The driver can hold a write
     * across a pause and send it late, so the answer is judged by when it came, not by when the
     * write was sent. An answer is good as long as the others cannot have replaced this server yet:
     * a lease lapses before that moment by design (the margin of {@link #replacedNoSoonerThan}),
     * and a write answered within that margin was applied before any successor can have recovered.
     * Without a known margin the answer is judged as strictly as a write.
     */
    public Optional<String> refusalOfAnswer(long nowNanos) {
        long margin = Math.max(0, replacedNoSoonerNanos);
        return refusal(nowNanos - margin)
                .map(why -> "the write's answer came after the permit lapsed (" + why + ")");
    }

    /**
     * Declares that the others replace this server no sooner than {@code afterLapse} after a lease
     * lapsed (for the majority lease: acceptable-heartbeat-pause plus stable-after minus the
     * lease). Called once per lease; the shortest margin declared is the one that holds.
     */
    public void replacedNoSoonerThan(Duration afterLapse) {
        long nanos = afterLapse.toNanos();
        if (nanos < 0) {
            throw new IllegalArgumentException(
                    "a lease must lapse before the others may replace this server: " + afterLapse);
        }
        replacedNoSoonerNanos =
                replacedNoSoonerNanos < 0 ? nanos : Math.min(replacedNoSoonerNanos, nanos);
    }

    /**
     * Lets this server write until {@code nanos} (a {@link System#nanoTime()} reading); after it,
     * writes are refused with {@code whyAfter}.
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

    /**
     * Lets this server write until {@code nanos} as far as the storage's cluster generation goes
     * (the majority lease still applies); after it, writes are refused with {@code whyAfter}.
     */
    public void grantGenerationUntil(long nanos, String whyAfter) {
        generationLapsed = whyAfter;
        generationValidUntilNanos = nanos;
        generationLeased = true;
    }

    /** Ends the permit for good: another cluster owns the storage now. */
    public void supersede(String why) {
        superseded = why;
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
