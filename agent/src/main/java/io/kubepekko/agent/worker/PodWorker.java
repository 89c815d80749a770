package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriError;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.cri.v1.Image;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.pod.ContainerRestarts;
import io.kubepekko.agent.pod.ContainerSpec;
import io.kubepekko.agent.pod.CrashLoopBackOff;
import io.kubepekko.agent.pod.PodSpec;
import io.kubepekko.agent.runtime.ContainerConfigs;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodConfigException;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.SandboxConfigs;
import io.kubepekko.agent.runtime.VolumePlan;
import io.kubepekko.agent.runtime.VolumePlanner;
import io.kubepekko.agent.runtime.VolumeWriter;
import io.kubepekko.agent.worker.PodStatusBuilder.Waiting;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * One pod's sync loop (one actor per pod uid), as the kubelet's pod worker and {@code SyncPod}
 * (pkg/kubelet/kuberuntime/kuberuntime_manager.go) run it, against the runtime only: it finds what is the pod's
 * by CRI labels and never touches anything else.
 *
 * <p>Every relist period (and at once after a step that changed something) it relists the pod's sandboxes and
 * containers, publishes the status when it changed, and runs one sync pass: the sandbox first; then the init
 * containers in order, each to completion; then the app containers that should (re)start, a restarted one with
 * attempt + 1 once its {@link CrashLoopBackOff} has passed; a failed pull is retried after its own back-off
 * ({@code ImagePullBackOff} meanwhile). A container that cannot start records why (its
 * waiting reason) and the pass goes on with the next. One pass at a time; every CRI call is asynchronous and
 * its result comes back as a message. A failure is logged once per streak and retried at the next relist.
 *
 * <p>{@link Terminate} stops the containers with the grace period, then stops and removes the sandboxes,
 * replies and stops the worker; it does not wait for a sync step in flight (whose result is then dropped). Not yet:
 * preStop hooks, probes, pod conditions, sandbox re-creation when the sandbox dies.
 */
public final class PodWorker extends AbstractBehavior<PodWorker.Command> {

    /** The worker's protocol. */
    public sealed interface Command {}

    /** The pod's desired state changed (or its ConfigMaps/Secrets did). The uid must stay the same. */
    public record Update(JsonNode pod, PodInputs inputs) implements Command {}

    /** Stop the pod's containers (SIGTERM, SIGKILL after {@code gracePeriod}), tear its sandbox down, then stop. */
    public record Terminate(Duration gracePeriod, ActorRef<Terminated> replyTo) implements Command {}

    /** The reply to {@link Terminate}: nothing of the pod is left in the runtime. */
    public record Terminated(String uid) {}

    private enum Tick implements Command { INSTANCE }

    private record Relisted(ObservedPod observed) implements Command {}

    private record SandboxRan(String id) implements Command {}

    private record ImageChecked(Job job, Optional<Image> image) implements Command {}

    private record ImageReady(Job job, String imageRef) implements Command {}

    private record Prepared(Job job, ContainerConfigs.Plan plan) implements Command {}

    private record Created(Job job, String containerId) implements Command {}

    private record Started(Job job) implements Command {}

    /** A step failed; {@code waiting} is what the container shows for it (null: nothing container-specific). */
    private record StepFailed(String step, String message, Job job, Waiting waiting) implements Command {}

    private record TerminationDone() implements Command {}

    private enum RetryTerminate implements Command { INSTANCE }

    /** One container to start in this pass. */
    private record Job(JsonNode container, ContainerSpec spec, int attempt, ObservedPod.Sandbox sandbox,
                       PodSandboxConfig sandboxConfig) {}

    public static final String ERR_IMAGE_NEVER_PULL = "ErrImageNeverPull";
    public static final String ERR_IMAGE_PULL = "ErrImagePull";
    public static final String IMAGE_PULL_BACK_OFF = "ImagePullBackOff";
    public static final String CREATE_CONTAINER_CONFIG_ERROR = "CreateContainerConfigError";
    public static final String CREATE_CONTAINER_ERROR = "CreateContainerError";
    public static final String RUN_CONTAINER_ERROR = "RunContainerError";

    public static Behavior<Command> create(JsonNode pod, PodInputs inputs, CriRuntime cri, NodeContext node,
                                           StatusSink sink, Clock clock, PodWorkerSettings settings) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
                new PodWorker(ctx, timers, pod, inputs, cri, node, sink, clock, settings)));
    }

    private final TimerScheduler<Command> timers;
    private final CriRuntime cri;
    private final NodeContext node;
    private final StatusSink sink;
    private final Clock clock;
    private final PodWorkerSettings settings;
    private final Executor blocking;
    private final String uid;
    private final Instant startTime;

    private JsonNode pod;
    private PodSpec spec;
    private PodInputs inputs;
    private ObservedPod observed = ObservedPod.NOTHING;
    private CrashLoopBackOff backOff;
    private final Map<String, Waiting> reasons = new HashMap<>();
    /** Per image, the pull back-off after a failed pull (the kubelet's image manager keys it by uid and image). */
    private final Map<String, CrashLoopBackOff.Entry> pullBackOff = new HashMap<>();
    private final Set<String> failing = new HashSet<>();
    private final Deque<Job> pass = new ArrayDeque<>();
    private boolean busy;
    private boolean progressed;
    private ObjectNode lastStatus;
    private Terminate terminating;

    private PodWorker(ActorContext<Command> ctx, TimerScheduler<Command> timers, JsonNode pod, PodInputs inputs,
                      CriRuntime cri, NodeContext node, StatusSink sink, Clock clock, PodWorkerSettings settings) {
        super(ctx);
        this.timers = timers;
        this.cri = cri;
        this.node = node;
        this.sink = sink;
        this.clock = clock;
        this.settings = settings;
        this.blocking = ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
        this.pod = pod;
        this.spec = PodSpec.of(pod.path("spec"));
        this.inputs = inputs;
        this.uid = pod.path("metadata").path("uid").asText();
        this.startTime = clock.instant();
        this.backOff = settings.newBackOff();
        timers.startTimerWithFixedDelay("relist", Tick.INSTANCE, settings.relistPeriod());
        ctx.getSelf().tell(Tick.INSTANCE);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Update.class, this::onUpdate)
                .onMessage(Terminate.class, this::onTerminate)
                .onMessageEquals(Tick.INSTANCE, this::onTick)
                .onMessage(Relisted.class, syncing(this::onRelisted))
                .onMessage(SandboxRan.class, syncing(this::onSandboxRan))
                .onMessage(ImageChecked.class, syncing(this::onImageChecked))
                .onMessage(ImageReady.class, syncing(this::onImageReady))
                .onMessage(Prepared.class, syncing(this::onPrepared))
                .onMessage(Created.class, syncing(this::onCreated))
                .onMessage(Started.class, syncing(this::onStarted))
                .onMessage(StepFailed.class, this::onStepFailed)
                .onMessage(TerminationDone.class, this::onTerminationDone)
                .onMessageEquals(RetryTerminate.INSTANCE, () -> {
                    terminate();
                    return this;
                })
                .build();
    }

    /**
     * A sync step's result, dropped once the pod terminates: termination does not wait for a sync in flight (a
     * pull has no deadline); whatever that sync still creates in the sandbox goes with the sandbox.
     */
    private <M> org.apache.pekko.japi.function.Function<M, Behavior<Command>> syncing(
            org.apache.pekko.japi.function.Function<M, Behavior<Command>> handler) {
        return m -> terminating != null ? this : handler.apply(m);
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
        inputs = update.inputs();
        getContext().getSelf().tell(Tick.INSTANCE);
        return this;
    }

    private Behavior<Command> onTerminate(Terminate terminate) {
        if (terminating == null) {
            terminating = terminate;
            timers.cancelAll();
            pass.clear();
            terminate();
        }
        return this;
    }

    private Behavior<Command> onTick() {
        if (busy || terminating != null) {
            return this; // one sync at a time; the pass in flight relists when it ends
        }
        busy = true;
        progressed = false;
        relist();
        return this;
    }

    // ---------------------------------------------------------------- relist

    private void relist() {
        getContext().pipeToSelf(Relister.observe(cri, uid), (o, t) -> t == null ? new Relisted(o) : failed("relist", t, null, null));
    }

    private Behavior<Command> onRelisted(Relisted relisted) {
        succeeded("relist");
        observed = relisted.observed();
        publishStatus();
        if (observed.readySandbox().isEmpty()) {
            runSandbox();
            return this;
        }
        pass.addAll(plan(observed.readySandbox().get()));
        nextJob();
        return this;
    }

    // ---------------------------------------------------------------- the sandbox

    private PodSandboxConfig sandboxConfig(int attempt) throws PodConfigException {
        return SandboxConfigs.build(pod, attempt, node).config();
    }

    private void runSandbox() {
        PodSandboxConfig config;
        try {
            config = sandboxConfig(observed.sandboxIds().size());
        } catch (PodConfigException e) {
            logFailure("sandbox", e.eventMessage());
            endPass();
            return;
        }
        // The kubelet creates the pod's log directory before it asks for the sandbox.
        CompletionStage<String> ran = CompletableFuture
                .runAsync(() -> createDirectories(Path.of(config.getLogDirectory())), blocking)
                .thenCompose(v -> cri.runPodSandbox(config, settings.runtimeHandler()));
        getContext().pipeToSelf(ran, (id, t) -> t == null ? new SandboxRan(id) : failed("sandbox", t, null, null));
    }

    private Behavior<Command> onSandboxRan(SandboxRan ran) {
        succeeded("sandbox");
        getContext().getLog().info("pod {} sandbox {} running", uid, ran.id());
        progressed = true;
        relist();
        return this;
    }

    // ---------------------------------------------------------------- what to start

    /** The containers to start in this pass; records the waits (back-off) of those that must not start yet. */
    private List<Job> plan(ObservedPod.Sandbox sandbox) {
        PodSandboxConfig config;
        try {
            config = sandboxConfig(sandbox.attempt()); // as the sandbox was created: CreateContainer gets it too
        } catch (PodConfigException e) {
            logFailure("sandbox", e.eventMessage());
            return List.of();
        }
        Instant now = clock.instant();
        List<Job> jobs = new ArrayList<>();
        List<JsonNode> initJson = items(pod.path("spec").path("initContainers"));
        for (int i = 0; i < spec.initContainers().size(); i++) {
            ContainerSpec c = spec.initContainers().get(i);
            Optional<ContainerStatus> newest = observed.newest(c.name());
            if (newest.isPresent() && newest.get().getState() == ContainerState.CONTAINER_EXITED
                    && newest.get().getExitCode() == 0) {
                continue; // done: the next one
            }
            startIfDue(c, initJson.get(i), true, newest, sandbox, config, now).ifPresent(jobs::add);
            return jobs; // init containers run one at a time, each to completion
        }
        List<JsonNode> appJson = items(pod.path("spec").path("containers"));
        for (int i = 0; i < spec.containers().size(); i++) {
            ContainerSpec c = spec.containers().get(i);
            startIfDue(c, appJson.get(i), false, observed.newest(c.name()), sandbox, config, now).ifPresent(jobs::add);
        }
        return jobs;
    }

    private Optional<Job> startIfDue(ContainerSpec c, JsonNode json, boolean init, Optional<ContainerStatus> newest,
                                     ObservedPod.Sandbox sandbox, PodSandboxConfig config, Instant now) {
        ContainerRestarts.LastRun last = newest.map(PodWorker::lastRun).orElse(new ContainerRestarts.LastRun.None());
        if (!ContainerRestarts.shouldStart(spec.restartPolicy(), c, init, last, false)) {
            return Optional.empty();
        }
        int attempt = newest.map(s -> s.getMetadata().getAttempt() + 1).orElse(0);
        if (newest.isPresent() && newest.get().getState() == ContainerState.CONTAINER_EXITED) {
            // kuberuntime's doBackOff: a container that ran before waits out its back-off, then advances it.
            CrashLoopBackOff.Key key = CrashLoopBackOff.Key.of(podName(), namespace(), uid, c);
            Instant finishedAt = PodStatusBuilder.instant(newest.get().getFinishedAt());
            if (backOff.inBackOff(key, finishedAt, now)) {
                reasons.put(c.name(), new Waiting(CrashLoopBackOff.REASON, backOff.message(key)));
                Duration wait = Duration.between(now, backOff.restartAt(key, finishedAt, now));
                timers.startSingleTimer("back-off " + c.name(), Tick.INSTANCE, wait.plusMillis(1));
                return Optional.empty();
            }
            backOff = backOff.next(key, finishedAt, now);
        } else if (newest.isPresent() && newest.get().getState() == ContainerState.CONTAINER_CREATED) {
            attempt = newest.get().getMetadata().getAttempt() + 1; // a leftover that never started: a new attempt
        }
        return Optional.of(new Job(json, c, attempt, sandbox, config));
    }

    private static ContainerRestarts.LastRun lastRun(ContainerStatus s) {
        return switch (s.getState()) {
            case CONTAINER_RUNNING -> new ContainerRestarts.LastRun.Running();
            case CONTAINER_EXITED -> new ContainerRestarts.LastRun.Exited(s.getExitCode());
            // A created container that never started is replaced by a new attempt (it cannot be told apart from
            // one whose start is in flight, but there is one pass at a time).
            case CONTAINER_CREATED -> new ContainerRestarts.LastRun.Created();
            default -> new ContainerRestarts.LastRun.Unknown();
        };
    }

    // ---------------------------------------------------------------- starting a container

    private void nextJob() {
        Job job = pass.poll();
        if (job == null) {
            endPass();
            return;
        }
        String image = job.spec().image();
        getContext().pipeToSelf(cri.imageStatus(image),
                (img, t) -> t == null ? new ImageChecked(job, img) : failed("image status", t, job, null));
    }

    private Behavior<Command> onImageChecked(ImageChecked checked) {
        Job job = checked.job();
        String image = job.spec().image();
        String policy = pullPolicy(job.container());
        boolean present = checked.image().isPresent();
        if (present && !"Always".equals(policy)) {
            return onImageReady(new ImageReady(job, checked.image().get().getId()));
        }
        if ("Never".equals(policy)) {
            // pkg/kubelet/images/image_manager.go
            String message = "Container image \"" + image + "\" is not present with pull policy of Never";
            return onStepFailed(new StepFailed("image", message, job, new Waiting(ERR_IMAGE_NEVER_PULL, message)));
        }
        Instant now = clock.instant();
        CrashLoopBackOff.Entry pullWait = pullBackOff.get(image);
        if (pullWait != null && Duration.between(pullWait.lastUpdate(), now).compareTo(pullWait.backOff()) < 0) {
            String message = "Back-off pulling image \"" + image + "\"";
            timers.startSingleTimer("pull " + image, Tick.INSTANCE,
                    Duration.between(now, pullWait.lastUpdate().plus(pullWait.backOff())).plusMillis(1));
            return onStepFailed(new StepFailed("image", message, job, new Waiting(IMAGE_PULL_BACK_OFF, message)));
        }
        getContext().pipeToSelf(cri.pullImage(image, null, job.sandboxConfig()), (ref, t) -> {
            if (t == null) {
                return new ImageReady(job, ref);
            }
            // The kubelet shows the pull error as grpc-go words it.
            String message = grpcText(CriError.of(t));
            return new StepFailed("pull", message, job, new Waiting(ERR_IMAGE_PULL, message));
        });
        return this;
    }

    private Behavior<Command> onImageReady(ImageReady ready) {
        Job job = ready.job();
        pullBackOff.remove(job.spec().image());
        JsonNode podNow = pod;
        PodInputs inputsNow = inputs;
        // Volumes and files on disk: on the blocking dispatcher, never on the actor's thread.
        CompletableFuture<ContainerConfigs.Plan> prepared = CompletableFuture.supplyAsync(() -> {
            try {
                List<String> ips = job.sandbox().ips();
                VolumePlan volumes = VolumePlanner.plan(podNow, inputsNow, node, ips);
                VolumeWriter.materialize(volumes);
                ContainerConfigs.Plan plan = ContainerConfigs.build(podNow, job.container(), job.attempt(),
                        ready.imageRef(), ips, inputsNow, volumes, node, UUID.randomUUID().toString().substring(0, 8));
                VolumeWriter.ensureSubPaths(plan.mounts());
                if (plan.terminationLogHostPath().isPresent()) {
                    VolumeWriter.createTerminationLog(plan.terminationLogHostPath().get());
                }
                createDirectories(Path.of(job.sandboxConfig().getLogDirectory(), job.spec().name()));
                return plan;
            } catch (PodConfigException e) {
                throw new CompletionException(e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, blocking);
        getContext().pipeToSelf(prepared, (plan, t) -> {
            if (t == null) {
                return new Prepared(job, plan);
            }
            Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
            if (cause instanceof PodConfigException e) {
                Waiting waiting = e.reason() == PodConfigException.Reason.CREATE_CONTAINER_CONFIG_ERROR
                        ? new Waiting(CREATE_CONTAINER_CONFIG_ERROR, e.eventMessage())
                        : null; // a failed mount leaves the container as it was (ContainerCreating)
                return new StepFailed("config", e.eventMessage(), job, waiting);
            }
            return new StepFailed("config", String.valueOf(cause), job, null);
        });
        return this;
    }

    private Behavior<Command> onPrepared(Prepared prepared) {
        Job job = prepared.job();
        getContext().pipeToSelf(cri.createContainer(job.sandbox().id(), prepared.plan().config(), job.sandboxConfig()),
                (id, t) -> t == null ? new Created(job, id) : failed("create", t, job, CREATE_CONTAINER_ERROR));
        return this;
    }

    private Behavior<Command> onCreated(Created created) {
        Job job = created.job();
        getContext().pipeToSelf(cri.startContainer(created.containerId()),
                (v, t) -> t == null ? new Started(job) : failed("start", t, job, RUN_CONTAINER_ERROR));
        return this;
    }

    private Behavior<Command> onStarted(Started started) {
        Job job = started.job();
        succeeded(job.spec().name());
        reasons.remove(job.spec().name());
        progressed = true;
        getContext().getLog().info("pod {} container {} attempt {} started", uid, job.spec().name(), job.attempt());
        nextJob();
        return this;
    }

    private Behavior<Command> onStepFailed(StepFailed failure) {
        if (failure.step().equals("terminate")) {
            logFailure(failure.step(), failure.step() + ": " + failure.message());
            timers.startSingleTimer("terminate", RetryTerminate.INSTANCE, settings.relistPeriod());
            return this;
        }
        if (terminating != null) {
            return this;
        }
        if (failure.job() != null) {
            String name = failure.job().spec().name();
            if (failure.step().equals("pull")) {
                pullFailed(failure.job().spec().image());
            }
            logFailure(name, failure.step() + " of container " + name + ": " + failure.message());
            if (failure.waiting() != null) {
                reasons.put(name, failure.waiting());
            }
            nextJob(); // one container's trouble does not hold the others up
        } else {
            logFailure(failure.step(), failure.step() + ": " + failure.message());
            endPass();
        }
        return this;
    }

    private void endPass() {
        busy = false;
        publishStatus();
        if (progressed) {
            getContext().getSelf().tell(Tick.INSTANCE); // see at once what the steps did
        }
    }

    /** client-go's Backoff.Next as the image manager uses it: doubling to the cap, reset after 2 × cap idle. */
    private void pullFailed(String image) {
        Instant now = clock.instant();
        CrashLoopBackOff.Entry e = pullBackOff.get(image);
        Duration next = e == null || Duration.between(e.lastUpdate(), now).compareTo(settings.backOffMax().multipliedBy(2)) > 0
                ? settings.backOffInitial()
                : e.backOff().multipliedBy(2).compareTo(settings.backOffMax()) > 0
                        ? settings.backOffMax() : e.backOff().multipliedBy(2);
        pullBackOff.put(image, new CrashLoopBackOff.Entry(next, now));
    }

    // ---------------------------------------------------------------- status

    private void publishStatus() {
        ObjectNode status = PodStatusBuilder.build(new PodStatusBuilder.Input(pod, spec, observed, Map.copyOf(reasons),
                node.hostIps(), Optional.of(startTime), settings.runtimeName()));
        if (!status.equals(lastStatus)) {
            lastStatus = status;
            sink.podStatus(namespace(), podName(), uid, status.deepCopy());
        }
    }

    // ---------------------------------------------------------------- termination

    private void terminate() {
        Duration grace = terminating.gracePeriod();
        Map<String, String> mine = Map.of(SandboxConfigs.POD_UID_LABEL, uid);
        CompletionStage<Void> done = cri.listContainers(ContainerFilter.newBuilder().putAllLabelSelector(mine).build())
                .thenCompose(containers -> CompletableFuture.allOf(containers.stream()
                        .filter(c -> c.getState() == ContainerState.CONTAINER_RUNNING
                                || c.getState() == ContainerState.CONTAINER_UNKNOWN)
                        .map(c -> cri.stopContainer(c.getId(), grace).toCompletableFuture())
                        .toArray(CompletableFuture[]::new)))
                .thenCompose(v -> cri.listPodSandbox(PodSandboxFilter.newBuilder().putAllLabelSelector(mine).build()))
                .thenCompose(sandboxes -> CompletableFuture.allOf(sandboxes.stream()
                        .map(s -> cri.stopPodSandbox(s.getId())
                                .thenCompose(v -> cri.removePodSandbox(s.getId())).toCompletableFuture())
                        .toArray(CompletableFuture[]::new)));
        getContext().pipeToSelf(done, (v, t) -> t == null ? new TerminationDone() : failed("terminate", t, null, null));
    }

    private Behavior<Command> onTerminationDone(TerminationDone done) {
        getContext().getLog().info("pod {} terminated: containers stopped, sandbox removed", uid);
        terminating.replyTo().tell(new Terminated(uid));
        return Behaviors.stopped();
    }

    // ---------------------------------------------------------------- helpers

    private StepFailed failed(String step, Throwable t, Job job, String waitingReason) {
        CriError error = CriError.of(t);
        Waiting waiting = waitingReason == null ? null : new Waiting(waitingReason, error.message());
        return new StepFailed(step, error.toString(), job, waiting);
    }

    /** Logs the first failure of a streak (and a changed message), not every retry. */
    private void logFailure(String key, String message) {
        if (failing.add(key + "\n" + message)) {
            getContext().getLog().warn("pod {}: {} (retrying)", uid, message);
        }
    }

    private void succeeded(String key) {
        failing.removeIf(k -> k.startsWith(key + "\n"));
    }

    /** {@code imagePullPolicy}, defaulted as the API server does when absent. */
    static String pullPolicy(JsonNode container) {
        String policy = container.path("imagePullPolicy").asText("");
        if (!policy.isEmpty()) {
            return policy;
        }
        String image = container.path("image").asText("");
        String last = image.substring(image.lastIndexOf('/') + 1);
        if (last.contains("@")) {
            return "IfNotPresent";
        }
        return !last.contains(":") || last.endsWith(":latest") ? "Always" : "IfNotPresent";
    }

    /** How grpc-go prints a status error: {@code rpc error: code = Unknown desc = ...}. */
    static String grpcText(CriError error) {
        StringBuilder code = new StringBuilder();
        for (String part : error.code().name().split("_")) {
            code.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
        }
        return "rpc error: code = " + code + " desc = " + error.message();
    }

    private static List<JsonNode> items(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String podName() {
        return pod.path("metadata").path("name").asText();
    }

    private String namespace() {
        return pod.path("metadata").path("namespace").asText();
    }
}
