package io.kubepekko.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kubepekko.api.meta.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeConditionsTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00.700Z");
    private static final Instant T1 = Instant.parse("2025-01-01T00:00:10Z");

    private static List<String> types(ArrayNode conditions) {
        List<String> out = new ArrayList<>();
        conditions.forEach(c -> out.add(c.path("type").asText()));
        return out;
    }

    private static JsonNode of(ArrayNode conditions, String type) {
        for (JsonNode c : conditions) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        throw new AssertionError(type + " missing from " + conditions);
    }

    @Test
    void aNewNodeGetsTheKubeletsFourConditionsInItsOrder() {
        ArrayNode c =
                NodeConditions.update(
                        Json.MAPPER.createArrayNode(), NodeConditions.Inputs.healthy(), T0);
        assertEquals(List.of("MemoryPressure", "DiskPressure", "PIDPressure", "Ready"), types(c));
        JsonNode ready = of(c, "Ready");
        assertEquals("True", ready.path("status").asText());
        assertEquals("KubeletReady", ready.path("reason").asText());
        assertEquals("kubelet is posting ready status", ready.path("message").asText());
        assertEquals("2025-01-01T00:00:00Z", ready.path("lastHeartbeatTime").asText());
        assertEquals("2025-01-01T00:00:00Z", ready.path("lastTransitionTime").asText());
        JsonNode memory = of(c, "MemoryPressure");
        assertEquals("False", memory.path("status").asText());
        assertEquals("KubeletHasSufficientMemory", memory.path("reason").asText());
        assertEquals("kubelet has sufficient memory available", memory.path("message").asText());
        assertEquals("KubeletHasNoDiskPressure", of(c, "DiskPressure").path("reason").asText());
        assertEquals("KubeletHasSufficientPID", of(c, "PIDPressure").path("reason").asText());
    }

    @Test
    void heartbeatsMoveButTransitionsOnlyOnAStatusChange() {
        ArrayNode first =
                NodeConditions.update(
                        Json.MAPPER.createArrayNode(), NodeConditions.Inputs.healthy(), T0);
        ArrayNode same = NodeConditions.update(first, NodeConditions.Inputs.healthy(), T1);
        for (String type : List.of("MemoryPressure", "Ready")) {
            assertEquals("2025-01-01T00:00:10Z", of(same, type).path("lastHeartbeatTime").asText());
            assertEquals(
                    "2025-01-01T00:00:00Z", of(same, type).path("lastTransitionTime").asText());
        }
        ArrayNode down =
                NodeConditions.update(
                        same,
                        new NodeConditions.Inputs(
                                List.of("container runtime is down"), false, false, false),
                        T1);
        JsonNode ready = of(down, "Ready");
        assertEquals("False", ready.path("status").asText());
        assertEquals("KubeletNotReady", ready.path("reason").asText());
        assertEquals("container runtime is down", ready.path("message").asText());
        assertEquals("2025-01-01T00:00:10Z", ready.path("lastTransitionTime").asText());
    }

    @Test
    void severalErrorsAreAggregatedAsTheKubeletDoes() {
        assertEquals("runtime", NodeConditions.aggregate(List.of("runtime")));
        assertEquals("[runtime, network]", NodeConditions.aggregate(List.of("runtime", "network")));
    }

    @Test
    void conditionsOfOthersStayWhereTheyAre() {
        ArrayNode previous = Json.MAPPER.createArrayNode();
        previous.addObject()
                .put("type", "NetworkUnavailable")
                .put("status", "False")
                .put("reason", "RouteCreated");
        ArrayNode c = NodeConditions.update(previous, NodeConditions.Inputs.healthy(), T0);
        assertEquals(
                List.of(
                        "NetworkUnavailable",
                        "MemoryPressure",
                        "DiskPressure",
                        "PIDPressure",
                        "Ready"),
                types(c));
        assertEquals("RouteCreated", of(c, "NetworkUnavailable").path("reason").asText());
    }

    @Test
    void thePressureConditionsReportPressure() {
        ArrayNode c =
                NodeConditions.update(
                        Json.MAPPER.createArrayNode(),
                        new NodeConditions.Inputs(List.of(), true, true, true),
                        T0);
        assertEquals(
                "KubeletHasInsufficientMemory", of(c, "MemoryPressure").path("reason").asText());
        assertEquals("kubelet has disk pressure", of(c, "DiskPressure").path("message").asText());
        assertEquals("True", of(c, "PIDPressure").path("status").asText());
    }
}
