package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.pod.ContainerRestarts;
import io.kubepekko.agent.pod.ContainerSpec;
import io.kubepekko.agent.pod.PodPhase;
import io.kubepekko.agent.pod.PodSpec;
import io.kubepekko.agent.pod.QosClass;
import io.kubepekko.agent.probe.ProbeKind;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pod's {@code status} from what the runtime shows of it, as the kubelet's {@code
 * generateAPIPodStatus} and {@code convertToAPIContainerStatuses} (pkg/kubelet/kubelet_pods.go)
 * build it. Pure: everything comes in.
 *
 * <p>A container that has no instance yet, or whose newest instance exited and will be started
 * again, waits: with the reason the last sync recorded for it ({@code CrashLoopBackOff}, {@code
 * ErrImageNeverPull}, {@code CreateContainerConfigError}, ...; the kubelet's reason cache) or, if
 * none, as it was. A container never run waits with {@code ContainerCreating} ({@code
 * PodInitializing} in a pod with init containers).
 */
public final class PodStatusBuilder {
    private PodStatusBuilder() {}

    /** The kubelet's default waiting reasons. */
    public static final String CONTAINER_CREATING = "ContainerCreating";

    public static final String POD_INITIALIZING = "PodInitializing";

    /**
     * A waiting state the last sync recorded for a container (reason and message as the kubelet
     * shows them).
     */
    public record Waiting(String reason, String message) {}

    /**
     * Everything a status is built from.
     *
     * @param pod the desired pod (metadata, spec)
     * @param spec its spec, parsed
     * @param observed the last relist
     * @param reasons per container name, why its last start did not happen
     * @param hostIps the node's addresses
     * @param startTime when the agent first saw the pod, if it has
     * @param runtimeName the scheme of container ids
     * @param readiness per container id, its readiness probe's last result (the prober's results
     *     cache); a running container without one is ready unless it has a readiness probe (kube's
     *     initial result: not ready)
     * @param previousConditions the conditions last published for the pod, else those the API has
     *     (transition times of unchanged conditions are kept)
     * @param now the time of a condition's transition
     * @param started per container id, whether its startup probe has passed (the startup results
     *     cache); a running container with a startup probe has not started until it says so
     */
    public record Input(
            JsonNode pod,
            PodSpec spec,
            ObservedPod observed,
            Map<String, Waiting> reasons,
            List<String> hostIps,
            Optional<Instant> startTime,
            String runtimeName,
            Map<String, Boolean> readiness,
            JsonNode previousConditions,
            Instant now,
            Map<String, Boolean> started) {

        /** Without startup probe results. */
        public Input(
                JsonNode pod,
                PodSpec spec,
                ObservedPod observed,
                Map<String, Waiting> reasons,
                List<String> hostIps,
                Optional<Instant> startTime,
                String runtimeName,
                Map<String, Boolean> readiness,
                JsonNode previousConditions,
                Instant now) {
            this(
                    pod,
                    spec,
                    observed,
                    reasons,
                    hostIps,
                    startTime,
                    runtimeName,
                    readiness,
                    previousConditions,
                    now,
                    Map.of());
        }
    }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    public static ObjectNode build(Input in) {
        List<io.kubepekko.agent.pod.ContainerStatus> forPhase = new ArrayList<>();
        List<JsonNode> all = new ArrayList<>();
        boolean hasInit = !in.spec().initContainers().isEmpty();
        ArrayNode init = JSON.arrayNode();
        for (ContainerSpec c : in.spec().initContainers()) {
            init.add(container(in, c, true, hasInit, forPhase));
            all.add(init.get(init.size() - 1));
        }
        ArrayNode app = JSON.arrayNode();
        boolean initialized = false;
        for (ContainerSpec c : in.spec().containers()) {
            app.add(container(in, c, false, hasInit, forPhase));
            all.add(app.get(app.size() - 1));
            initialized |= in.observed().newest(c.name()).isPresent();
        }
        PodPhase phase = PodPhase.of(in.spec(), forPhase, false, initialized, false);

        ObjectNode status = JSON.objectNode();
        long generation = in.pod().path("metadata").path("generation").asLong(0);
        if (generation > 0) {
            status.put("observedGeneration", generation);
        }
        status.put("phase", phase.toString());
        boolean hostNetwork = in.pod().path("spec").path("hostNetwork").asBoolean(false);
        boolean sandboxReady =
                in.observed()
                        .readySandbox()
                        .filter(s -> hostNetwork || !s.ips().isEmpty())
                        .isPresent();
        status.set(
                "conditions",
                PodConditions.render(
                        in.pod(),
                        PodConditions.generate(in.pod(), all, phase, sandboxReady),
                        in.previousConditions(),
                        in.now()));
        if (!in.hostIps().isEmpty()) {
            status.put("hostIP", in.hostIps().get(0));
            status.set("hostIPs", ips(in.hostIps()));
        }
        List<String> podIps =
                in.observed().readySandbox().map(ObservedPod.Sandbox::ips).orElse(List.of());
        if (podIps.isEmpty() && hostNetwork) {
            podIps = in.hostIps(); // a host-network pod has the node's addresses
        }
        if (!podIps.isEmpty()) {
            status.put("podIP", podIps.get(0));
            status.set("podIPs", ips(podIps));
        }
        in.startTime().ifPresent(t -> status.put("startTime", time(t)));
        if (hasInit) {
            status.set("initContainerStatuses", init);
        }
        status.set("containerStatuses", app);
        status.put("qosClass", QosClass.of(in.pod()).toString());
        return status;
    }

    private static ObjectNode container(
            Input in,
            ContainerSpec spec,
            boolean init,
            boolean podHasInit,
            List<io.kubepekko.agent.pod.ContainerStatus> forPhase) {
        List<ContainerStatus> instances = in.observed().instances(spec.name());
        Optional<ContainerStatus> newest = instances.stream().findFirst();
        Optional<ContainerStatus> previous =
                instances.stream()
                        .skip(1)
                        .findFirst()
                        .filter(c -> c.getState() == ContainerState.CONTAINER_EXITED);

        ObjectNode state;
        ObjectNode lastState = previous.map(p -> terminated(in, p)).orElseGet(JSON::objectNode);
        io.kubepekko.agent.pod.ContainerState phaseState;
        Optional<io.kubepekko.agent.pod.ContainerState.Terminated> phaseLast =
                previous.map(PodStatusBuilder::terminatedValue);
        boolean running = false;
        if (newest.isEmpty()) {
            Waiting w =
                    in.reasons()
                            .getOrDefault(
                                    spec.name(),
                                    new Waiting(
                                            podHasInit ? POD_INITIALIZING : CONTAINER_CREATING,
                                            ""));
            state = waiting(w);
            phaseState = new io.kubepekko.agent.pod.ContainerState.Waiting(w.reason());
        } else {
            ContainerStatus c = newest.get();
            switch (c.getState()) {
                case CONTAINER_RUNNING -> {
                    Instant started = instant(c.getStartedAt());
                    state = JSON.objectNode();
                    state.putObject("running").put("startedAt", time(started));
                    phaseState = new io.kubepekko.agent.pod.ContainerState.Running(started);
                    running = true;
                }
                case CONTAINER_EXITED -> {
                    var last = new ContainerRestarts.LastRun.Exited(c.getExitCode());
                    Waiting w = in.reasons().get(spec.name());
                    if (w != null
                            && ContainerRestarts.shouldStart(
                                    in.spec().restartPolicy(), spec, init, last, false)) {
                        lastState = terminated(in, c);
                        phaseLast = Optional.of(terminatedValue(c));
                        state = waiting(w);
                        phaseState = new io.kubepekko.agent.pod.ContainerState.Waiting(w.reason());
                    } else {
                        state = terminated(in, c);
                        phaseState = terminatedValue(c);
                    }
                }
                default -> {
                    // Created but not started (or unknown): the kubelet shows an empty waiting
                    // state.
                    Waiting w = in.reasons().getOrDefault(spec.name(), new Waiting("", ""));
                    state = waiting(w);
                    phaseState = new io.kubepekko.agent.pod.ContainerState.Waiting(w.reason());
                }
            }
        }
        boolean started =
                running
                        && (spec.probe(ProbeKind.STARTUP).isEmpty()
                                || Boolean.TRUE.equals(in.started().get(newest.get().getId())));
        // The prober manager's UpdatePodStatus: a regular init container is ready once it
        // completed; any other
        // is ready once started if it has no readiness probe, else when its probe last succeeded.
        boolean ready =
                init && !spec.sidecar()
                        ? phaseState instanceof io.kubepekko.agent.pod.ContainerState.Terminated t
                                && t.exitCode() == 0
                        : started
                                && (spec.probe(ProbeKind.READINESS).isEmpty()
                                        || Boolean.TRUE.equals(
                                                in.readiness().get(newest.get().getId())));
        forPhase.add(
                new io.kubepekko.agent.pod.ContainerStatus(
                        spec.name(), phaseState, phaseLast, started));

        ObjectNode out = JSON.objectNode();
        out.put("name", spec.name());
        out.set("state", state);
        out.set("lastState", lastState);
        out.put("ready", ready);
        out.put("restartCount", newest.map(c -> c.getMetadata().getAttempt()).orElse(0));
        out.put("image", spec.image());
        out.put("imageID", newest.map(ContainerStatus::getImageRef).orElse(""));
        newest.ifPresent(c -> out.put("containerID", containerId(in, c)));
        out.put("started", started);
        return out;
    }

    private static ObjectNode waiting(Waiting w) {
        ObjectNode state = JSON.objectNode();
        ObjectNode waiting = state.putObject("waiting");
        if (!w.reason().isEmpty()) {
            waiting.put("reason", w.reason());
        }
        if (!w.message().isEmpty()) {
            waiting.put("message", w.message());
        }
        return state;
    }

    private static ObjectNode terminated(Input in, ContainerStatus c) {
        ObjectNode state = JSON.objectNode();
        ObjectNode t = state.putObject("terminated");
        t.put("exitCode", c.getExitCode());
        if (!c.getReason().isEmpty()) {
            t.put("reason", c.getReason());
        }
        if (!c.getMessage().isEmpty()) {
            t.put("message", c.getMessage());
        }
        if (c.getStartedAt() != 0) {
            t.put("startedAt", time(instant(c.getStartedAt())));
        }
        t.put("finishedAt", time(instant(c.getFinishedAt())));
        t.put("containerID", containerId(in, c));
        return state;
    }

    private static io.kubepekko.agent.pod.ContainerState.Terminated terminatedValue(
            ContainerStatus c) {
        return new io.kubepekko.agent.pod.ContainerState.Terminated(
                c.getExitCode(), c.getReason(), instant(c.getFinishedAt()));
    }

    private static String containerId(Input in, ContainerStatus c) {
        return in.runtimeName() + "://" + c.getId();
    }

    private static ArrayNode ips(List<String> ips) {
        ArrayNode out = JSON.arrayNode();
        ips.forEach(ip -> out.addObject().put("ip", ip));
        return out;
    }

    /** A CRI timestamp (Unix nanoseconds). */
    static Instant instant(long nanos) {
        return Instant.ofEpochSecond(0, nanos);
    }

    /** A metav1.Time as the API serves it, if it is one. */
    static Optional<Instant> parseTime(String text) {
        try {
            return text.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** As metav1.Time serialises: RFC 3339 in UTC, whole seconds. */
    static String time(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
