package io.kubepekko.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import io.kubepekko.agent.flags.AgentFlags;
import io.kubepekko.agent.flags.AgentSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NodeAgentSettingsTest {

    private static AgentSettings flags(String... args) {
        return ((AgentFlags.Parsed.Run) AgentFlags.parse(args)).settings();
    }

    @Test
    void theNodeReportsTheServersPortTheOneGivenOrTheOneBoundForPortZero() {
        assertEquals(
                10250,
                NodeAgentSettings.of(flags(), "host", "v1").kubeletPort(),
                "the kubelet's default");
        assertEquals(
                10255, NodeAgentSettings.of(flags("--port", "10255"), "host", "v1").kubeletPort());
        NodeAgentSettings picked =
                NodeAgentSettings.of(flags("--port", "0"), "host", "v1").withKubeletPort(41234);
        assertEquals(41234, picked.kubeletPort());
        assertEquals(
                NodeAgentSettings.of(flags("--port", "0"), "host", "v1").identity(),
                picked.identity());
    }

    @Test
    void theRuntimeIsDownAfterTheKubeletsThirtySecondsUnlessTheSettingShortensIt() {
        NodeAgentSettings kubelets = NodeAgentSettings.of(flags(), "host", "v1");
        assertEquals(Duration.ofSeconds(30), kubelets.runtimeDownAfter());
        assertEquals(
                Duration.ofSeconds(30),
                kubelets.withRuntimeDownAfter(ConfigFactory.parseString("a = 1"))
                        .runtimeDownAfter());
        assertEquals(
                Duration.ofSeconds(6),
                kubelets.withRuntimeDownAfter(
                                ConfigFactory.parseString(
                                        NodeAgentSettings.RUNTIME_DOWN_AFTER + " = 6s"))
                        .runtimeDownAfter());
    }
}
