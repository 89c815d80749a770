package io.kubepekko.agent.node;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The kubelet's runtime state (pkg/kubelet/runtime.go {@code runtimeState}, fed by kubelet.go
 * {@code updateRuntimeUp} from CRI {@code Status}): the runtime counts as synced when an answer
 * said {@code RuntimeReady}; as down when that is older than the threshold (the kubelet's {@code
 * maxWaitForContainerRuntime}, 30 s) and as not yet checked before the first. A {@code
 * RuntimeReady} or {@code NetworkReady} that is false or missing is an error of its own, kept until
 * an answer says otherwise; a call that fails changes nothing but time. The texts are the
 * kubelet's: they make Ready's message.
 *
 * @param threshold how long without a ready answer means down
 * @param lastReady the last answer that said RuntimeReady, empty before the first
 * @param runtimeError why the last answer's RuntimeReady was not true, if it was not
 * @param networkError why the last answer's NetworkReady was not true; before any answer the
 *     kubelet's "network state unknown"
 */
public record RuntimeHealth(
        Duration threshold,
        Optional<Instant> lastReady,
        Optional<String> runtimeError,
        Optional<String> networkError) {

    public static final Duration KUBELET_THRESHOLD = Duration.ofSeconds(30);

    public static final String RUNTIME_READY = "RuntimeReady";
    public static final String NETWORK_READY = "NetworkReady";

    public static RuntimeHealth unchecked(Duration threshold) {
        return new RuntimeHealth(
                threshold,
                Optional.empty(),
                Optional.empty(),
                Optional.of("network state unknown"));
    }

    /** After a CRI {@code Status} answer with these conditions at {@code at}. */
    public RuntimeHealth answered(List<RuntimeFacts.Condition> conditions, Instant at) {
        Optional<RuntimeFacts.Condition> network = find(conditions, NETWORK_READY);
        Optional<String> netError =
                network.filter(RuntimeFacts.Condition::status).isPresent()
                        ? Optional.empty()
                        : Optional.of("container runtime network not ready: " + describe(network));
        Optional<RuntimeFacts.Condition> runtime = find(conditions, RUNTIME_READY);
        if (runtime.filter(RuntimeFacts.Condition::status).isEmpty()) {
            return new RuntimeHealth(
                    threshold,
                    lastReady,
                    Optional.of("container runtime not ready: " + describe(runtime)),
                    netError);
        }
        return new RuntimeHealth(threshold, Optional.of(at), Optional.empty(), netError);
    }

    /**
     * Why the node is not ready because of its runtime at {@code now}, in the kubelet's order;
     * empty when it is.
     */
    public List<String> errors(Instant now) {
        List<String> errors = new ArrayList<>();
        if (lastReady.isEmpty()) {
            errors.add("container runtime status check may not have completed yet");
        } else if (!lastReady.get().plus(threshold).isAfter(now)) {
            errors.add("container runtime is down");
        }
        runtimeError.ifPresent(errors::add);
        networkError.ifPresent(errors::add);
        return errors;
    }

    private static Optional<RuntimeFacts.Condition> find(
            List<RuntimeFacts.Condition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.type())).findFirst();
    }

    // As Go prints the kubelet's *RuntimeCondition with %v: its String(), or <nil> when the runtime
    // left it out.
    private static String describe(Optional<RuntimeFacts.Condition> c) {
        return c.map(
                        x ->
                                x.type()
                                        + "="
                                        + x.status()
                                        + " reason:"
                                        + x.reason()
                                        + " message:"
                                        + x.message())
                .orElse("<nil>");
    }
}
