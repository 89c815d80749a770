package io.kubepekko.api.table;

import static io.kubepekko.api.table.CoreCells.flag;
import static io.kubepekko.api.table.CoreCells.integer;
import static io.kubepekko.api.table.CoreCells.items;
import static io.kubepekko.api.table.CoreCells.object;
import static io.kubepekko.api.table.CoreCells.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code kubectl get pods} condenses a pod's status into: ready and total containers, the
 * one-word status, and the restarts with the time of the latest. The derivation follows kube's pod
 * printer step by step because users read these words (CrashLoopBackOff, Init:0/2, Terminating...)
 * as the pod's state.
 *
 * @param lastRestart when the most recent counted restart's previous run finished; null if unknown
 */
record CorePodSummary(int ready, int total, String status, long restarts, Instant lastRestart) {

    static CorePodSummary of(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        JsonNode podStatus = pod.path("status");
        List<JsonNode> initSpecs = items(spec, "initContainers");

        // Sidecars (init containers that restart always) run beside the app containers, so they
        // count towards the total; looked up by name like kube, so a later duplicate name wins.
        int total = items(spec, "containers").size();
        Map<String, Boolean> sidecarByName = new HashMap<>();
        for (JsonNode init : initSpecs) {
            boolean sidecar = isSidecar(init);
            sidecarByName.put(text(init, "name"), sidecar);
            if (sidecar) {
                total++;
            }
        }

        String phase = text(podStatus, "phase");
        String status = text(podStatus, "reason").isEmpty() ? phase : text(podStatus, "reason");
        for (JsonNode condition : items(podStatus, "conditions")) {
            if (text(condition, "type").equals("PodScheduled")
                    && text(condition, "reason").equals("SchedulingGated")) {
                status = "SchedulingGated";
            }
        }

        int ready = 0;
        long restarts = 0;
        long sidecarRestarts = 0;
        Instant lastRestart = null;
        Instant lastSidecarRestart = null;
        boolean initializing = false;
        List<JsonNode> initStatuses = items(podStatus, "initContainerStatuses");
        // Init containers run in order: the first one not done yet names the status, and the ones
        // after it have not started, so neither their restarts nor their readiness are counted.
        for (int i = 0; i < initStatuses.size(); i++) {
            JsonNode container = initStatuses.get(i);
            long count = integer(container, "restartCount");
            Instant finished = lastFinished(container);
            boolean sidecar = sidecarByName.getOrDefault(text(container, "name"), false);
            restarts += count;
            lastRestart = CoreCells.later(lastRestart, finished);
            if (sidecar) {
                sidecarRestarts += count;
                lastSidecarRestart = CoreCells.later(lastSidecarRestart, finished);
            }
            JsonNode state = container.path("state");
            JsonNode terminated = object(state, "terminated");
            JsonNode waiting = object(state, "waiting");
            if (terminated != null && integer(terminated, "exitCode") == 0) {
                continue;
            }
            if (sidecar && flag(container, "started")) {
                if (flag(container, "ready")) {
                    ready++;
                }
                continue;
            }
            if (terminated != null) {
                status =
                        text(terminated, "reason").isEmpty()
                                ? "Init:" + exitDescription(terminated)
                                : "Init:" + text(terminated, "reason");
            } else if (waiting != null
                    && !text(waiting, "reason").isEmpty()
                    && !text(waiting, "reason").equals("PodInitializing")) {
                status = "Init:" + text(waiting, "reason");
            } else {
                status = "Init:" + i + "/" + initSpecs.size();
            }
            initializing = true;
            break;
        }

        if (!initializing || initializedConditionTrue(podStatus)) {
            // Past initialization only the sidecars' restarts stay relevant beside the containers'.
            restarts = sidecarRestarts;
            lastRestart = lastSidecarRestart;
            boolean hasRunning = false;
            List<JsonNode> statuses = items(podStatus, "containerStatuses");
            // Backwards, so the first container with something to say has the last word.
            for (int i = statuses.size() - 1; i >= 0; i--) {
                JsonNode container = statuses.get(i);
                restarts += integer(container, "restartCount");
                lastRestart = CoreCells.later(lastRestart, lastFinished(container));
                JsonNode state = container.path("state");
                JsonNode waiting = object(state, "waiting");
                JsonNode terminated = object(state, "terminated");
                if (waiting != null && !text(waiting, "reason").isEmpty()) {
                    status = text(waiting, "reason");
                } else if (terminated != null && !text(terminated, "reason").isEmpty()) {
                    status = text(terminated, "reason");
                } else if (terminated != null) {
                    status = exitDescription(terminated);
                } else if (flag(container, "ready") && object(state, "running") != null) {
                    hasRunning = true;
                    ready++;
                }
            }
            // One container completed while another still runs: the pod as a whole is running.
            if (status.equals("Completed") && hasRunning) {
                status = readyConditionTrue(podStatus) ? "Running" : "NotReady";
            }
        }

        if (!text(pod.path("metadata"), "deletionTimestamp").isEmpty()) {
            if (text(podStatus, "reason").equals("NodeLost")) {
                status = "Unknown";
            } else if (!phase.equals("Failed") && !phase.equals("Succeeded")) {
                status = "Terminating";
            }
        }
        return new CorePodSummary(ready, total, status, restarts, lastRestart);
    }

    private static boolean isSidecar(JsonNode initContainer) {
        return text(initContainer, "restartPolicy").equals("Always");
    }

    /** When the container's previous run finished: the moment of its latest restart. */
    private static Instant lastFinished(JsonNode containerStatus) {
        return CoreCells.time(
                object(containerStatus.path("lastState"), "terminated"), "finishedAt");
    }

    private static String exitDescription(JsonNode terminated) {
        long signal = integer(terminated, "signal");
        return signal != 0 ? "Signal:" + signal : "ExitCode:" + integer(terminated, "exitCode");
    }

    /** Whether the first Initialized condition is True. */
    private static boolean initializedConditionTrue(JsonNode podStatus) {
        for (JsonNode condition : items(podStatus, "conditions")) {
            if (text(condition, "type").equals("Initialized")) {
                return text(condition, "status").equals("True");
            }
        }
        return false;
    }

    /** Whether any Ready condition is True. */
    private static boolean readyConditionTrue(JsonNode podStatus) {
        for (JsonNode condition : items(podStatus, "conditions")) {
            if (text(condition, "type").equals("Ready")
                    && text(condition, "status").equals("True")) {
                return true;
            }
        }
        return false;
    }
}
