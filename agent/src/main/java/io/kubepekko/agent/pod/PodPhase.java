package io.kubepekko.agent.pod;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A pod's {@code status.phase}, and how the kubelet computes it from its containers' statuses. */
public enum PodPhase {
    PENDING("Pending"),
    RUNNING("Running"),
    SUCCEEDED("Succeeded"),
    FAILED("Failed");

    private final String text;

    PodPhase(String text) {
        this.text = text;
    }

    @Override
    public String toString() {
        return text;
    }

    /**
     * The kubelet's {@code getPhase} (pkg/kubelet/kubelet_pods.go), with the ContainerRestartRules
     * gate off (its default in 1.35).
     *
     * @param spec the pod's containers and restart policy
     * @param statuses init and app container statuses together (names are unique across both)
     * @param podIsTerminal the agent has decided the pod will run no more containers
     * @param podHasInitialized an app container has started (then sidecars restarting do not make
     *     it Pending again)
     * @param staticPod static pods are not given a terminal phase by {@code podIsTerminal} alone
     */
    public static PodPhase of(
            PodSpec spec,
            List<ContainerStatus> statuses,
            boolean podIsTerminal,
            boolean podHasInitialized,
            boolean staticPod) {
        Map<String, ContainerStatus> byName = new HashMap<>();
        statuses.forEach(s -> byName.putIfAbsent(s.name(), s));
        int pendingRegularInit = 0;
        int pendingSidecars = 0;
        int failedInit = 0;
        for (ContainerSpec c : spec.initContainers()) {
            if (c.sidecar()) {
                continue;
            }
            ContainerStatus s = byName.get(c.name());
            if (s == null || s.state() instanceof ContainerState.Running) {
                pendingRegularInit++;
            } else if (s.state() instanceof ContainerState.Terminated t) {
                failedInit += t.exitCode() != 0 ? 1 : 0;
            } else if (s.lastTerminated().isPresent()) {
                failedInit += s.lastTerminated().get().exitCode() != 0 ? 1 : 0;
            } else {
                pendingRegularInit++;
            }
        }
        int unknown = 0;
        int running = 0;
        int waiting = 0;
        int stopped = 0;
        int succeeded = 0;
        for (ContainerSpec c : spec.initContainers()) {
            if (!c.sidecar()) {
                continue;
            }
            ContainerStatus s = byName.get(c.name());
            if (s == null) {
                unknown++;
            } else if (s.state() instanceof ContainerState.Running) {
                pendingSidecars += s.started() ? 0 : 1;
                running++;
            } else if (s.state() instanceof ContainerState.Waiting
                    && s.lastTerminated().isEmpty()) {
                // A sidecar that exited does not count towards the phase; one never run yet does.
                pendingSidecars++;
                waiting++;
            }
        }
        for (ContainerSpec c : spec.containers()) {
            ContainerStatus s = byName.get(c.name());
            if (s == null) {
                unknown++;
            } else if (s.state() instanceof ContainerState.Running) {
                running++;
            } else if (s.state() instanceof ContainerState.Terminated t) {
                stopped++;
                succeeded += t.exitCode() == 0 ? 1 : 0;
            } else if (s.lastTerminated().isPresent()) {
                stopped++;
            } else {
                waiting++;
            }
        }
        if (failedInit > 0 && spec.restartPolicy() == RestartPolicy.NEVER) {
            return FAILED;
        }
        if (pendingRegularInit > 0 || (pendingSidecars > 0 && !podHasInitialized) || waiting > 0) {
            return PENDING;
        }
        if (running > 0 && unknown == 0) {
            return RUNNING;
        }
        if (running == 0 && stopped > 0 && unknown == 0) {
            if (podIsTerminal && !staticPod) {
                return stopped == succeeded ? SUCCEEDED : FAILED;
            }
            if (spec.restartPolicy() == RestartPolicy.ALWAYS) {
                return RUNNING; // every container is on its way to a restart
            }
            if (stopped == succeeded) {
                return SUCCEEDED;
            }
            return spec.restartPolicy() == RestartPolicy.NEVER ? FAILED : RUNNING;
        }
        return PENDING;
    }
}
