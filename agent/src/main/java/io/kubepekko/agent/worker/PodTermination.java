package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.runtime.ContainerConfigs;
import io.kubepekko.agent.runtime.PodCgroups;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pod's teardown in the runtime, as the kubelet's {@code KillPod}: its running containers are
 * killed in parallel with the grace period ({@link LifecycleHooks#kill}: Killing event, preStop,
 * SIGTERM, SIGKILL after what is left), then its sandboxes are stopped and removed (taking the
 * containers with them), then its cgroup (the runtime removes only its containers' cgroups; the
 * kubelet's {@code syncTerminatedPod} destroys the pod's). Everything is found by the pod's uid
 * label, so a container a sync step created late goes too.
 */
public final class PodTermination {
    private static final Logger LOG = LoggerFactory.getLogger(PodTermination.class);

    private PodTermination() {}

    /**
     * Tears down the pod of {@code uid} that no pod object describes any more (an orphan found at
     * start): no hooks run and no events are recorded; its running containers are stopped with
     * {@code grace}.
     */
    public static CompletionStage<Void> run(
            CriRuntime cri, PodCgroups cgroups, Executor blocking, String uid, Duration grace) {
        return run(
                cri,
                cgroups,
                blocking,
                Clock.systemUTC(),
                new PodEvents(EventSink.NONE, NullNode.getInstance()),
                uid,
                grace,
                ObservedPod.NOTHING);
    }

    static CompletionStage<Void> run(
            CriRuntime cri,
            PodCgroups cgroups,
            Executor blocking,
            Clock clock,
            PodEvents events,
            String uid,
            Duration grace,
            ObservedPod observed) {
        String podIp =
                observed.readySandbox()
                        .map(ObservedPod.Sandbox::ips)
                        .filter(ips -> !ips.isEmpty())
                        .map(ips -> ips.get(0))
                        .orElse(""); // an httpGet preStop's host
        Map<String, String> mine = Map.of(SandboxConfigs.POD_UID_LABEL, uid);
        return cri.listContainers(ContainerFilter.newBuilder().putAllLabelSelector(mine).build())
                .thenCompose(
                        containers ->
                                CompletableFuture.allOf(
                                        containers.stream()
                                                .filter(
                                                        c ->
                                                                c.getState()
                                                                                == ContainerState
                                                                                        .CONTAINER_RUNNING
                                                                        || c.getState()
                                                                                == ContainerState
                                                                                        .CONTAINER_UNKNOWN)
                                                .map(
                                                        c -> {
                                                            String name =
                                                                    c.getLabelsOrDefault(
                                                                            ContainerConfigs
                                                                                    .CONTAINER_NAME_LABEL,
                                                                            "");
                                                            LifecycleHooks.Target target =
                                                                    new LifecycleHooks.Target(
                                                                            name,
                                                                            c.getId(),
                                                                            containerJson(
                                                                                    events.pod(),
                                                                                    name),
                                                                            podIp);
                                                            return LifecycleHooks.kill(
                                                                            cri,
                                                                            clock,
                                                                            events,
                                                                            target,
                                                                            grace,
                                                                            "Stopping container "
                                                                                    + name)
                                                                    .toCompletableFuture();
                                                        })
                                                .toArray(CompletableFuture[]::new)))
                .thenCompose(
                        v ->
                                cri.listPodSandbox(
                                        PodSandboxFilter.newBuilder()
                                                .putAllLabelSelector(mine)
                                                .build()))
                .thenCompose(
                        sandboxes ->
                                CompletableFuture.allOf(
                                        sandboxes.stream()
                                                .map(
                                                        s ->
                                                                cri.stopPodSandbox(s.getId())
                                                                        .thenCompose(
                                                                                v ->
                                                                                        cri
                                                                                                .removePodSandbox(
                                                                                                        s
                                                                                                                .getId()))
                                                                        .toCompletableFuture())
                                                .toArray(CompletableFuture[]::new)))
                .thenRunAsync(() -> removeCgroups(cgroups, uid), blocking);
    }

    /**
     * Drops the pod's cgroup, now that no sandbox of it is left. Best effort, as the kubelet's: a
     * cgroup that cannot go is logged and the termination still succeeds (a process left in it
     * keeps it; the next start's orphan sweep tries again).
     */
    public static void removeCgroups(PodCgroups cgroups, String uid) {
        try {
            List<String> left = cgroups.remove(uid);
            if (!left.isEmpty()) {
                LOG.warn("pod uid {}: cgroups left: {}", uid, left);
            }
        } catch (RuntimeException e) {
            LOG.warn("pod uid {}: cannot remove its cgroups: {}", uid, e.toString());
        }
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
