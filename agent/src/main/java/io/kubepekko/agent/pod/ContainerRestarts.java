package io.kubepekko.agent.pod;

/**
 * Whether the agent starts a container (again), as the kubelet's {@code ShouldContainerBeRestarted}
 * (pkg/kubelet/container/helpers.go) for app containers and {@code computeInitContainerActions}
 * (pkg/kubelet/kuberuntime) for init containers, with the ContainerRestartRules gate off.
 */
public final class ContainerRestarts {
    private ContainerRestarts() {}

    /** What the runtime last showed of a container (its newest instance). */
    public sealed interface LastRun {
        /** No instance was ever created (or all were removed). */
        record None() implements LastRun {}

        /** Created but never started. */
        record Created() implements LastRun {}

        record Running() implements LastRun {}

        record Exited(int exitCode) implements LastRun {}

        /** The runtime cannot tell. */
        record Unknown() implements LastRun {}
    }

    /**
     * @param policy the pod's restart policy
     * @param container the container
     * @param init whether it is one of {@code spec.initContainers}
     * @param last its newest instance
     * @param podDeleting the pod has a {@code deletionTimestamp}: nothing is started any more
     */
    public static boolean shouldStart(
            RestartPolicy policy,
            ContainerSpec container,
            boolean init,
            LastRun last,
            boolean podDeleting) {
        if (podDeleting) {
            return false;
        }
        if (last instanceof LastRun.None
                || last instanceof LastRun.Created
                || last instanceof LastRun.Unknown) {
            return true; // never ran, or its state is lost: start it, whatever the policy
        }
        if (last instanceof LastRun.Running) {
            return false;
        }
        int exitCode = ((LastRun.Exited) last).exitCode();
        if (init && container.sidecar()) {
            return true; // a sidecar is restarted whatever the pod's policy
        }
        if (init) {
            // An init container that completed is done; one that failed runs again unless the pod
            // never
            // restarts (then the pod fails).
            return exitCode != 0 && policy != RestartPolicy.NEVER;
        }
        return switch (policy) {
            case NEVER -> false;
            case ON_FAILURE -> exitCode != 0;
            case ALWAYS -> true;
        };
    }
}
