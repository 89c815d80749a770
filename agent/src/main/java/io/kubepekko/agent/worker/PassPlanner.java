package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.pod.ContainerRestarts;
import io.kubepekko.agent.pod.ContainerSpec;
import io.kubepekko.agent.pod.CrashLoopBackOff;
import io.kubepekko.agent.pod.PodSpec;
import io.kubepekko.agent.worker.PodStatusBuilder.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which containers one sync pass starts, as kuberuntime's {@code computePodActions} decides it for
 * a pod whose sandbox is ready: the init containers in order, each to completion, then every app
 * container that should (re)start. Pure: the back-off comes in and its advanced value goes out.
 */
final class PassPlanner {
    private PassPlanner() {}

    /** A container to start, as which attempt. */
    record Start(JsonNode container, ContainerSpec spec, int attempt) {}

    /**
     * What a pass does.
     *
     * @param starts the containers to start, in order
     * @param waits per container held back by its {@link CrashLoopBackOff}, the waiting state it
     *     shows
     * @param wakeUps per such container, how long until its back-off has passed
     * @param backOff the back-off, advanced for the restarts in {@code starts}
     */
    record Plan(
            List<Start> starts,
            Map<String, Waiting> waits,
            Map<String, Duration> wakeUps,
            CrashLoopBackOff backOff) {}

    static Plan plan(
            JsonNode pod,
            PodSpec spec,
            ObservedPod observed,
            CrashLoopBackOff backOff,
            Instant now) {
        Planning p = new Planning(pod, spec, observed, backOff, now);
        List<JsonNode> initJson = items(pod.path("spec").path("initContainers"));
        for (int i = 0; i < spec.initContainers().size(); i++) {
            ContainerSpec c = spec.initContainers().get(i);
            Optional<ContainerStatus> newest = observed.newest(c.name());
            if (newest.isPresent()
                    && newest.get().getState() == ContainerState.CONTAINER_EXITED
                    && newest.get().getExitCode() == 0) {
                continue; // done: the next one
            }
            p.startIfDue(c, initJson.get(i), true, newest);
            return p.result(); // init containers run one at a time, each to completion
        }
        List<JsonNode> appJson = items(pod.path("spec").path("containers"));
        for (int i = 0; i < spec.containers().size(); i++) {
            ContainerSpec c = spec.containers().get(i);
            p.startIfDue(c, appJson.get(i), false, observed.newest(c.name()));
        }
        return p.result();
    }

    /** One plan being made. */
    private static final class Planning {
        private final JsonNode pod;
        private final PodSpec spec;
        private final Instant now;
        private CrashLoopBackOff backOff;
        private final List<Start> starts = new ArrayList<>();
        private final Map<String, Waiting> waits = new LinkedHashMap<>();
        private final Map<String, Duration> wakeUps = new LinkedHashMap<>();

        Planning(
                JsonNode pod,
                PodSpec spec,
                ObservedPod observed,
                CrashLoopBackOff backOff,
                Instant now) {
            this.pod = pod;
            this.spec = spec;
            this.backOff = backOff;
            this.now = now;
        }

        void startIfDue(
                ContainerSpec c, JsonNode json, boolean init, Optional<ContainerStatus> newest) {
            ContainerRestarts.LastRun last =
                    newest.map(PassPlanner::lastRun).orElse(new ContainerRestarts.LastRun.None());
            if (!ContainerRestarts.shouldStart(spec.restartPolicy(), c, init, last, false)) {
                return;
            }
            int attempt = newest.map(s -> s.getMetadata().getAttempt() + 1).orElse(0);
            if (newest.isPresent() && newest.get().getState() == ContainerState.CONTAINER_EXITED) {
                // kuberuntime's doBackOff: a container that ran before waits out its back-off, then
                // advances it.
                JsonNode meta = pod.path("metadata");
                CrashLoopBackOff.Key key =
                        CrashLoopBackOff.Key.of(
                                meta.path("name").asText(),
                                meta.path("namespace").asText(),
                                meta.path("uid").asText(),
                                c);
                Instant finishedAt = PodStatusBuilder.instant(newest.get().getFinishedAt());
                if (backOff.inBackOff(key, finishedAt, now)) {
                    waits.put(c.name(), new Waiting(CrashLoopBackOff.REASON, backOff.message(key)));
                    wakeUps.put(
                            c.name(),
                            Duration.between(now, backOff.restartAt(key, finishedAt, now)));
                    return;
                }
                backOff = backOff.next(key, finishedAt, now);
            }
            // (A created container that never started gets attempt + 1 above as well: a leftover, a
            // new attempt.)
            starts.add(new Start(json, c, attempt));
        }

        Plan result() {
            return new Plan(List.copyOf(starts), Map.copyOf(waits), Map.copyOf(wakeUps), backOff);
        }
    }

    private static ContainerRestarts.LastRun lastRun(ContainerStatus s) {
        return switch (s.getState()) {
            case CONTAINER_RUNNING -> new ContainerRestarts.LastRun.Running();
            case CONTAINER_EXITED -> new ContainerRestarts.LastRun.Exited(s.getExitCode());
            // A created container that never started is replaced by a new attempt (it cannot be
            // told apart from
            // one whose start is in flight, but there is one pass at a time).
            case CONTAINER_CREATED -> new ContainerRestarts.LastRun.Created();
            default -> new ContainerRestarts.LastRun.Unknown();
        };
    }

    private static List<JsonNode> items(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}
