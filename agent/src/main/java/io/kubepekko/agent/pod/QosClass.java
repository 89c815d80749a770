package io.kubepekko.agent.pod;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.kinds.PodQos;
import java.util.Locale;

/**
 * A pod's quality-of-service class, which also names its cgroup level ({@code
 * kubepods/besteffort/...}). Computed by the API's own {@link PodQos} (Kubernetes' {@code
 * ComputePodQOS}), so the agent and the server never disagree.
 */
public enum QosClass {
    GUARANTEED(PodQos.GUARANTEED),
    BURSTABLE(PodQos.BURSTABLE),
    BEST_EFFORT(PodQos.BEST_EFFORT);

    private final String text;

    QosClass(String text) {
        this.text = text;
    }

    /** {@code GetPodQOS}: the class the pod's status records, else the one its spec gives. */
    public static QosClass of(JsonNode pod) {
        String recorded = pod.path("status").path("qosClass").asText("");
        for (QosClass q : values()) {
            if (q.text.equals(recorded)) {
                return q;
            }
        }
        return ofSpec(pod.path("spec"));
    }

    /** {@code ComputePodQOS} from the pod's spec. */
    public static QosClass ofSpec(JsonNode spec) {
        String computed = PodQos.of(spec);
        for (QosClass q : values()) {
            if (q.text.equals(computed)) {
                return q;
            }
        }
        throw new IllegalStateException("unknown QoS class " + computed);
    }

    /**
     * The cgroup level the kubelet puts such pods under; Guaranteed pods sit directly under
     * kubepods.
     */
    public String cgroupLevel() {
        return this == GUARANTEED ? "" : text.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return text;
    }
}
