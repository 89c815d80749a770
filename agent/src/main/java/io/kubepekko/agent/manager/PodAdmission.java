package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.pod.QosClass;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The kubelet's pod-count admission (pkg/kubelet/lifecycle/predicate.go with the scheduler's
 * noderesources fit: the node's allocatable {@code pods}, i.e. {@code --max-pods}, against the pods
 * already admitted and not yet terminated, the pod itself left out). A pod beyond it is rejected as
 * {@code kubelet.go rejectPod} does: a Warning Event with the reason and message, and the status
 * {@code phase: Failed}, the reason, {@code "Pod was rejected: " + message}, the QoS class and a
 * start time. No container is started and the pod is never admitted again.
 */
final class PodAdmission {
    private PodAdmission() {}

    /**
     * The reason of a pod rejected for the node's pod count (lifecycle.OutOfPods: {@code "OutOf" +
     * "pods"}).
     */
    static final String OUT_OF_PODS = "OutOfpods";

    /** What {@code rejectPod} puts before the admit handler's message in the pod's status. */
    static final String STATUS_MESSAGE_PREFIX = "Pod was rejected: ";

    /** Why a pod is not admitted: the Event's reason and message. */
    record Rejection(String reason, String message) {

        /** The status the kubelet writes for a rejected pod. */
        ObjectNode status(JsonNode pod, Instant now) {
            ObjectNode s = JsonNodeFactory.instance.objectNode();
            s.put("phase", "Failed");
            s.put("reason", reason);
            s.put("message", STATUS_MESSAGE_PREFIX + message);
            s.put("qosClass", QosClass.of(pod).toString());
            JsonNode started = pod.path("status").path("startTime");
            s.put(
                    "startTime",
                    started.isTextual()
                            ? started.asText()
                            : now.truncatedTo(ChronoUnit.SECONDS).toString());
            return s;
        }
    }

    /**
     * Whether a pod fits next to {@code admitted} pods already admitted and not terminated: the
     * scheduler's {@code len(pods)+1 > allowedPodNumber} check, whose message is the
     * InsufficientResourceError's.
     */
    static Optional<Rejection> admit(int maxPods, int admitted) {
        if (admitted + 1 <= maxPods) {
            return Optional.empty();
        }
        return Optional.of(
                new Rejection(
                        OUT_OF_PODS,
                        "Node didn't have enough resource: pods, requested: 1, used: "
                                + admitted
                                + ", capacity: "
                                + maxPods));
    }

    /**
     * Whether the pod's phase is terminal: it no longer holds the node's resources and is not
     * admitted again.
     */
    static boolean terminal(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return phase.equals("Failed") || phase.equals("Succeeded");
    }

    /**
     * Whether a node (this agent before a restart, or a kubelet) rejected the pod: it never runs.
     */
    static boolean rejectedBefore(JsonNode pod) {
        return pod.path("status").path("phase").asText("").equals("Failed")
                && pod.path("status").path("message").asText("").startsWith(STATUS_MESSAGE_PREFIX);
    }
}
