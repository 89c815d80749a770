package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * The events the kubelet records about one pod's containers, worded as the kubelet 1.35 words them
 * (pkg/kubelet/kuberuntime/kuberuntime_container.go, pkg/kubelet/images/image_manager.go,
 * pkg/kubelet/prober/prober.go), each about the container's field path in the pod.
 */
final class PodEvents {
    static final String NORMAL = "Normal";
    static final String WARNING = "Warning";

    private final EventSink sink;
    private volatile JsonNode pod;

    PodEvents(EventSink sink, JsonNode pod) {
        this.sink = sink;
        this.pod = pod;
    }

    /** The pod's newer version (an update keeps the uid). */
    void pod(JsonNode newer) {
        this.pod = newer;
    }

    JsonNode pod() {
        return pod;
    }

    void pulling(String container, String image) {
        record(container, NORMAL, "Pulling", "Pulling image \"" + image + "\"");
    }

    void pulled(String container, String image, Duration took) {
        String d = goDuration(took);
        record(
                container,
                NORMAL,
                "Pulled",
                "Successfully pulled image \""
                        + image
                        + "\" in "
                        + d
                        + " ("
                        + d
                        + " including waiting)");
    }

    void alreadyPresent(String container, String image) {
        record(
                container,
                NORMAL,
                "Pulled",
                "Container image \""
                        + image
                        + "\" already present on machine and can be accessed by the pod");
    }

    void created(String container) {
        record(container, NORMAL, "Created", "Container created");
    }

    void started(String container) {
        record(container, NORMAL, "Started", "Container started");
    }

    /**
     * A step before or at start failed: {@code Failed} with the waiting message ({@code Error: ...}
     * for CRI errors).
     */
    void failed(String container, String message) {
        record(container, WARNING, "Failed", message);
    }

    /**
     * kuberuntime's {@code startContainer} failure events: {@code Failed} with {@code Error:
     * <reason>} for an image that cannot be had (after {@code Failed to pull image ...} for a
     * failed pull, with {@code BackOff} while pulls back off), {@code Error: <message>} for a
     * config or CRI error.
     */
    void stepFailed(String step, String container, ContainerSteps.Failure failure) {
        if (failure.waiting().isEmpty()) {
            return;
        }
        PodStatusBuilder.Waiting waiting = failure.waiting().get();
        String image =
                PodTermination.containerJson(pod, container) == null
                        ? ""
                        : PodTermination.containerJson(pod, container).path("image").asText();
        switch (waiting.reason()) {
            case WaitingReasons.ERR_IMAGE_PULL -> {
                failed(container, "Failed to pull image \"" + image + "\": " + failure.message());
                failed(container, "Error: " + waiting.reason());
            }
            case WaitingReasons.IMAGE_PULL_BACK_OFF -> {
                record(container, NORMAL, "BackOff", "Back-off pulling image \"" + image + "\"");
                failed(container, "Error: " + waiting.reason());
            }
            case WaitingReasons.ERR_IMAGE_NEVER_PULL -> {
                record(container, WARNING, WaitingReasons.ERR_IMAGE_NEVER_PULL, waiting.message());
                failed(container, "Error: " + waiting.reason());
            }
            case WaitingReasons.POST_START_HOOK_ERROR -> {} // FailedPostStartHook was recorded
            default -> failed(container, "Error: " + waiting.message());
        }
    }

    /**
     * The volume manager's words for a volume it could not set up again ({@code
     * operation_generator.go}: Warning {@code FailedMount}, {@code MountVolume.SetUp failed for
     * volume "v" : ...}), about the pod itself.
     */
    void failedMount(String message) {
        sink.event(pod, "", WARNING, "FailedMount", message);
    }

    void killing(String container, String message) {
        record(container, NORMAL, "Killing", message);
    }

    /**
     * {@code BackOff} for each container whose crash-loop back-off begins (once per back-off, not
     * per relist).
     */
    void backOffs(
            Map<String, PodStatusBuilder.Waiting> waits,
            Map<String, PodStatusBuilder.Waiting> before) {
        waits.forEach(
                (name, w) -> {
                    if (w.reason().equals("CrashLoopBackOff") && !w.equals(before.get(name))) {
                        backOff(name);
                    }
                });
    }

    void backOff(String container) {
        record(
                container,
                WARNING,
                "BackOff",
                "Back-off restarting failed container " + container + " in pod " + podText());
    }

    /** A failed probe: {@code Liveness probe failed: <output>}. */
    void unhealthy(String container, String probe, String output) {
        record(container, WARNING, "Unhealthy", probe + " probe failed: " + output);
    }

    /**
     * The handler's error stays out of the event, as the kubelet keeps secrets from leaking into
     * it.
     */
    void failedPreStopHook(String container) {
        record(container, WARNING, "FailedPreStopHook", "PreStopHook failed");
    }

    void failedPostStartHook(String container) {
        record(container, WARNING, "FailedPostStartHook", "PostStartHook failed");
    }

    /** {@code format.Pod}: {@code name_namespace(uid)}. */
    String podText() {
        JsonNode meta = pod.path("metadata");
        return meta.path("name").asText()
                + "_"
                + meta.path("namespace").asText()
                + "("
                + meta.path("uid").asText()
                + ")";
    }

    private void record(String container, String type, String reason, String message) {
        sink.event(pod, fieldPath(container), type, reason, message);
    }

    /**
     * {@code spec.initContainers{name}} for an init container, else {@code spec.containers{name}}.
     */
    String fieldPath(String container) {
        for (JsonNode c : pod.path("spec").path("initContainers")) {
            if (c.path("name").asText().equals(container)) {
                return "spec.initContainers{" + container + "}";
            }
        }
        return "spec.containers{" + container + "}";
    }

    /** Go's {@code time.Duration} text truncated to milliseconds: {@code 1.5s}, {@code 250ms}. */
    static String goDuration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        String s = BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
        return s + "s";
    }
}
