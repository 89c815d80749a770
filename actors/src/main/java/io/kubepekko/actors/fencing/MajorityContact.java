package io.kubepekko.actors.fencing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The arithmetic of the write lease: which other members answered this server lately, and until
 * when that lets it write. A member's answer counts from the moment this server sent the question
 * (an answer proves the two could talk after that moment, not after it arrived). A server may write
 * while, counting itself, more than half of the members that count answered within the lease, so a
 * server cut off from the majority, or asleep, loses its permit one lease after it last heard from
 * them. Times are {@link System#nanoTime()} readings of this server.
 */
public final class MajorityContact {
    /** Per member address: when the question of its latest answer was sent. */
    private final Map<String, Long> answeredSince = new HashMap<>();

    /** {@code member} answered a question sent at {@code sentNanos}. */
    public void answered(String member, long sentNanos) {
        answeredSince.merge(member, sentNanos, (a, b) -> a - b >= 0 ? a : b);
    }

    /** Forgets the answers of servers that are no longer in the cluster at all. */
    public void forgetAllBut(Collection<String> present) {
        answeredSince.keySet().retainAll(present);
    }

    /**
     * The lease that the answers so far give.
     *
     * @param self this server's address
     * @param members the members that count now (this server among them once it has joined)
     * @param leaseNanos how long an answer lets this server write
     */
    public Lease lease(String self, Collection<String> members, long leaseNanos) {
        if (members.isEmpty() || (members.size() == 1 && members.contains(self))) {
            return Lease
                    .UNCONDITIONAL; // not joined yet (nothing sharded runs here), or a cluster of
            // one
        }
        if (!members.contains(self)) {
            return new Lease(
                    false, Long.MIN_VALUE, "this server is no longer a member of the cluster");
        }
        int othersNeeded = members.size() / 2;
        List<Long> heard = new ArrayList<>();
        for (String m : members) {
            Long at = answeredSince.get(m);
            if (!m.equals(self) && at != null) {
                heard.add(at);
            }
        }
        String why =
                "fewer than "
                        + othersNeeded
                        + " of the other "
                        + (members.size() - 1)
                        + " members of the cluster answered within "
                        + leaseNanos / 1_000_000
                        + " ms";
        if (heard.size() < othersNeeded) {
            return new Lease(false, Long.MIN_VALUE, why);
        }
        heard.sort(
                (a, b) -> Long.compare(b - a, 0)); // newest first (nanoTime order, overflow-safe)
        return new Lease(false, heard.get(othersNeeded - 1) + leaseNanos, why);
    }

    /**
     * A lease: unconditional, or valid until {@code untilNanos} ({@link Long#MIN_VALUE}: not at
     * all), after which writes are refused saying {@code why}.
     */
    public record Lease(boolean unconditional, long untilNanos, String why) {
        /** No time limit: a cluster of one, or a server that hosts nothing yet. */
        public static final Lease UNCONDITIONAL = new Lease(true, Long.MAX_VALUE, "");

        /** Whether it lets this server write at {@code nowNanos}. */
        public boolean valid(long nowNanos) {
            return unconditional || (untilNanos != Long.MIN_VALUE && nowNanos - untilNanos < 0);
        }
    }
}
