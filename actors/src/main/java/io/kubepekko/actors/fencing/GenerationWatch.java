package io.kubepekko.actors.fencing;

import io.kubepekko.persistence.fencing.WritePermit;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Beats in the storage for this member and keeps the {@link WritePermit}'s generation lease: every
 * {@code interval} it records a beat, then reads the cluster generation; while that is still the
 * one this server joined under, the permit holds until {@code lease} after the round began. A newer
 * generation means a server formed a new cluster on the same keyspace because this one looked dead
 * (see {@link ClusterFormation}): the permit ends for good and {@code onSuperseded} stops the
 * server, whose supervisor starts it again to join the new cluster.
 *
 * <p>A round whose beat fails renews nothing: a starting server decides from the beats whether this
 * cluster is alive, so a server may write only while others can see it beat.
 */
public final class GenerationWatch {
    /** The actor's name under {@code /system}. */
    public static final String NAME = "generation-watch";

    /** The storage side ({@code FormationTable} on Cassandra). */
    public interface Store {
        CompletionStage<Void> beat(String member, long generation, long beat);

        CompletionStage<Optional<Long>> generation();
    }

    /** What the actor handles. */
    public sealed interface Command {}

    private enum Tick implements Command {
        INSTANCE
    }

    private record RoundDone(long startedNanos, Optional<Long> generation, String error)
            implements Command {}

    private GenerationWatch() {}

    /**
     * @param self this member's name in the beats (address and incarnation)
     * @param joinedUnder the generation this server joined under (empty: the first one it reads)
     */
    public static Behavior<Command> create(
            Store store,
            WritePermit permit,
            String self,
            Optional<Long> joinedUnder,
            Duration interval,
            Duration lease,
            Runnable onSuperseded) {
        return Behaviors.setup(
                context ->
                        Behaviors.withTimers(
                                timers -> {
                                    // Else the logger is named after Pekko's behaviour class, which
                                    // logs at WARN only.
                                    context.setLoggerName(GenerationWatch.class);
                                    timers.startTimerWithFixedDelay(Tick.INSTANCE, interval);
                                    return new GenerationWatch.Running(
                                                    context,
                                                    store,
                                                    permit,
                                                    self,
                                                    joinedUnder,
                                                    lease.toNanos(),
                                                    onSuperseded)
                                            .behavior();
                                }));
    }

    private static final class Running {
        private final ActorContext<Command> context;
        private final Store store;
        private final WritePermit permit;
        private final String self;
        private final long leaseNanos;
        private final Runnable onSuperseded;
        private Optional<Long> generation;
        private long beats;
        private boolean inFlight;
        private boolean confirmed = true;

        Running(
                ActorContext<Command> context,
                Store store,
                WritePermit permit,
                String self,
                Optional<Long> generation,
                long leaseNanos,
                Runnable onSuperseded) {
            this.context = context;
            this.store = store;
            this.permit = permit;
            this.self = self;
            this.generation = generation;
            this.leaseNanos = leaseNanos;
            this.onSuperseded = onSuperseded;
        }

        Behavior<Command> behavior() {
            return Behaviors.receive(Command.class)
                    .onMessageEquals(Tick.INSTANCE, this::round)
                    .onMessage(RoundDone.class, this::onRound)
                    .build();
        }

        private Behavior<Command> round() {
            if (inFlight) {
                return Behaviors.same();
            }
            inFlight = true;
            long started = System.nanoTime();
            CompletionStage<Optional<Long>> done =
                    store.beat(self, generation.orElse(0L), ++beats)
                            .thenCompose(v -> store.generation());
            context.pipeToSelf(
                    done,
                    (g, error) ->
                            new RoundDone(
                                    started,
                                    g == null ? Optional.empty() : g,
                                    error == null ? null : String.valueOf(error.getMessage())));
            return Behaviors.same();
        }

        private Behavior<Command> onRound(RoundDone r) {
            inFlight = false;
            if (r.error() != null || r.generation().isEmpty()) {
                if (confirmed) {
                    confirmed = false;
                    context.getLog()
                            .warn(
                                    "cannot confirm in the storage that this cluster still owns it ({});"
                                            + " journal writes stop when the last confirmation is {} old",
                                    r.error() != null ? r.error() : "no generation recorded",
                                    Duration.ofNanos(leaseNanos));
                }
                return Behaviors.same();
            }
            long current = r.generation().get();
            if (generation.isEmpty()) {
                generation = Optional.of(current);
            }
            if (current != generation.get()) {
                String why =
                        "a newer cluster (generation "
                                + current
                                + ") formed on this storage while this one"
                                + " (generation "
                                + generation.get()
                                + ") looked dead; this server stops";
                permit.supersede(why);
                context.getLog().error("{}: journal writes refused for good", why);
                onSuperseded.run();
                return Behaviors.stopped();
            }
            permit.grantGenerationUntil(
                    r.startedNanos() + leaseNanos,
                    "the storage has not confirmed for "
                            + Duration.ofNanos(leaseNanos).toMillis()
                            + " ms that this cluster (generation "
                            + current
                            + ") still owns it");
            if (!confirmed) {
                confirmed = true;
                context.getLog().info("the storage confirms again that this cluster owns it");
            }
            return Behaviors.same();
        }
    }
}
