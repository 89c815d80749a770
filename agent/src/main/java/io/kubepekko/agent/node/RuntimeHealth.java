package io.kubepekko.agent.node;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The kubelet's runtime state check (pkg/kubelet/runtime.go): the runtime counts as down when its last
 * successful answer is older than the threshold (the kubelet's {@code maxWaitForContainerRuntime}, 30 s),
 * and as not yet checked before its first answer. The error text is the kubelet's, shown in Ready's message.
 *
 * @param threshold      how long without an answer means down
 * @param lastAnswer     the last successful answer, empty before the first
 */
public record RuntimeHealth(Duration threshold, Optional<Instant> lastAnswer) {

    public static final Duration KUBELET_THRESHOLD = Duration.ofSeconds(30);

    public static RuntimeHealth unchecked(Duration threshold) {
        return new RuntimeHealth(threshold, Optional.empty());
    }

    public RuntimeHealth answered(Instant at) {
        return new RuntimeHealth(threshold, Optional.of(at));
    }

    /** Why the node is not ready because of its runtime at {@code now}, if it is not. */
    public Optional<String> error(Instant now) {
        if (lastAnswer.isEmpty()) {
            return Optional.of("container runtime status check may not have completed yet");
        }
        if (!lastAnswer.get().plus(threshold).isAfter(now)) {
            return Optional.of("container runtime is down");
        }
        return Optional.empty();
    }
}
