package io.kubepekko.agent.worker;

import io.kubepekko.agent.pod.CrashLoopBackOff;
import java.time.Duration;
import java.util.Map;

/**
 * How a {@link PodWorker} paces itself.
 *
 * @param relistPeriod how often the node's runtime is relisted (the kubelet's PLEG: 1 s); also how
 *     soon a worker whose pass failed or left a container backing off syncs again
 * @param backOffInitial the first crash-loop back-off (kubelet: 10 s)
 * @param backOffMax the back-off's cap (kubelet: 300 s)
 * @param runtimeHandler the CRI runtime handler of sandboxes ("" for the runtime's default)
 * @param runtimeName the scheme of {@code containerID} in statuses ({@code containerd://<id>})
 * @param resyncPeriod how often a worker syncs its pod when nothing told it to (the kubelet's
 *     {@code --sync-frequency}: 1 min)
 */
public record PodWorkerSettings(
        Duration relistPeriod,
        Duration backOffInitial,
        Duration backOffMax,
        String runtimeHandler,
        String runtimeName,
        Duration resyncPeriod) {

    /** The kubelet's values. */
    public static final PodWorkerSettings DEFAULT =
            new PodWorkerSettings(
                    Duration.ofSeconds(1),
                    CrashLoopBackOff.KUBELET.initial(),
                    CrashLoopBackOff.KUBELET.max(),
                    "",
                    "containerd",
                    Duration.ofMinutes(1));

    public PodWorkerSettings withRelistPeriod(Duration period) {
        return new PodWorkerSettings(
                period, backOffInitial, backOffMax, runtimeHandler, runtimeName, resyncPeriod);
    }

    public PodWorkerSettings withBackOff(Duration initial, Duration max) {
        return new PodWorkerSettings(
                relistPeriod, initial, max, runtimeHandler, runtimeName, resyncPeriod);
    }

    public PodWorkerSettings withResyncPeriod(Duration period) {
        return new PodWorkerSettings(
                relistPeriod, backOffInitial, backOffMax, runtimeHandler, runtimeName, period);
    }

    /** An empty back-off with these bounds and the kubelet's 10-minute reset. */
    CrashLoopBackOff newBackOff() {
        return new CrashLoopBackOff(
                backOffInitial, backOffMax, CrashLoopBackOff.KUBELET.stable(), Map.of());
    }
}
