package io.kubepekko.actors.failover;

import com.typesafe.config.Config;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Tells {@link StrandedAsks} when a failed member was removed from the cluster: {@code grace} after
 * a member that was downed (not one that left in order: its shards were handed over, nothing was
 * lost) is removed, every ask sent before the removal and still open is stranded. The grace lets
 * asks to live servers that were in flight at the removal finish; it costs a stranded ask nothing
 * as long as it is not longer than {@code down-removal-margin}, since the dead member's shards
 * start elsewhere only after that.
 */
public final class RemovedMembers {
    /** The actor's name under {@code /system}. */
    public static final String NAME = "removed-members";

    /** What the actor handles. */
    public sealed interface Command {}

    /**
     * A member left the cluster.
     *
     * @param member its address
     * @param downed whether it was downed (failed) rather than leaving in order
     * @param removedAt when this server learnt it ({@code nanoClock})
     */
    public record Removed(String member, boolean downed, long removedAt) implements Command {}

    private record Strand(String member, long removedAt) implements Command {}

    private RemovedMembers() {}

    /** The configuration key of the grace (its default is in the actors' reference.conf). */
    static final String GRACE_PATH = "kubepekko.cluster.stranded-ask-grace";

    /**
     * Starts the actor under {@code /system} with the grace {@code
     * kubepekko.cluster.stranded-ask-grace} of the system's configuration, telling {@code asks} (on
     * {@code System::nanoTime}, as {@link StrandedAsks#on} makes it) of the removals.
     */
    public static void start(ActorSystem<?> system, StrandedAsks asks) {
        system.systemActorOf(
                create(asks, grace(system.settings().config()), System::nanoTime),
                NAME,
                Props.empty());
    }

    static Duration grace(Config config) {
        return config.getDuration(GRACE_PATH);
    }

    /** Subscribes to this server's view of removals. */
    public static Behavior<Command> create(
            StrandedAsks asks, Duration grace, LongSupplier nanoClock) {
        return Behaviors.setup(
                context -> {
                    ActorRef<ClusterEvent.MemberRemoved> adapter =
                            context.messageAdapter(
                                    ClusterEvent.MemberRemoved.class,
                                    e ->
                                            new Removed(
                                                    e.member().address().toString(),
                                                    e.previousStatus() == MemberStatus.down(),
                                                    nanoClock.getAsLong()));
                    Cluster.get(context.getSystem())
                            .subscriptions()
                            .tell(Subscribe.create(adapter, ClusterEvent.MemberRemoved.class));
                    return behavior(asks, grace);
                });
    }

    /** The behaviour without the cluster subscription ({@link Removed} sent by the caller). */
    static Behavior<Command> behavior(StrandedAsks asks, Duration grace) {
        return Behaviors.setup(
                context -> {
                    // A functional behaviour's logger would be named after Pekko's class (logged at
                    // WARN only).
                    context.setLoggerName(RemovedMembers.class);
                    return Behaviors.withTimers(
                            timers ->
                                    Behaviors.receive(Command.class)
                                            .onMessage(
                                                    Removed.class,
                                                    r -> {
                                                        if (r.downed()) {
                                                            timers.startSingleTimer(
                                                                    r,
                                                                    new Strand(
                                                                            r.member(),
                                                                            r.removedAt()),
                                                                    grace);
                                                        }
                                                        return Behaviors.same();
                                                    })
                                            .onMessage(
                                                    Strand.class,
                                                    s -> {
                                                        int stranded =
                                                                asks.strandSentBefore(
                                                                        s.removedAt(), s.member());
                                                        if (stranded > 0) {
                                                            context.getLog()
                                                                    .info(
                                                                            "{} request(s) in flight when {} failed were still unanswered at its removal:"
                                                                                    + " reads asked again, writes answered 504",
                                                                            stranded,
                                                                            s.member());
                                                        }
                                                        return Behaviors.same();
                                                    })
                                            .build());
                });
    }
}
