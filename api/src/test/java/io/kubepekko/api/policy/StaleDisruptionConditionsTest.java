package io.kubepekko.api.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StaleDisruptionConditionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant SET = Instant.parse("2026-11-30T10:00:00Z");
    private static final Duration TIMEOUT = StaleDisruptionConditions.DEFAULT_TIMEOUT;

    private static ObjectNode pod(String status, String reason, String phase) throws Exception {
        return (ObjectNode)
                JSON.readTree(
                        """
                        {"metadata":{"name":"p","namespace":"n","resourceVersion":"42"},
                         "status":{"phase":"%s","conditions":[
                           {"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T09:00:00Z"},
                           {"type":"DisruptionTarget","status":"%s","reason":"%s",
                            "message":"Eviction API: evicting","lastTransitionTime":"2026-11-30T10:00:00Z"}]}}
                        """
                                .formatted(phase, status, reason));
    }

    @Test
    void anEvictionsConditionIsStaleTwoMinutesAfterItWasSet() throws Exception {
        ObjectNode pod = pod("True", "EvictionByEvictionAPI", "Running");
        assertEquals(
                Optional.of(Duration.ofSeconds(90)),
                StaleDisruptionConditions.staleIn(pod, SET.plusSeconds(30), TIMEOUT));
        assertEquals(
                Optional.of(Duration.ZERO),
                StaleDisruptionConditions.staleIn(pod, SET.plusSeconds(120), TIMEOUT));
        assertEquals(
                Optional.of(Duration.ZERO),
                StaleDisruptionConditions.staleIn(pod, SET.plusSeconds(600), TIMEOUT));
    }

    @Test
    void neverStaleWhileDeletingInATerminalPhaseFalseAbsentOrSetByTheKubelet() throws Exception {
        Instant late = SET.plusSeconds(600);
        ObjectNode deleting = pod("True", "EvictionByEvictionAPI", "Running");
        ((ObjectNode) deleting.get("metadata")).put("deletionTimestamp", "2026-11-30T10:00:01Z");
        assertFalse(StaleDisruptionConditions.staleIn(deleting, late, TIMEOUT).isPresent());
        for (String phase : new String[] {"Succeeded", "Failed"}) {
            assertFalse(
                    StaleDisruptionConditions.staleIn(
                                    pod("True", "EvictionByEvictionAPI", phase), late, TIMEOUT)
                            .isPresent(),
                    phase);
        }
        assertFalse(
                StaleDisruptionConditions.staleIn(
                                pod("False", "EvictionByEvictionAPI", "Running"), late, TIMEOUT)
                        .isPresent());
        assertFalse(
                StaleDisruptionConditions.staleIn(
                                pod("True", "TerminationByKubelet", "Running"), late, TIMEOUT)
                        .isPresent());
        JsonNode none = JSON.readTree("{\"metadata\":{\"name\":\"p\"},\"status\":{}}");
        assertFalse(StaleDisruptionConditions.staleIn(none, late, TIMEOUT).isPresent());
    }

    @Test
    void theResetIsFalseWithoutReasonOrMessageAtTheNewTimeKeepingTheOtherConditions()
            throws Exception {
        Instant now = SET.plusSeconds(130);
        ObjectNode patch =
                StaleDisruptionConditions.resetPatch(
                        pod("True", "EvictionByEvictionAPI", "Running"), now);
        assertEquals("42", patch.path("metadata").path("resourceVersion").asText());
        JsonNode conditions = patch.path("status").path("conditions");
        assertEquals(2, conditions.size());
        assertEquals("Ready", conditions.get(0).path("type").asText());
        assertEquals("True", conditions.get(0).path("status").asText());
        JsonNode reset = conditions.get(1);
        assertEquals("DisruptionTarget", reset.path("type").asText());
        assertEquals("False", reset.path("status").asText());
        assertEquals("2026-11-30T10:02:10Z", reset.path("lastTransitionTime").asText());
        assertFalse(reset.has("reason"));
        assertFalse(reset.has("message"));
        assertTrue(patch.path("status").size() == 1, "only the conditions: " + patch);
    }
}
