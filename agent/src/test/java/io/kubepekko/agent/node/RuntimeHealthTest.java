package io.kubepekko.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's runtime state texts (pkg/kubelet/runtime.go, kubelet.go updateRuntimeUp) as Ready's
 * message parts.
 */
class RuntimeHealthTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final RuntimeFacts.Condition RUNTIME_READY =
            new RuntimeFacts.Condition("RuntimeReady", true, "", "");
    private static final RuntimeFacts.Condition NETWORK_READY =
            new RuntimeFacts.Condition("NetworkReady", true, "", "");

    @Test
    void beforeTheFirstAnswerTheCheckHasNotCompletedAndTheNetworkIsUnknown() {
        RuntimeHealth h = RuntimeHealth.unchecked(RuntimeHealth.KUBELET_THRESHOLD);
        assertEquals(
                List.of(
                        "container runtime status check may not have completed yet",
                        "network state unknown"),
                h.errors(T0));
        assertEquals(
                "[container runtime status check may not have completed yet, network state unknown]",
                NodeConditions.aggregate(h.errors(T0)));
    }

    @Test
    void theRuntimeIsDownThirtySecondsAfterItsLastReadyAnswer() {
        RuntimeHealth h =
                RuntimeHealth.unchecked(RuntimeHealth.KUBELET_THRESHOLD)
                        .answered(List.of(RUNTIME_READY, NETWORK_READY), T0);
        assertEquals(List.of(), h.errors(T0.plusSeconds(29)));
        // Unanswered calls change nothing: only time makes it down, with no other error.
        assertEquals(List.of("container runtime is down"), h.errors(T0.plusSeconds(30)));
        assertEquals(
                List.of(),
                h.answered(List.of(RUNTIME_READY, NETWORK_READY), T0.plusSeconds(40))
                        .errors(T0.plusSeconds(40)));
    }

    @Test
    void aRuntimeThatAnswersNotReadyIsNamedWithItsConditionAndGoesDownWhenThatLasts() {
        RuntimeHealth h =
                RuntimeHealth.unchecked(RuntimeHealth.KUBELET_THRESHOLD)
                        .answered(List.of(RUNTIME_READY, NETWORK_READY), T0)
                        .answered(
                                List.of(
                                        new RuntimeFacts.Condition(
                                                "RuntimeReady", false, "Broken", "shim gone"),
                                        NETWORK_READY),
                                T0.plusSeconds(5));
        assertEquals(
                List.of(
                        "container runtime not ready: RuntimeReady=false reason:Broken message:shim gone"),
                h.errors(T0.plusSeconds(5)));
        assertEquals(
                "[container runtime is down, container runtime not ready: RuntimeReady=false reason:Broken "
                        + "message:shim gone]",
                NodeConditions.aggregate(h.errors(T0.plusSeconds(30))));
    }

    @Test
    void aNetworkThatIsNotReadyOrMissingIsNamedAsTheKubeletPrintsIt() {
        RuntimeHealth h =
                RuntimeHealth.unchecked(RuntimeHealth.KUBELET_THRESHOLD)
                        .answered(
                                List.of(
                                        RUNTIME_READY,
                                        new RuntimeFacts.Condition(
                                                "NetworkReady",
                                                false,
                                                "NetworkPluginNotReady",
                                                "Network plugin returns error: cni plugin not initialized")),
                                T0);
        assertEquals(
                List.of(
                        "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady "
                                + "message:Network plugin returns error: cni plugin not initialized"),
                h.errors(T0));
        RuntimeHealth silent =
                RuntimeHealth.unchecked(RuntimeHealth.KUBELET_THRESHOLD).answered(List.of(), T0);
        assertEquals(
                List.of(
                        "container runtime status check may not have completed yet",
                        "container runtime not ready: <nil>",
                        "container runtime network not ready: <nil>"),
                silent.errors(T0));
    }
}
