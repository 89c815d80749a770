package io.kubepekko.agent.logs;

import io.kubepekko.agent.cri.CriError;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStateValue;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's container log manager, as the kubelet's ({@code
 * pkg/kubelet/logs/container_log_manager.go}): every monitor period it lists the running containers
 * and rotates each log file that reached the size limit ({@link ContainerLogRotator}). One round at
 * a time; a tick that comes while a round runs is skipped. Only the agent's own containers are
 * touched: those with kube's pod labels whose log file lies under the agent's pod log directory. A
 * failure (the runtime down, a file that cannot be renamed) is logged and retried next round.
 */
public final class ContainerLogManager {
    private ContainerLogManager() {}

    /** kube's default {@code containerLogMonitorInterval}. */
    public static final Duration MONITOR_PERIOD = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(ContainerLogManager.class);

    /** The manager's protocol (its own messages only: it needs no input). */
    public sealed interface Command {}

    private enum Tick implements Command {
        INSTANCE
    }

    private record RoundDone(Throwable failure) implements Command {}

    /**
     * @param podLogsDir where the pods' log directories live ({@code NodeContext.podLogsDir()})
     * @param period how often logs are checked ({@link #MONITOR_PERIOD})
     */
    public static Behavior<Command> create(
            CriRuntime cri,
            Path podLogsDir,
            LogRotationPolicy policy,
            Duration period,
            Clock clock) {
        if (!policy.enabled()) {
            return Behaviors.ignore();
        }
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers -> {
                                    timers.startTimerWithFixedDelay(Tick.INSTANCE, period);
                                    Round round =
                                            new Round(
                                                    cri,
                                                    podLogsDir.toAbsolutePath().normalize(),
                                                    new ContainerLogRotator(cri, policy, clock),
                                                    ctx.getSystem()
                                                            .dispatchers()
                                                            .lookup(DispatcherSelector.blocking()));
                                    return idle(ctx, round);
                                }));
    }

    private static Behavior<Command> idle(ActorContext<Command> ctx, Round round) {
        return Behaviors.receive(Command.class)
                .onMessageEquals(
                        Tick.INSTANCE,
                        () -> {
                            ctx.pipeToSelf(round.run(), (v, t) -> new RoundDone(t));
                            return busy(ctx, round);
                        })
                .onMessage(RoundDone.class, d -> Behaviors.same())
                .build();
    }

    private static Behavior<Command> busy(ActorContext<Command> ctx, Round round) {
        return Behaviors.receive(Command.class)
                .onMessageEquals(Tick.INSTANCE, Behaviors::same)
                .onMessage(
                        RoundDone.class,
                        d -> {
                            if (d.failure() != null) {
                                LOG.warn(
                                        "container log rotation: cannot list the running containers: {}",
                                        CriError.of(d.failure()));
                            }
                            return idle(ctx, round);
                        })
                .build();
    }

    /** One pass over the running containers. */
    private record Round(
            CriRuntime cri, Path podLogsDir, ContainerLogRotator rotator, Executor blocking) {

        CompletableFuture<Void> run() {
            ContainerFilter running =
                    ContainerFilter.newBuilder()
                            .setState(
                                    ContainerStateValue.newBuilder()
                                            .setState(ContainerState.CONTAINER_RUNNING))
                            .build();
            return cri.listContainers(running)
                    .toCompletableFuture()
                    .thenAcceptAsync(this::rotateAll, blocking);
        }

        private void rotateAll(List<Container> containers) {
            for (Container c : containers) {
                if (!c.getLabelsMap().containsKey(SandboxConfigs.POD_UID_LABEL)) {
                    continue; // not a pod's container: not ours to touch
                }
                try {
                    String logPath =
                            cri.containerStatus(c.getId())
                                    .toCompletableFuture()
                                    .join()
                                    .getLogPath();
                    if (logPath.isEmpty()) {
                        continue;
                    }
                    Path log = Path.of(logPath).toAbsolutePath().normalize();
                    if (!log.startsWith(podLogsDir)) {
                        continue;
                    }
                    if (rotator.rotate(c.getId(), log) == ContainerLogRotator.Outcome.ROTATED) {
                        LOG.debug("rotated the log of container {} ({})", c.getId(), log);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn(
                            "cannot rotate the log of container {} ({}): {}",
                            c.getId(),
                            c.getMetadata().getName(),
                            e instanceof IOException ? e.toString() : CriError.of(e));
                }
            }
        }
    }
}
