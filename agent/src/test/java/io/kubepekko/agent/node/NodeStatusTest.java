package io.kubepekko.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.net.InetAddress;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeStatusTest {

    static final HostFacts HOST =
            new HostFacts(
                    "node-a",
                    "mid",
                    "uuid",
                    "boot",
                    "6.1.0-18-amd64",
                    "Debian GNU/Linux 12 (bookworm)",
                    "linux",
                    "amd64",
                    4,
                    16L * 1024 * 1024 * 1024,
                    100L * 1024 * 1024 * 1024,
                    List.of(InetAddress.getLoopbackAddress()));

    static NodeStatus.Inputs inputs(Optional<RuntimeFacts.Version> version, List<String> errors) {
        return new NodeStatus.Inputs(
                List.of(),
                110,
                10250,
                "v0.1.0",
                version,
                Optional.of(
                        List.of(
                                new RuntimeFacts.Image(
                                        List.of("docker.io/library/busybox:1.36"),
                                        List.of("docker.io/library/busybox@sha256:abc"),
                                        1000),
                                new RuntimeFacts.Image(
                                        List.of("registry.k8s.io/pause:3.10"), List.of(), 5000))),
                errors);
    }

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

    @Test
    void carriesCapacityAllocatableAddressesInfoAndImagesAsTheKubelet() {
        ObjectNode s =
                NodeStatus.compute(
                        Json.MAPPER.createObjectNode(),
                        HOST,
                        inputs(
                                Optional.of(new RuntimeFacts.Version("containerd", "1.6.20")),
                                List.of()),
                        T0);
        assertEquals(
                "{\"cpu\":\"4\",\"ephemeral-storage\":\"100Gi\",\"memory\":\"16Gi\",\"pods\":\"110\"}",
                s.path("capacity").toString());
        // 100Mi of memory and 10 % of the disk are the kubelet's default hard eviction thresholds.
        assertEquals("16284Mi", s.path("allocatable").path("memory").asText());
        // The kubelet's 10 % is a float32 (0.100000001…): 100Gi − int64(100Gi × 0.100000001…).
        assertEquals("96636764000", s.path("allocatable").path("ephemeral-storage").asText());
        assertEquals(
                "[{\"type\":\"InternalIP\",\"address\":\"127.0.0.1\"},{\"type\":\"Hostname\",\"address\":\"node-a\"}]",
                s.path("addresses").toString());
        assertEquals(10250, s.path("daemonEndpoints").path("kubeletEndpoint").path("Port").asInt());
        JsonNode info = s.path("nodeInfo");
        assertEquals("containerd://1.6.20", info.path("containerRuntimeVersion").asText());
        assertEquals("v0.1.0", info.path("kubeletVersion").asText());
        assertEquals("Debian GNU/Linux 12 (bookworm)", info.path("osImage").asText());
        assertEquals("amd64", info.path("architecture").asText());
        assertEquals("mid", info.path("machineID").asText());
        assertEquals(
                "registry.k8s.io/pause:3.10",
                s.path("images").get(0).path("names").get(0).asText(),
                "biggest first");
        assertEquals(
                "[\"docker.io/library/busybox@sha256:abc\",\"docker.io/library/busybox:1.36\"]",
                s.path("images").get(1).path("names").toString(),
                "digests, then tags");
        assertEquals("True", s.path("conditions").get(3).path("status").asText());
    }

    @Test
    void aSilentRuntimeKeepsTheLastVersionAndMakesTheNodeNotReady() {
        ObjectNode first =
                NodeStatus.compute(
                        Json.MAPPER.createObjectNode(),
                        HOST,
                        inputs(
                                Optional.of(new RuntimeFacts.Version("containerd", "1.6.20")),
                                List.of()),
                        T0);
        ObjectNode later =
                NodeStatus.compute(
                        first,
                        HOST,
                        inputs(Optional.empty(), List.of("container runtime is down")),
                        T0.plusSeconds(40));
        assertEquals(
                "containerd://1.6.20",
                later.path("nodeInfo").path("containerRuntimeVersion").asText());
        assertEquals("KubeletNotReady", later.path("conditions").get(3).path("reason").asText());
        assertEquals(
                "container runtime is down",
                later.path("conditions").get(3).path("message").asText());
    }

    @Test
    void onlyHeartbeatTimesDoNotCountAsAChange() {
        NodeStatus.Inputs in =
                inputs(Optional.of(new RuntimeFacts.Version("containerd", "1.6.20")), List.of());
        ObjectNode first = NodeStatus.compute(Json.MAPPER.createObjectNode(), HOST, in, T0);
        ObjectNode again = NodeStatus.compute(first, HOST, in, T0.plusSeconds(10));
        assertFalse(NodeStatus.hasChanged(first, again));
        // As read back from the server: numbers parsed as ints where the agent wrote longs.
        assertFalse(NodeStatus.hasChanged(Json.parseTrusted(Json.bytes(first)), again));
        ObjectNode upgraded =
                NodeStatus.compute(
                        first,
                        HOST,
                        inputs(
                                Optional.of(new RuntimeFacts.Version("containerd", "1.7.0")),
                                List.of()),
                        T0.plusSeconds(10));
        assertTrue(NodeStatus.hasChanged(first, upgraded));
    }

    @Test
    void thePatchReplacesAddressesWholeAndMergesConditions() {
        ObjectNode s =
                NodeStatus.compute(
                        Json.MAPPER.createObjectNode(),
                        HOST,
                        inputs(
                                Optional.of(new RuntimeFacts.Version("containerd", "1.6.20")),
                                List.of()),
                        T0);
        JsonNode addresses = NodeStatus.patch(s).path("status").path("addresses");
        assertEquals("{\"$patch\":\"replace\"}", addresses.get(addresses.size() - 1).toString());
        assertEquals(4, NodeStatus.patch(s).path("status").path("conditions").size());
    }

    @Test
    void quantitiesPrintAsBinarySi() {
        assertEquals("0", NodeStatus.binarySi(0));
        assertEquals("1536", NodeStatus.binarySi(1536));
        assertEquals("16318208Ki", NodeStatus.binarySi(16_709_844_992L));
        assertEquals("2Gi", NodeStatus.binarySi(2L << 30));
    }

    @Test
    void osImageAndMemoryAndCpusAreReadAsCadvisorDoes() {
        assertEquals(
                "Debian GNU/Linux 12 (bookworm)",
                HostFacts.osImage(
                        "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"));
        assertEquals("Linux", HostFacts.osImage(""));
        assertEquals(
                16318208L * 1024,
                HostFacts.memTotal("MemTotal:       16318208 kB\nMemFree: 1 kB\n"));
        assertEquals(5, HostFacts.cpuCount("0-3,6\n"));
    }
}
