package io.kubepekko.agent.probe;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * A probe's timing and thresholds with Kubernetes' defaults (period 10 s, timeout 1 s, success 1,
 * failure 3), and its handler ({@code exec}, {@code httpGet}, {@code tcpSocket}, {@code grpc}) as
 * given.
 */
public record ProbeSpec(
        int initialDelaySeconds,
        int periodSeconds,
        int timeoutSeconds,
        int successThreshold,
        int failureThreshold,
        JsonNode handler) {

    /**
     * Reads a probe with the API's defaults for fields left out or zero.
     *
     * @throws IllegalArgumentException for a liveness or startup probe whose successThreshold is
     *     not 1, as the API's validation refuses it (a static pod's manifest is not validated by a
     *     server)
     */
    public static ProbeSpec of(ProbeKind kind, JsonNode probe) {
        ProbeSpec spec =
                new ProbeSpec(
                        Math.max(0, probe.path("initialDelaySeconds").asInt(0)),
                        positiveOr(probe.path("periodSeconds").asInt(0), 10),
                        positiveOr(probe.path("timeoutSeconds").asInt(0), 1),
                        positiveOr(probe.path("successThreshold").asInt(0), 1),
                        positiveOr(probe.path("failureThreshold").asInt(0), 3),
                        probe.deepCopy());
        if (kind != ProbeKind.READINESS && spec.successThreshold != 1) {
            throw new IllegalArgumentException(
                    kind.field()
                            + ".successThreshold: Invalid value: "
                            + spec.successThreshold
                            + ": must be 1");
        }
        return spec;
    }

    private static int positiveOr(int value, int dflt) {
        return value > 0 ? value : dflt;
    }

    public Duration period() {
        return Duration.ofSeconds(periodSeconds);
    }

    public Duration timeout() {
        return Duration.ofSeconds(timeoutSeconds);
    }
}
