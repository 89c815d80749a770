package io.kubepekko.agent.worker;

import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one relist saw of a pod in the runtime, found by its uid label.
 *
 * @param readySandbox its ready sandbox, if any
 * @param sandboxIds every sandbox of the pod (ready or not)
 * @param containers per container name, its instances newest (highest attempt) first; only the two
 *     newest carry a full status (the current one and the one {@code lastState} reports)
 */
public record ObservedPod(
        Optional<Sandbox> readySandbox,
        List<String> sandboxIds,
        Map<String, List<ContainerStatus>> containers) {

    public static final ObservedPod NOTHING =
            new ObservedPod(Optional.empty(), List.of(), Map.of());

    public ObservedPod {
        sandboxIds = List.copyOf(sandboxIds);
        containers = Map.copyOf(containers);
    }

    /** A ready sandbox, the attempt it was created as, and its addresses, primary first. */
    public record Sandbox(String id, int attempt, List<String> ips) {
        public Sandbox {
            ips = List.copyOf(ips);
        }
    }

    public List<ContainerStatus> instances(String container) {
        return containers.getOrDefault(container, List.of());
    }

    public Optional<ContainerStatus> newest(String container) {
        return instances(container).stream().findFirst();
    }

    /** Whether any instance of any container is still running (or created, about to). */
    public boolean anyRunning() {
        return containers.values().stream()
                .flatMap(List::stream)
                .anyMatch(c -> c.getState() == ContainerState.CONTAINER_RUNNING);
    }
}
