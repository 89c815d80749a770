package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * How long a pod being deleted gets to stop, as the kubelet's {@code
 * calculateEffectiveGracePeriod}: the deletion's {@code metadata.deletionGracePeriodSeconds} (what
 * the API server settled on for this delete), else the pod's {@code
 * spec.terminationGracePeriodSeconds}, else kube's default of 30 s. A negative value counts as 0.
 */
public final class GracePeriod {
    private GracePeriod() {}

    /** kube's default {@code terminationGracePeriodSeconds}. */
    public static final Duration DEFAULT = Duration.ofSeconds(30);

    public static Duration of(JsonNode pod) {
        JsonNode deletion = pod.path("metadata").path("deletionGracePeriodSeconds");
        if (deletion.isIntegralNumber()) {
            return seconds(deletion.asLong());
        }
        JsonNode spec = pod.path("spec").path("terminationGracePeriodSeconds");
        if (spec.isIntegralNumber()) {
            return seconds(spec.asLong());
        }
        return DEFAULT;
    }

    private static Duration seconds(long s) {
        return Duration.ofSeconds(Math.max(0, s));
    }
}
