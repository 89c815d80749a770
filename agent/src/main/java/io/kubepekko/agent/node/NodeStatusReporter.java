package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.PatchType;
import io.kubepekko.agent.api.Resource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Keeps the Node's status as the kubelet's {@code syncNodeStatus} does: every status update period
 * it reads the Node, asks the runtime for its status (RuntimeReady, NetworkReady: {@link
 * RuntimeHealth}), version and images, computes the status ({@link NodeStatus}) and patches {@code
 * nodes/{name}/status} when it changed — or when the last report is older than the report frequency
 * (5 minutes), so heartbeat times still move. A Node that is not there (404) is handed to {@link
 * NodeRegistration}. Failures are retried on the next period and logged once per streak.
 */
public final class NodeStatusReporter extends AbstractBehavior<NodeStatusReporter.Command> {

    /** The actor's messages. */
    public sealed interface Command {}

    private enum Sync implements Command {
        INSTANCE
    }

    private record Gathered(
            ObjectNode node,
            HostFacts host,
            Optional<List<RuntimeFacts.Condition>> conditions,
            Optional<RuntimeFacts.Version> version,
            Optional<List<RuntimeFacts.Image>> images)
            implements Command {}

    private record Patched(ObjectNode status, Instant at) implements Command {}

    private record Failed(String what, ApiError error) implements Command {}

    private static final Duration RUNTIME_TIMEOUT = Duration.ofSeconds(5);

    public static Behavior<Command> create(
            ApiClient client,
            RuntimeFacts runtime,
            NodeAgentSettings settings,
            ActorRef<NodeRegistration.Command> registration,
            ActorRef<NodeEvent> events,
            Clock clock) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new NodeStatusReporter(
                                                ctx,
                                                timers,
                                                client,
                                                runtime,
                                                settings,
                                                registration,
                                                events,
                                                clock)));
    }

    private final TimerScheduler<Command> timers;
    private final ApiClient client;
    private final RuntimeFacts runtime;
    private final NodeAgentSettings settings;
    private final ActorRef<NodeRegistration.Command> registration;
    private final ActorRef<NodeEvent> events;
    private final Clock clock;
    private final String nodePath;
    private RuntimeHealth health;
    private Optional<Instant> lastReport = Optional.empty();
    private Backoff failures = Backoff.kubelet();
    private boolean runtimeFailing;

    private NodeStatusReporter(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            ApiClient client,
            RuntimeFacts runtime,
            NodeAgentSettings settings,
            ActorRef<NodeRegistration.Command> registration,
            ActorRef<NodeEvent> events,
            Clock clock) {
        super(ctx);
        this.timers = timers;
        this.client = client;
        this.runtime = runtime;
        this.settings = settings;
        this.registration = registration;
        this.events = events;
        this.clock = clock;
        this.nodePath = Resource.NODES.object(null, settings.identity().name());
        this.health = RuntimeHealth.unchecked(settings.runtimeDownAfter());
        ctx.getSelf().tell(Sync.INSTANCE);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(
                        Sync.INSTANCE,
                        () -> {
                            gather();
                            return this;
                        })
                .onMessage(Gathered.class, this::onGathered)
                .onMessage(
                        Patched.class,
                        p -> {
                            lastReport = Optional.of(p.at());
                            succeeded();
                            events.tell(new NodeEvent.StatusSynced(true, p.status()));
                            return next();
                        })
                .onMessage(
                        Failed.class,
                        f -> {
                            if (f.error().isNotFound()) {
                                registration.tell(NodeRegistration.NodeMissing.INSTANCE);
                            }
                            failures = failures.failed();
                            if (failures.firstOfStreak()) {
                                getContext()
                                        .getLog()
                                        .warn(
                                                "Error updating node {} status ({}), will retry: {}",
                                                settings.identity().name(),
                                                f.what(),
                                                f.error());
                            }
                            return next();
                        })
                .build();
    }

    private Behavior<Command> next() {
        timers.startSingleTimer(Sync.INSTANCE, settings.statusUpdateFrequency());
        return this;
    }

    private void succeeded() {
        if (failures.failures() > 0) {
            getContext()
                    .getLog()
                    .info(
                            "Node {} status updated again after {} failed attempts",
                            settings.identity().name(),
                            failures.failures());
        }
        failures = failures.succeeded();
    }

    /**
     * Everything a status needs, asked for at once: the Node, the host's facts, the runtime's
     * answers.
     */
    private void gather() {
        CompletableFuture<Optional<List<RuntimeFacts.Condition>>> conditions =
                optional(runtime.status().toCompletableFuture());
        CompletableFuture<Optional<RuntimeFacts.Version>> version =
                optional(runtime.version().toCompletableFuture());
        CompletableFuture<Optional<List<RuntimeFacts.Image>>> images =
                optional(runtime.images().toCompletableFuture());
        CompletableFuture<HostFacts> host =
                CompletableFuture.supplyAsync(() -> HostFacts.read(settings.rootDir()));
        CompletableFuture<ObjectNode> node = client.get(nodePath).toCompletableFuture();
        CompletableFuture<Gathered> all =
                node.thenCompose(
                        n ->
                                CompletableFuture.allOf(conditions, version, images, host)
                                        .thenApply(
                                                x ->
                                                        new Gathered(
                                                                n,
                                                                host.join(),
                                                                conditions.join(),
                                                                version.join(),
                                                                images.join())));
        getContext()
                .pipeToSelf(all, (g, t) -> t == null ? g : new Failed("get node", ApiError.of(t)));
    }

    private static <T> CompletableFuture<Optional<T>> optional(CompletableFuture<T> f) {
        return f.orTimeout(RUNTIME_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .handle((v, t) -> t == null ? Optional.ofNullable(v) : Optional.empty());
    }

    private Behavior<Command> onGathered(Gathered g) {
        Instant now = clock.instant();
        if (g.conditions().isPresent()) {
            health = health.answered(g.conditions().get(), now);
            if (runtimeFailing) {
                getContext().getLog().info("Container runtime answers again");
            }
            runtimeFailing = false;
        } else if (!runtimeFailing) {
            runtimeFailing = true;
            getContext().getLog().warn("Container runtime did not answer its status");
        }
        List<String> notReady = new ArrayList<>(health.errors(now));
        NodeStatus.Inputs in =
                new NodeStatus.Inputs(
                        settings.nodeIps(),
                        settings.maxPods(),
                        settings.kubeletPort(),
                        settings.agentVersion(),
                        g.version(),
                        g.images(),
                        notReady);
        ObjectNode before =
                g.node().path("status") instanceof ObjectNode s ? s : g.node().putObject("status");
        ObjectNode after = NodeStatus.compute(before, g.host(), in, now);
        boolean due =
                lastReport
                        .map(t -> !now.isBefore(t.plus(settings.statusReportFrequency())))
                        .orElse(true);
        if (!due && !NodeStatus.hasChanged(before, after)) {
            succeeded();
            events.tell(new NodeEvent.StatusSynced(false, after));
            return next();
        }
        var patched =
                client.patch(
                        Resource.NODES.subresource(null, settings.identity().name(), "status"),
                        PatchType.STRATEGIC_MERGE,
                        NodeStatus.patch(after));
        getContext()
                .pipeToSelf(
                        patched,
                        (n, t) ->
                                t == null
                                        ? new Patched((ObjectNode) n.path("status"), now)
                                        : new Failed("patch status", ApiError.of(t)));
        return this;
    }
}
