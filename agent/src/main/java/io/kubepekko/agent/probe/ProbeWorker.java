package io.kubepekko.agent.probe;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One probe of one container as the kubelet's prober worker (pkg/kubelet/prober/worker.go) runs it,
 * as an immutable value with time passed in. Its owner ticks it every {@link ProbeSpec#period()}:
 * {@link #tick} says whether to stop, wait, or run the probe now; a probe's outcome goes to {@link
 * #record}. Both say when the result the container is judged by changes.
 *
 * @param kind which probe
 * @param spec its timing and thresholds
 * @param containerId the container instance probed so far ("" before one is seen)
 * @param result the result the container is judged by (empty before a container is seen)
 * @param lastResult the last probe outcome
 * @param resultRun how many probes in a row gave {@code lastResult}
 * @param onHold after a liveness or startup failure: no probing until a new container instance
 */
public record ProbeWorker(
        ProbeKind kind,
        ProbeSpec spec,
        String containerId,
        Optional<ProbeResult> result,
        ProbeResult lastResult,
        int resultRun,
        boolean onHold) {

    public static ProbeWorker start(ProbeKind kind, ProbeSpec spec) {
        return new ProbeWorker(kind, spec, "", Optional.empty(), ProbeResult.UNKNOWN, 0, false);
    }

    /**
     * What the worker sees of its pod and container at a tick.
     *
     * @param podTerminal the pod's phase is Succeeded or Failed
     * @param containerId the container's current instance ("" if none yet)
     * @param runningSince when the current instance started, if it runs
     * @param terminated the current instance has exited
     * @param started the container's {@code started} (its startup probe passed, or it has none)
     * @param restartPolicyNever the pod's restart policy is Never
     * @param podDeleting the pod has a deletionTimestamp
     */
    public record Observation(
            boolean podTerminal,
            String containerId,
            Optional<Instant> runningSince,
            boolean terminated,
            boolean started,
            boolean restartPolicyNever,
            boolean podDeleting) {}

    /** What to do at this tick. */
    public enum Action {
        /** The worker is done (pod finished, container will not run again, or pod deleting). */
        STOP,
        /** Nothing to probe at this tick; tick again after a period. */
        WAIT,
        /** Run the probe now and {@link #record} its outcome. */
        PROBE
    }

    /**
     * The worker after a tick or a probe.
     *
     * @param worker its new state
     * @param action what to do ({@link Action#WAIT} after {@link #record})
     * @param changed the new result when it differs from the one before
     */
    public record Step(ProbeWorker worker, Action action, Optional<ProbeResult> changed) {}

    public Step tick(Observation seen, Instant now) {
        if (seen.podTerminal()) {
            return new Step(this, Action.STOP, Optional.empty());
        }
        if (seen.containerId().isEmpty()) {
            return new Step(
                    this, Action.WAIT, Optional.empty()); // not created yet, or gone: wait for more
        }
        ProbeWorker w = this;
        if (!seen.containerId().equals(containerId)) {
            // A new instance: it starts from the kind's initial result and is probed again.
            w =
                    new ProbeWorker(
                                    kind,
                                    spec,
                                    seen.containerId(),
                                    result,
                                    lastResult,
                                    resultRun,
                                    false)
                            .set(kind.initial());
        }
        if (w.onHold) {
            return w.step(Action.WAIT, this);
        }
        if (seen.runningSince().isEmpty()) {
            w = w.set(ProbeResult.FAILURE);
            boolean never = seen.terminated() && seen.restartPolicyNever();
            return w.step(never ? Action.STOP : Action.WAIT, this);
        }
        if (seen.podDeleting() && kind != ProbeKind.READINESS) {
            // A quiet shutdown: liveness and startup pass from here on.
            return w.set(ProbeResult.SUCCESS).step(Action.STOP, this);
        }
        long ranSeconds = Duration.between(seen.runningSince().get(), now).getSeconds();
        if (ranSeconds < spec.initialDelaySeconds()) {
            return w.step(Action.WAIT, this);
        }
        // The startup probe runs until the container has started; the others only after.
        if (seen.started() == (kind == ProbeKind.STARTUP)) {
            return w.step(Action.WAIT, this);
        }
        return w.step(Action.PROBE, this);
    }

    /**
     * A probe's outcome; empty when the prober itself failed (the outcome is thrown away, as the
     * kubelet does). The result changes only after {@code successThreshold} successes or {@code
     * failureThreshold} failures in a row; a liveness or startup failure then holds the worker
     * until the container is replaced.
     */
    public Step record(Optional<ProbeResult> outcome) {
        if (outcome.isEmpty()) {
            return new Step(this, Action.WAIT, Optional.empty());
        }
        ProbeResult r = outcome.get();
        int run = r == lastResult ? resultRun + 1 : 1;
        ProbeWorker w = new ProbeWorker(kind, spec, containerId, result, r, run, onHold);
        if ((r == ProbeResult.FAILURE && run < spec.failureThreshold())
                || (r == ProbeResult.SUCCESS && run < spec.successThreshold())) {
            return w.step(Action.WAIT, this);
        }
        w = w.set(r);
        if (kind.restartsOnFailure() && r == ProbeResult.FAILURE) {
            w = new ProbeWorker(kind, spec, containerId, w.result, r, 0, true);
        }
        return w.step(Action.WAIT, this);
    }

    private ProbeWorker set(ProbeResult r) {
        return new ProbeWorker(
                kind, spec, containerId, Optional.of(r), lastResult, resultRun, onHold);
    }

    private Step step(Action action, ProbeWorker before) {
        return new Step(this, action, result.equals(before.result) ? Optional.empty() : result);
    }

    /**
     * A running container's {@code started}, as the kubelet's prober manager: it has no startup
     * probe, or that probe's result is Success.
     */
    public static boolean started(boolean running, Optional<ProbeWorker> startup) {
        return running
                && startup.map(w -> w.result().equals(Optional.of(ProbeResult.SUCCESS)))
                        .orElse(true);
    }

    /**
     * A running container's {@code ready}: it has started, and it has no readiness probe or that
     * probe's result is Success.
     */
    public static boolean ready(boolean running, boolean started, Optional<ProbeWorker> readiness) {
        return running
                && started
                && readiness
                        .map(w -> w.result().equals(Optional.of(ProbeResult.SUCCESS)))
                        .orElse(true);
    }
}
