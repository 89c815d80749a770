package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.runtime.ContainerConfigs;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A pod's teardown in the runtime, as the kubelet's {@code KillPod}: its running containers are killed in parallel
 * with the grace period ({@link LifecycleHooks#kill}: Killing event, preStop, SIGTERM, SIGKILL after what is left),
 * then its sandboxes are stopped and removed (taking the containers with them). Everything is found by the pod's
 * uid label, so a container a sync step created late goes too.
 */
public final class PodTermination {
    private PodTermination() {}

    /**
     * Tears down the pod of {@code uid} that no pod object describes any more (an orphan found at start): no hooks
     * run and no events are recorded; its running containers are stopped with {@code grace}.
     */
    public static CompletionStage<Void> run(CriRuntime cri, String uid, Duration grace) {
        return run(cri, Clock.systemUTC(), new PodEvents(EventSink.NONE, com.fasterxml.jackson.databind.node.NullNode.getInstance()),
                uid, grace, ObservedPod.NOTHING);
    }

    static CompletionStage<Void> run(CriRuntime cri, Clock clock, PodEvents events, String uid, Duration grace,
                                     ObservedPod observed) {
        String podIp = observed.readySandbox().map(ObservedPod.Sandbox::ips).filter(ips -> !ips.isEmpty())
                .map(ips -> ips.get(0)).orElse(""); // an httpGet preStop's host
        Map<String, String> mine = Map.of(SandboxConfigs.POD_UID_LABEL, uid);
        return cri.listContainers(ContainerFilter.newBuilder().putAllLabelSelector(mine).build())
                .thenCompose(containers -> CompletableFuture.allOf(containers.stream()
                        .filter(c -> c.getState() == ContainerState.CONTAINER_RUNNING
                                || c.getState() == ContainerState.CONTAINER_UNKNOWN)
                        .map(c -> {
                            String name = c.getLabelsOrDefault(ContainerConfigs.CONTAINER_NAME_LABEL, "");
                            LifecycleHooks.Target target = new LifecycleHooks.Target(name, c.getId(),
                                    containerJson(events.pod(), name), podIp);
                            return LifecycleHooks.kill(cri, clock, events, target, grace, "Stopping container " + name)
                                    .toCompletableFuture();
                        })
                        .toArray(CompletableFuture[]::new)))
                .thenCompose(v -> cri.listPodSandbox(PodSandboxFilter.newBuilder().putAllLabelSelector(mine).build()))
                .thenCompose(sandboxes -> CompletableFuture.allOf(sandboxes.stream()
                        .map(s -> cri.stopPodSandbox(s.getId())
                                .thenCompose(v -> cri.removePodSandbox(s.getId())).toCompletableFuture())
                        .toArray(CompletableFuture[]::new)));
    }

    /** The container's spec in the pod (init or app), null when the pod no longer names it. */
    static JsonNode containerJson(JsonNode pod, String name) {
        for (String field : new String[] {"initContainers", "containers"}) {
            for (JsonNode c : pod.path("spec").path(field)) {
                if (c.path("name").asText().equals(name)) {
                    return c;
                }
            }
        }
        return null;
    }
}
