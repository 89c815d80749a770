package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.pleg.PodLifecycleEvents;
import io.kubepekko.agent.pod.CrashLoopBackOff;
import io.kubepekko.agent.pod.PodSpec;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodConfigException;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.SandboxConfigs;
import io.kubepekko.agent.worker.ContainerSteps.Job;
import io.kubepekko.agent.worker.PodStatusBuilder.Waiting;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.japi.function.Function;

/**
 * One pod's sync loop (one actor per pod uid), as the kubelet's pod worker and {@code SyncPod}
 * (pkg/kubelet/kuberuntime/kuberuntime_manager.go) run it, against the runtime only: it finds what
 * is the pod's by CRI labels and never touches anything else.
 *
 * <p>It relists the pod's sandboxes and containers, publishes the status when it changed ({@link
 * StatusPublisher}), and runs one sync pass when {@link SyncTriggers} says (the node's relist saw
 * the pod change, its spec changed, a step changed something, a failure or a back-off to retry, a
 * probe stopped a container, an exit the runtime may yet report as an OOM kill ({@link
 * LateOomReasons}), the resync period); a healthy pod is not relisted every period. A pass is: the
 * sandbox first (a pass that runs it reads its status and goes on to the containers without
 * relisting, as SyncPod); then the init containers in order, each to completion; then the app
 * containers that should (re)start, a restarted one with attempt + 1 once its {@link
 * CrashLoopBackOff} has passed; a failed pull is retried after its own back-off ({@code
 * ImagePullBackOff} meanwhile). A container that cannot start records why (its waiting reason) and
 * the pass goes on with the next ({@link ContainerStarts} starts them one after the other). One
 * pass at a time; every CRI call is asynchronous and its result comes back as a message. A failure
 * is logged once per streak and retried a relist period later.
 *
 * <p>{@link Terminate} stops the containers with the grace period, then stops and removes the
 * sandboxes, replies and stops the worker (a later {@code Terminate} with a shorter grace period
 * kills again with it: {@link TerminationRequests}); it does not wait for a sync step in flight
 * (whose result is then dropped). Probes run in a child {@link ProbeManager}: its results feed the
 * status; a container it stopped is restarted by the next pass. Containers run their postStart and
 * preStop hooks ({@link LifecycleHooks}); what happens is reported to the {@link EventSink} as the
 * kubelet's events. Not yet: sandbox re-creation when the sandbox dies.
 */
public final class PodWorker extends AbstractBehavior<PodWorker.Command> {

    /** The worker's protocol. */
    public sealed interface Command {}

    /**
     * The pod's desired state changed (or its ConfigMaps/Secrets did). The uid must stay the same.
     */
    public record Update(JsonNode pod, PodInputs inputs) implements Command {}

    /**
     * Stop the pod's containers (SIGTERM, SIGKILL after {@code gracePeriod}), tear its sandbox
     * down, then stop.
     */
    public record Terminate(Duration gracePeriod, ActorRef<Terminated> replyTo)
            implements Command {}

    /** The reply to {@link Terminate}: nothing of the pod is left in the runtime. */
    public record Terminated(String uid) {}

    private enum Tick implements Command {
        INSTANCE
    }

    private record Relisted(ObservedPod observed) implements Command {}

    private record SandboxRan(String id, int attempt) implements Command {}

    /** What the pod is with the sandbox just run, its status read (no relist). */
    private record SandboxObserved(ObservedPod observed) implements Command {}

    private record StartStep(ContainerStarts.Step step) implements Command {}

    /** A step of the pod failed (a container's failures are {@link ContainerStarts}'). */
    private record StepFailed(String step, ContainerSteps.Failure failure) implements Command {}

    private record TerminationDone() implements Command {}

    private enum RetryTerminate implements Command {
        INSTANCE
    }

    private record Probed(ProbeManager.Report report) implements Command {}

    /**
     * A worker for {@code pod}; it subscribes to {@code lifecycle} (the node's relist) by the pod's
     * uid while it lives.
     */
    public static Behavior<Command> create(
            JsonNode pod,
            PodInputs inputs,
            CriRuntime cri,
            NodeContext node,
            StatusSink sink,
            EventSink events,
            Clock clock,
            PodWorkerSettings settings,
            ActorRef<PodLifecycleEvents.Command> lifecycle) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new PodWorker(
                                                ctx,
                                                timers,
                                                pod,
                                                inputs,
                                                cri,
                                                node,
                                                sink,
                                                new PodEvents(events, pod),
                                                clock,
                                                settings,
                                                lifecycle)));
    }

    private final TimerScheduler<Command> timers;

    /** The dispatcher of the worker's blocking runtime and file calls. */
    private final Executor blocking;

    private final CriRuntime cri;
    private final NodeContext node;
    private final PodEvents events;
    private final Clock clock;
    private final PodWorkerSettings settings;
    private final ContainerSteps steps;
    private final FailureStreaks failures;
    private final String uid;
    private final Instant startTime;
    private final StatusPublisher status;
    private final SyncTriggers<Command> sync;
    private final TerminationRequests terminating = new TerminationRequests();

    private JsonNode pod;
    private PodSpec spec;
    private PodInputs inputs;
    private ObservedPod observed = ObservedPod.NOTHING;
    private CrashLoopBackOff backOff;
    private final Map<String, Waiting> reasons = new HashMap<>();
    private final ContainerStarts<Command> starts;
    private final ActorRef<ProbeManager.Command> probes;
    private ProbeResults probeResults = ProbeResults.NONE;
    private final VolumeRefresh volumes;
    private final LateOomReasons lateOom;

    private PodWorker(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            JsonNode pod,
            PodInputs inputs,
            CriRuntime cri,
            NodeContext node,
            StatusSink sink,
            PodEvents events,
            Clock clock,
            PodWorkerSettings settings,
            ActorRef<PodLifecycleEvents.Command> lifecycle) {
        super(ctx);
        this.timers = timers;
        this.cri = cri;
        this.node = node;
        this.status = new StatusPublisher(sink);
        this.events = events;
        this.clock = clock;
        this.settings = settings;
        this.blocking = ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
        this.steps = new ContainerSteps(cri, node, blocking);
        this.pod = pod;
        this.spec = PodSpec.of(pod.path("spec"));
        this.inputs = inputs;
        this.uid = pod.path("metadata").path("uid").asText();
        // Set once: a pod the API already shows started (an agent restart) keeps its time.
        this.startTime =
                PodStatusBuilder.parseTime(pod.path("status").path("startTime").asText(""))
                        .orElse(clock.instant());
        this.backOff = settings.newBackOff();
        this.failures = new FailureStreaks(ctx.getLog(), uid);
        this.lateOom = new LateOomReasons(settings.relistPeriod(), settings.resyncPeriod());
        this.sync = new SyncTriggers<>(ctx, timers, Tick.INSTANCE, settings, uid, lifecycle);
        this.starts =
                new ContainerStarts<>(
                        ctx,
                        StartStep::new,
                        steps,
                        new ImageStep(settings.backOffInitial(), settings.backOffMax()),
                        events,
                        clock,
                        sync,
                        failures,
                        reasons,
                        uid,
                        () -> this.pod,
                        () -> this.inputs,
                        this::endPass);
        this.volumes = new VolumeRefresh(node, blocking, ctx.getLog(), uid);
        this.probes =
                ctx.spawn(
                        ProbeManager.create(
                                cri,
                                clock,
                                events,
                                settings.relistPeriod(),
                                ctx.messageAdapter(ProbeManager.Report.class, Probed::new),
                                node.hostIps()),
                        "probes");
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Update.class, this::onUpdate)
                .onMessage(Terminate.class, this::onTerminate)
                .onMessageEquals(Tick.INSTANCE, this::onTick)
                .onMessage(Relisted.class, syncing(this::onRelisted))
                .onMessage(SandboxRan.class, syncing(this::onSandboxRan))
                .onMessage(SandboxObserved.class, syncing(this::onSandboxObserved))
                .onMessage(StartStep.class, syncing(this::onStartStep))
                .onMessage(StepFailed.class, this::onStepFailed)
                .onMessage(TerminationDone.class, this::onTerminationDone)
                .onMessage(Probed.class, syncing(this::onProbed))
                .onMessageEquals(RetryTerminate.INSTANCE, this::terminate)
                .onSignal(
                        PostStop.class,
                        s -> {
                            sync.unsubscribe();
                            return this;
                        })
                .build();
    }

    /**
     * A sync step's result, dropped once the pod terminates: termination does not wait for a sync
     * in flight (a pull has no deadline); whatever that sync still creates in the sandbox goes with
     * the sandbox.
     */
    private <M> Function<M, Behavior<Command>> syncing(Function<M, Behavior<Command>> handler) {
        return m -> terminating.underWay() ? this : handler.apply(m);
    }

    // ---------------------------------------------------------------- commands

    private Behavior<Command> onUpdate(Update update) {
        String newUid = update.pod().path("metadata").path("uid").asText();
        if (!newUid.equals(uid)) {
            getContext().getLog().warn("pod worker {} ignores an update for uid {}", uid, newUid);
            return this;
        }
        pod = update.pod();
        spec = PodSpec.of(pod.path("spec"));
        events.pod(pod);
        inputs = update.inputs();
        // New ConfigMap/Secret content or labels/annotations reach the mounted volumes, never the
        // containers' env.
        observed.readySandbox().ifPresent(sandbox -> volumes.refresh(pod, inputs, sandbox.ips()));
        sync.now();
        return this;
    }

    private Behavior<Command> onTerminate(Terminate terminate) {
        switch (terminating.take(terminate)) {
            case BEGIN -> {
                sync.stop();
                starts.clear();
                terminate();
            }
            case SHORTEN -> terminate(); // what still runs is killed again with the shorter period
            case NOTHING -> {}
        }
        return this;
    }

    private Behavior<Command> onTick() {
        if (!terminating.underWay() && sync.begin()) {
            relist();
        }
        return this;
    }

    // ---------------------------------------------------------------- relist, sandbox, plan

    private void relist() {
        getContext()
                .pipeToSelf(
                        Relister.observe(cri, uid),
                        (o, t) -> t == null ? new Relisted(o) : failed("relist", t));
    }

    private Behavior<Command> onRelisted(Relisted relisted) {
        failures.succeeded("relist");
        return onObserved(relisted.observed());
    }

    private Behavior<Command> onObserved(ObservedPod now) {
        observed = now;
        publishStatus();
        // An exit the runtime may still report as an OOM kill: nothing in a listing would say so.
        lateOom.readAgainAfter(observed).ifPresent(wait -> sync.wakeUp("late OOM reason", wait));
        String phase = status.last().path("phase").asText();
        probes.tell(
                new ProbeManager.Seen(
                        pod, spec, observed, phase.equals("Succeeded") || phase.equals("Failed")));
        Optional<ObservedPod.Sandbox> sandbox = observed.readySandbox();
        if (sandbox.isEmpty()) {
            runSandbox();
            return this;
        }
        // As the sandbox was created: CreateContainer gets its config too.
        sandboxConfig(sandbox.get().attempt())
                .ifPresent(
                        config -> {
                            PassPlanner.Plan plan =
                                    PassPlanner.plan(pod, spec, observed, backOff, clock.instant());
                            backOff = plan.backOff();
                            events.backOffs(plan.waits(), reasons);
                            if (!plan.waits().isEmpty()) {
                                sync.retryLater();
                            }
                            reasons.putAll(plan.waits());
                            plan.wakeUps()
                                    .forEach((name, wait) -> sync.wakeUp("back-off " + name, wait));
                            plan.starts()
                                    .forEach(
                                            s ->
                                                    starts.add(
                                                            new Job(
                                                                    s.container(),
                                                                    s.spec(),
                                                                    s.attempt(),
                                                                    sandbox.get(),
                                                                    config)));
                        });
        starts.next();
        return this;
    }

    /**
     * The sandbox's config as created for {@code attempt}; empty (the failure logged) if the pod
     * cannot have one.
     */
    private Optional<PodSandboxConfig> sandboxConfig(int attempt) {
        try {
            return Optional.of(SandboxConfigs.build(pod, attempt, node).config());
        } catch (PodConfigException e) {
            sync.retryLater();
            failures.failed("sandbox", e.eventMessage());
            return Optional.empty();
        }
    }

    private void runSandbox() {
        int attempt = observed.sandboxIds().size();
        Optional<PodSandboxConfig> config = sandboxConfig(attempt);
        if (config.isEmpty()) {
            endPass();
            return;
        }
        getContext()
                .getLog()
                .debug(
                        "pod {} sandbox requested",
                        uid); // with the "running" line: the runtime's time
        getContext()
                .pipeToSelf(
                        steps.runSandbox(config.get(), settings.runtimeHandler()),
                        (id, t) -> t == null ? new SandboxRan(id, attempt) : failed("sandbox", t));
    }

    private Behavior<Command> onSandboxRan(SandboxRan ran) {
        failures.succeeded("sandbox");
        getContext().getLog().info("pod {} sandbox {} running", uid, ran.id());
        sync.progressed();
        // As SyncPod: the sandbox's status (its IPs) and on to the containers in the same pass, no
        // relist between.
        getContext()
                .pipeToSelf(
                        Relister.withSandboxRun(cri, uid, observed, ran.id(), ran.attempt()),
                        (o, t) -> t == null ? new SandboxObserved(o) : failed("sandbox status", t));
        return this;
    }

    private Behavior<Command> onSandboxObserved(SandboxObserved sandbox) {
        failures.succeeded("sandbox status");
        getContext().getLog().debug("pod {} sandbox status read", uid);
        return onObserved(sandbox.observed());
    }

    // ---------------------------------------------------------------- starting containers, a
    // failed step

    private Behavior<Command> onStartStep(StartStep step) {
        starts.on(step.step());
        return this;
    }

    private Behavior<Command> onStepFailed(StepFailed failure) {
        if (failure.step().equals("terminate")) {
            failures.failed(failure.step(), failure.step() + ": " + failure.failure().message());
            timers.startSingleTimer("terminate", RetryTerminate.INSTANCE, settings.relistPeriod());
            return this;
        }
        if (terminating.underWay()) {
            return this;
        }
        sync.retryLater();
        failures.failed(failure.step(), failure.step() + ": " + failure.failure().message());
        endPass();
        return this;
    }

    private void endPass() {
        publishStatus();
        sync.passEnded();
    }

    // ---------------------------------------------------------------- status

    private Behavior<Command> onProbed(Probed probed) {
        probeResults = probed.report().results();
        publishStatus();
        if (probed.report().relist()) {
            sync.now(); // a container was stopped: restart it now
        }
        return this;
    }

    private void publishStatus() {
        status.publish(
                pod,
                PodStatusBuilder.build(
                        new PodStatusBuilder.Input(
                                pod,
                                spec,
                                observed,
                                Map.copyOf(reasons),
                                node.hostIps(),
                                Optional.of(startTime),
                                settings.runtimeName(),
                                probeResults.readiness(),
                                status.previousConditions(pod),
                                clock.instant(),
                                probeResults.started())));
    }

    // ---------------------------------------------------------------- termination

    private Behavior<Command> terminate() {
        getContext()
                .pipeToSelf(
                        PodTermination.run(
                                cri,
                                node.cgroups(),
                                blocking,
                                clock,
                                events,
                                uid,
                                terminating.gracePeriod(),
                                observed),
                        (v, t) -> t == null ? new TerminationDone() : failed("terminate", t));
        return this;
    }

    private Behavior<Command> onTerminationDone(TerminationDone done) {
        getContext().getLog().info("pod {} terminated: containers stopped, sandbox removed", uid);
        terminating.reply(uid);
        return Behaviors.stopped();
    }

    // ---------------------------------------------------------------- helpers

    private static StepFailed failed(String step, Throwable t) {
        return new StepFailed(step, ContainerSteps.criFailure(t, null));
    }
}
