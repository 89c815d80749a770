package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriError;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.pod.ContainerSpec;
import io.kubepekko.agent.pod.PodSpec;
import io.kubepekko.agent.pod.RestartPolicy;
import io.kubepekko.agent.probe.ProbeKind;
import io.kubepekko.agent.probe.ProbeOutcome;
import io.kubepekko.agent.probe.ProbeResult;
import io.kubepekko.agent.probe.ProbeWorker;
import io.kubepekko.agent.probe.Prober;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * One pod's probes (a child of its {@link PodWorker}), as the kubelet's prober manager and its
 * workers (pkg/kubelet/prober): per container and probe kind a {@link ProbeWorker}, ticked every
 * {@code periodSeconds} from when the pod was added, by the {@link Clock} (checked every {@code
 * checkEvery}, so a test's clock drives it). A probe runs asynchronously ({@link Prober}); one at a
 * time per probe, a tick that finds it still running is skipped.
 *
 * <p>Effects as the kubelet's: readiness and startup results go to the worker as {@link
 * ProbeResults} whenever one changes; a liveness or startup probe failing {@code failureThreshold}
 * times stops the container with the pod's grace period (the probe's own {@code
 * terminationGracePeriodSeconds} if set, at least 2 s) and asks the worker to relist, whose sync
 * then restarts it under the restart policy (attempt + 1). Not yet: the kubelet's events ({@code
 * Unhealthy}, {@code Killing}, {@code ProbeWarning}) and its immediate readiness probe once a
 * container started.
 */
final class ProbeManager extends AbstractBehavior<ProbeManager.Command> {

    sealed interface Command {}

    /**
     * What the worker's last relist showed.
     *
     * @param podTerminal the pod's phase is Succeeded or Failed
     */
    record Seen(JsonNode pod, PodSpec spec, ObservedPod observed, boolean podTerminal)
            implements Command {}

    /**
     * To the worker: the probes' results changed ({@code relist}: a container was stopped, look
     * again).
     */
    record Report(ProbeResults results, boolean relist) {}

    private enum Tick implements Command {
        INSTANCE
    }

    private record Probed(Key key, String containerId, ProbeOutcome outcome) implements Command {}

    private record Killed(String container, String containerId, Optional<CriError> error)
            implements Command {}

    private record Key(String container, ProbeKind kind) {}

    /** One probe's worker and its pacing. */
    private static final class Slot {
        ProbeWorker worker;
        JsonNode container;
        Instant nextAt;
        boolean inFlight;
        boolean stopped;

        Slot(ProbeWorker worker, JsonNode container, Instant nextAt) {
            this.worker = worker;
            this.container = container;
            this.nextAt = nextAt;
        }
    }

    static Behavior<Command> create(
            CriRuntime cri,
            Clock clock,
            PodEvents events,
            Duration checkEvery,
            ActorRef<Report> worker,
            List<String> hostIps) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers -> {
                                    timers.startTimerWithFixedDelay(
                                            "probe-tick", Tick.INSTANCE, checkEvery);
                                    return new ProbeManager(
                                            ctx, cri, clock, events, worker, hostIps);
                                }));
    }

    private final CriRuntime cri;
    private final Prober prober;
    private final Clock clock;
    private final PodEvents events;
    private final ActorRef<Report> worker;
    private final List<String> hostIps;
    private final Map<Key, Slot> slots = new LinkedHashMap<>();
    private Seen seen;

    private ProbeManager(
            ActorContext<Command> ctx,
            CriRuntime cri,
            Clock clock,
            PodEvents events,
            ActorRef<Report> worker,
            List<String> hostIps) {
        super(ctx);
        this.cri = cri;
        this.prober = new Prober(cri);
        this.clock = clock;
        this.events = events;
        this.worker = worker;
        this.hostIps = List.copyOf(hostIps);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Seen.class, this::onSeen)
                .onMessageEquals(Tick.INSTANCE, this::onTick)
                .onMessage(Probed.class, this::onProbed)
                .onMessage(Killed.class, this::onKilled)
                .build();
    }

    private Behavior<Command> onSeen(Seen s) {
        boolean first = seen == null;
        seen = s;
        Instant now = clock.instant();
        Map<String, JsonNode> json = containersJson(s.pod());
        for (ContainerSpec c : probed(s.spec())) {
            for (ProbeKind kind : ProbeKind.values()) {
                c.probe(kind)
                        .ifPresent(
                                spec ->
                                        slots.computeIfAbsent(
                                                new Key(c.name(), kind),
                                                k ->
                                                        new Slot(
                                                                ProbeWorker.start(kind, spec),
                                                                json.get(c.name()),
                                                                now)));
            }
        }
        if (first) {
            onTick(); // the kubelet's workers probe once as the pod is added, then every period
        }
        return this;
    }

    private Behavior<Command> onTick() {
        if (seen == null) {
            return this;
        }
        Instant now = clock.instant();
        boolean changed = false;
        // Startup first: liveness and readiness look at whether the container has started.
        for (ProbeKind kind : List.of(ProbeKind.STARTUP, ProbeKind.LIVENESS, ProbeKind.READINESS)) {
            for (Map.Entry<Key, Slot> e : slots.entrySet()) {
                Slot slot = e.getValue();
                if (e.getKey().kind() != kind
                        || slot.stopped
                        || slot.inFlight
                        || now.isBefore(slot.nextAt)) {
                    continue;
                }
                Duration period = slot.worker.spec().period();
                slot.nextAt = slot.nextAt.plus(period);
                if (!slot.nextAt.isAfter(now)) {
                    slot.nextAt =
                            now.plus(period); // ticks missed are dropped, as a Go ticker drops them
                }
                changed |= tick(e.getKey(), slot, now);
            }
        }
        if (changed) {
            report(false);
        }
        return this;
    }

    /** One tick of one probe; whether its result changed. */
    private boolean tick(Key key, Slot slot, Instant now) {
        Optional<ContainerStatus> newest = seen.observed().newest(key.container());
        String id = newest.map(ContainerStatus::getId).orElse("");
        boolean running =
                newest.filter(c -> c.getState() == ContainerState.CONTAINER_RUNNING).isPresent();
        ProbeWorker.Observation o =
                new ProbeWorker.Observation(
                        seen.podTerminal(),
                        id,
                        newest.filter(c -> running)
                                .map(c -> PodStatusBuilder.instant(c.getStartedAt())),
                        newest.filter(c -> c.getState() == ContainerState.CONTAINER_EXITED)
                                .isPresent(),
                        started(key.container(), id),
                        seen.spec().restartPolicy() == RestartPolicy.NEVER,
                        seen.pod().path("metadata").hasNonNull("deletionTimestamp"));
        ProbeWorker.Step step = slot.worker.tick(o, now);
        slot.worker = step.worker();
        switch (step.action()) {
            case STOP -> slot.stopped = true;
            case PROBE -> {
                slot.inFlight = true;
                getContext()
                        .pipeToSelf(
                                prober.run(slot.worker.spec(), slot.container, id, podIp()),
                                (outcome, t) ->
                                        new Probed(
                                                key,
                                                id,
                                                t == null
                                                        ? outcome
                                                        : ProbeOutcome.error(String.valueOf(t))));
            }
            case WAIT -> {}
        }
        return step.changed().isPresent();
    }

    private boolean started(String container, String id) {
        Slot startup = slots.get(new Key(container, ProbeKind.STARTUP));
        return startup == null
                || (startup.worker.containerId().equals(id)
                        && startup.worker.result().equals(Optional.of(ProbeResult.SUCCESS)));
    }

    private Behavior<Command> onProbed(Probed probed) {
        Slot slot = slots.get(probed.key());
        if (slot == null) {
            return this;
        }
        slot.inFlight = false;
        if (!slot.worker.containerId().equals(probed.containerId())) {
            return this; // the container was replaced meanwhile
        }
        ProbeOutcome outcome = probed.outcome();
        String what = probed.key().kind().field().replace("Probe", "");
        String name = probed.key().container();
        if (outcome.result() == ProbeResult.FAILURE) {
            getContext()
                    .getLog()
                    .info(
                            "{} probe of container {} failed: {}",
                            capital(what),
                            name,
                            outcome.output());
            events.unhealthy(name, capital(what), outcome.output());
        } else if (outcome.result() == ProbeResult.UNKNOWN) {
            getContext()
                    .getLog()
                    .warn(
                            "{} probe of container {} errored: {}",
                            capital(what),
                            name,
                            outcome.output());
        }
        ProbeWorker.Step step = slot.worker.record(outcome.counted());
        slot.worker = step.worker();
        if (step.changed().isEmpty()) {
            return this;
        }
        if (step.changed().get() == ProbeResult.FAILURE
                && probed.key().kind().restartsOnFailure()) {
            kill(probed.key(), probed.containerId());
        }
        report(false);
        return this;
    }

    /** The kubelet's {@code killContainer} for a failed liveness or startup probe. */
    private void kill(Key key, String containerId) {
        String what = key.kind().field().replace("Probe", "");
        getContext()
                .getLog()
                .info("Container {} failed {} probe, will be restarted", key.container(), what);
        // setTerminationGracePeriod: a deleting pod's grace, else the probe's own, else the pod's.
        JsonNode deleting = seen.pod().path("metadata").path("deletionGracePeriodSeconds");
        JsonNode override =
                slots.get(key).worker.spec().handler().path("terminationGracePeriodSeconds");
        long grace =
                deleting.canConvertToLong()
                        ? deleting.asLong()
                        : override.canConvertToLong()
                                ? override.asLong()
                                : seen.pod()
                                        .path("spec")
                                        .path("terminationGracePeriodSeconds")
                                        .asLong(30);
        LifecycleHooks.Target target =
                new LifecycleHooks.Target(
                        key.container(), containerId, slots.get(key).container, podIp());
        getContext()
                .pipeToSelf(
                        LifecycleHooks.kill(
                                cri,
                                clock,
                                events,
                                target,
                                Duration.ofSeconds(grace),
                                "Container "
                                        + key.container()
                                        + " failed "
                                        + what
                                        + " probe, will be restarted"),
                        (v, t) ->
                                new Killed(
                                        key.container(),
                                        containerId,
                                        Optional.ofNullable(t).map(CriError::of)));
    }

    private Behavior<Command> onKilled(Killed killed) {
        killed.error()
                .ifPresent(
                        e ->
                                getContext()
                                        .getLog()
                                        .warn(
                                                "stopping container {} ({}) failed: {}",
                                                killed.container(),
                                                killed.containerId(),
                                                e));
        report(true);
        return this;
    }

    private void report(boolean relist) {
        Map<String, Boolean> readiness = new HashMap<>();
        Map<String, Boolean> started = new HashMap<>();
        slots.forEach(
                (key, slot) -> {
                    ProbeWorker w = slot.worker;
                    if (w.containerId().isEmpty() || w.result().isEmpty()) {
                        return;
                    }
                    boolean success = w.result().get() == ProbeResult.SUCCESS;
                    if (key.kind() == ProbeKind.READINESS) {
                        readiness.put(w.containerId(), success);
                    } else if (key.kind() == ProbeKind.STARTUP) {
                        started.put(w.containerId(), success);
                    }
                });
        worker.tell(new Report(new ProbeResults(readiness, started), relist));
    }

    private String podIp() {
        List<String> ips =
                seen.observed().readySandbox().map(ObservedPod.Sandbox::ips).orElse(List.of());
        if (ips.isEmpty() && seen.pod().path("spec").path("hostNetwork").asBoolean(false)) {
            ips = hostIps;
        }
        return ips.isEmpty() ? "" : ips.get(0);
    }

    /**
     * The containers the kubelet probes: app containers and sidecars (regular init containers have
     * no probes).
     */
    private static List<ContainerSpec> probed(PodSpec spec) {
        return Stream.concat(
                        spec.initContainers().stream().filter(ContainerSpec::sidecar),
                        spec.containers().stream())
                .toList();
    }

    private static Map<String, JsonNode> containersJson(JsonNode pod) {
        Map<String, JsonNode> out = new HashMap<>();
        pod.path("spec").path("initContainers").forEach(c -> out.put(c.path("name").asText(), c));
        pod.path("spec").path("containers").forEach(c -> out.put(c.path("name").asText(), c));
        return out;
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
