package io.kubepekko.agent.pod;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.agent.probe.ProbeKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodSpecTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void readsPolicyContainersSidecarsAndProbesOnce() throws Exception {
        PodSpec spec =
                PodSpec.of(
                        JSON.readTree(
                                """
                {"restartPolicy":"OnFailure",
                 "initContainers":[{"name":"setup","image":"busybox:1.36"},
                                   {"name":"log","image":"busybox:1.36","restartPolicy":"Always"}],
                 "containers":[{"name":"app","image":"busybox:1.36","resources":{"limits":{"memory":"64Mi"}},
                                "readinessProbe":{"httpGet":{"port":8080},"periodSeconds":2},
                                "livenessProbe":{"tcpSocket":{"port":8080}}}]}
                """));
        assertEquals(RestartPolicy.ON_FAILURE, spec.restartPolicy());
        assertFalse(spec.initContainers().get(0).sidecar());
        assertTrue(spec.initContainers().get(1).sidecar());
        ContainerSpec app = spec.containers().get(0);
        assertEquals("app", app.name());
        assertEquals("{\"limits\":{\"memory\":\"64Mi\"}}", app.resources());
        assertEquals(2, app.probe(ProbeKind.READINESS).orElseThrow().periodSeconds());
        assertEquals(10, app.probe(ProbeKind.LIVENESS).orElseThrow().periodSeconds());
        assertEquals(Optional.empty(), app.probe(ProbeKind.STARTUP));
    }

    @Test
    void absentPolicyIsAlways() throws Exception {
        assertEquals(
                RestartPolicy.ALWAYS,
                PodSpec.of(JSON.readTree("{\"containers\":[]}")).restartPolicy());
    }
}
