package io.kubepekko.actors.fencing;

import io.kubepekko.persistence.CborSerializable;
import io.kubepekko.persistence.fencing.WritePermit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.ActorPath;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.RootActorPath;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Keeps this server's {@link WritePermit} as a lease on the majority: every {@code interval} it
 * asks each other member's {@code PeerContact} (at {@code /system/peer-contact}) for an answer, and
 * renews the permit from the answers ({@link MajorityContact}). A server that is still joining may
 * write (nothing is placed on it yet); one the cluster downed may not.
 *
 * <p>Safety rests on one inequality: the lease is shorter than the time between the moment the
 * others stop hearing from this server and the moment sharding starts its entities elsewhere (the
 * failure detector's pause, plus the split-brain resolver's {@code stable-after}, plus the removal
 * margin). {@link #checkLease} refuses a configuration that breaks it.
 */
public final class PeerContact {
    /**
     * The actor's name under {@code /system}: the same on every member, so peers find each other.
     */
    public static final String NAME = "peer-contact";

    /** What the actor handles. */
    public sealed interface Command {}

    /**
     * A member's question, sent at {@code sentNanos} of its own clock: answered with a {@link
     * Pong}.
     */
    public record Ping(long sentNanos, ActorRef<Pong> replyTo)
            implements Command, CborSerializable {}

    /** The answer to a {@link Ping}, naming the member that answers. */
    public record Pong(long sentNanos, String from) implements Command, CborSerializable {}

    private enum Tick implements Command {
        INSTANCE
    }

    /**
     * The members whose answers count towards the majority. Joining members host nothing yet, and
     * exiting ones have handed their shards over and stop answering when they go; a member marked
     * down counts until it is removed, so that a server cannot make itself a majority by downing
     * the others.
     */
    private static final Set<MemberStatus> COUNTED =
            Set.of(MemberStatus.up(), MemberStatus.leaving(), MemberStatus.down());

    private static final String LEFT = "this server has left the cluster";

    private PeerContact() {}

    /**
     * @param permit the permit to keep
     * @param interval how often every other member is asked
     * @param lease how long an answer lets this server write
     */
    public static Behavior<Command> create(WritePermit permit, Duration interval, Duration lease) {
        return Behaviors.setup(
                context ->
                        Behaviors.withTimers(
                                timers -> {
                                    // Else the logger is named after Pekko's behaviour class, which
                                    // logs at WARN only.
                                    context.setLoggerName(PeerContact.class);
                                    timers.startTimerWithFixedDelay(Tick.INSTANCE, interval);
                                    return running(
                                            context,
                                            permit,
                                            new MajorityContact(),
                                            lease.toNanos());
                                }));
    }

    /**
     * Refuses a lease that could outlast the time the other members wait before replacing a member
     * they no longer hear from.
     */
    public static void checkLease(Duration lease, Duration heartbeatPause, Duration stableAfter) {
        if (lease.compareTo(heartbeatPause.plus(stableAfter)) >= 0) {
            throw new IllegalArgumentException(
                    "kubepekko.cluster.write-lease.duration ("
                            + lease.toMillis()
                            + " ms) must be shorter than the failure detector's acceptable-heartbeat-pause plus the "
                            + "split-brain resolver's stable-after ("
                            + heartbeatPause.plus(stableAfter).toMillis()
                            + " ms)");
        }
    }

    /**
     * How long after the lease lapses the others can at the earliest have replaced this server:
     * they heard from it no earlier than the question that gave the lease was sent, and replace it
     * only after their failure detector's pause and the resolver's stable-after (then removal and
     * recovery take longer still).
     */
    public static Duration replacementMargin(
            Duration lease, Duration heartbeatPause, Duration stableAfter) {
        return heartbeatPause.plus(stableAfter).minus(lease);
    }

    private static Behavior<Command> running(
            ActorContext<Command> context,
            WritePermit permit,
            MajorityContact contact,
            long leaseNanos) {
        Cluster cluster = Cluster.get(context.getSystem());
        String self = cluster.selfMember().address().toString();
        ActorRef<Pong> replies = context.getSelf().narrow();
        ActorSystem classic = Adapter.toClassic(context.getSystem());
        boolean[] writing = {true};
        boolean[] joined = {false};
        Set<UniqueAddress> known = new HashSet<>();
        return Behaviors.receive(Command.class)
                .onMessageEquals(
                        Tick.INSTANCE,
                        () -> {
                            long now = System.nanoTime();
                            List<String> counted = new ArrayList<>();
                            List<String> present = new ArrayList<>();
                            for (Member m : cluster.state().getMembers()) {
                                MemberStatus status = m.status();
                                if (status == MemberStatus.removed()) {
                                    continue;
                                }
                                String address = m.address().toString();
                                present.add(address);
                                if (COUNTED.contains(status)) {
                                    counted.add(address);
                                    if (known.add(m.uniqueAddress())) {
                                        // A member that has just come Up counts as having answered
                                        // now: it cannot
                                        // have started to replace this server before now plus the
                                        // failure detector's
                                        // pause and stable-after, which the lease is shorter than.
                                        // Without this, the
                                        // first server of a cluster would refuse writes until the
                                        // second one's first
                                        // answer arrives.
                                        contact.answered(address, now);
                                    }
                                }
                                // Joining members are asked too, so that their answers are there
                                // when they come Up.
                                if (!address.equals(self)) {
                                    ActorPath peer =
                                            new RootActorPath(m.address(), "/")
                                                    .child("system")
                                                    .child(NAME);
                                    classic.actorSelection(peer)
                                            .tell(
                                                    new Ping(now, replies),
                                                    org.apache.pekko.actor.ActorRef.noSender());
                                }
                            }
                            contact.forgetAllBut(present);
                            known.removeIf(u -> !present.contains(u.address().toString()));
                            MemberStatus selfStatus = cluster.selfMember().status();
                            joined[0] |= selfStatus == MemberStatus.up();
                            MajorityContact.Lease lease;
                            if (selfStatus == MemberStatus.joining()
                                    || selfStatus == MemberStatus.weaklyUp()
                                    || (selfStatus == MemberStatus.removed() && !joined[0])) {
                                // Sharding places nothing here yet (before it joins, a server sees
                                // itself as removed).
                                lease = MajorityContact.Lease.UNCONDITIONAL;
                            } else if (selfStatus == MemberStatus.down()) {
                                lease =
                                        new MajorityContact.Lease(
                                                false,
                                                Long.MIN_VALUE,
                                                "this server was downed by the cluster");
                            } else if (selfStatus == MemberStatus.exiting()
                                    || selfStatus == MemberStatus.removed()) {
                                // Left in order: its shards were handed over before it got here.
                                lease = new MajorityContact.Lease(false, Long.MIN_VALUE, LEFT);
                            } else {
                                lease = contact.lease(self, counted, leaseNanos);
                            }
                            boolean valid = renew(permit, lease, now);
                            if (valid != writing[0]) {
                                writing[0] = valid;
                                if (valid) {
                                    context.getLog()
                                            .info(
                                                    "journal writes allowed again: a majority of the cluster answers");
                                } else if (lease.why().equals(LEFT)) {
                                    context.getLog().info("journal writes end: {}", LEFT);
                                } else {
                                    context.getLog()
                                            .warn(
                                                    "journal writes refused until a majority of the cluster answers: {}",
                                                    permit.refusal(now).orElse(""));
                                }
                            }
                            return Behaviors.same();
                        })
                .onMessage(
                        Ping.class,
                        ping -> {
                            ping.replyTo().tell(new Pong(ping.sentNanos(), self));
                            return Behaviors.same();
                        })
                .onMessage(
                        Pong.class,
                        pong -> {
                            contact.answered(pong.from(), pong.sentNanos());
                            return Behaviors.same();
                        })
                .build();
    }

    /** Sets the permit from the lease; whether it lets this server write now. */
    private static boolean renew(WritePermit permit, MajorityContact.Lease lease, long now) {
        if (lease.unconditional()) {
            permit.grantAlways();
            return true;
        }
        if (lease.valid(now)) {
            permit.grantUntil(lease.untilNanos(), lease.why());
            return true;
        }
        permit.grantUntil(now, lease.why());
        return false;
    }
}
