package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.logs.PodLogs;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;

/**
 * Removes a pod's log directory once its worker has torn the pod down (its sandbox is removed) and
 * the pod is being deleted or is gone, as the kubelet's {@code evictPodLogsDirectories} removes it
 * once the pod's content may be.
 */
final class PodLogDirectories {
    private PodLogDirectories() {}

    /** Removes {@code pod}'s log directory on {@code blocking}; a failure is only logged. */
    static void removeLater(NodeContext node, JsonNode pod, Executor blocking, Logger log) {
        Path dir =
                SandboxConfigs.podLogDirectory(
                        node,
                        pod.path("metadata").path("namespace").asText(""),
                        pod.path("metadata").path("name").asText(""),
                        PodChange.uid(pod));
        CompletableFuture.runAsync(
                () -> {
                    try {
                        PodLogs.removeDirectory(dir);
                    } catch (IOException ex) {
                        log.warn("cannot remove the pod log directory {}: {}", dir, ex.toString());
                    }
                },
                blocking);
    }
}
