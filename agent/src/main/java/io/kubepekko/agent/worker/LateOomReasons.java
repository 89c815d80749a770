package io.kubepekko.agent.worker;

import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * When a {@link PodWorker} reads its pod again because a container's exit may still turn out to be
 * an OOM kill.
 *
 * <p>containerd (1.6 to 2.2) reports an exited container's reason from its task's exit event
 * ({@code Error} for a non-zero code) and changes it to {@code OOMKilled} only when it handles the
 * task's OOM event, which the shim publishes on another path and which may come after the exit
 * (containerd/containerd#12372; since containerd#12714 the shim sends the OOM event first and the
 * exit handler checks the cgroup's OOM counter). No listing shows that change (ListContainers has
 * no reason), so the node-wide relist never reports it. The kubelet writes a terminal pod's last
 * status from reads taken after it stopped the pod's sandbox ({@code syncTerminatingPod}), a while
 * after the exit; this agent keeps a terminal pod's sandbox, so it reads such a container again
 * instead: an OOM kill is a SIGKILL, so only an exit 137 that reads {@code Error} may change. It is
 * read a relist period after it was first seen so, then at doubling intervals, until it reads
 * otherwise or the interval reaches the resync period (whose syncs read the pod anyway). Every read
 * of the pod counts, whatever asked for it.
 */
final class LateOomReasons {

    /** 128 + SIGKILL: the exit code of a process the kernel's OOM killer ended. */
    static final int KILLED = 137;

    /** containerd's reason for a non-zero exit it knows nothing more about. */
    static final String ERROR = "Error";

    private final Duration first;
    private final Duration resync;

    /** Per container id that may still change, how long after the next read to read again. */
    private final Map<String, Duration> waits = new HashMap<>();

    LateOomReasons(Duration relistPeriod, Duration resyncPeriod) {
        this.first = relistPeriod;
        this.resync = resyncPeriod;
    }

    /**
     * The pod was read as {@code observed}: how long to wait before reading it again for an exit
     * that may still turn into {@code OOMKilled}; empty when no such read is due.
     */
    Optional<Duration> readAgainAfter(ObservedPod observed) {
        Set<String> undecided =
                observed.containers().values().stream()
                        .flatMap(List::stream)
                        .filter(LateOomReasons::mayBecomeOomKilled)
                        .map(ContainerStatus::getId)
                        .collect(Collectors.toSet());
        waits.keySet().retainAll(undecided);
        Optional<Duration> soonest = Optional.empty();
        for (String id : undecided) {
            Duration wait = waits.getOrDefault(id, first);
            waits.put(id, wait.multipliedBy(2));
            if (wait.compareTo(resync) < 0
                    && soonest.map(s -> wait.compareTo(s) < 0).orElse(true)) {
                soonest = Optional.of(wait);
            }
        }
        return soonest;
    }

    private static boolean mayBecomeOomKilled(ContainerStatus c) {
        return c.getState() == ContainerState.CONTAINER_EXITED
                && c.getExitCode() == KILLED
                && c.getReason().equals(ERROR);
    }
}
