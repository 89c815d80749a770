package io.kubepekko.agent.worker;

import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A pod's teardown in the runtime, as the kubelet's {@code KillPod}: its running containers are stopped with the
 * grace period (SIGTERM, SIGKILL after it), then its sandboxes are stopped and removed (taking the containers
 * with them). Everything is found by the pod's uid label, so a container a sync step created late goes too.
 */
public final class PodTermination {
    private PodTermination() {}

    /** Tears the pod of {@code uid} down, its running containers stopped with {@code grace}. */
    public static CompletionStage<Void> run(CriRuntime cri, String uid, Duration grace) {
        Map<String, String> mine = Map.of(SandboxConfigs.POD_UID_LABEL, uid);
        return cri.listContainers(ContainerFilter.newBuilder().putAllLabelSelector(mine).build())
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
    }
}
