package io.kubepekko.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeLeaseTest {

    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00.123456789Z");

    @Test
    void aNewLeaseIsHeldByTheNodeForFortySecondsAndOwnedByIt() {
        ObjectNode l = NodeLease.create("node-a", Optional.of("uid-1"), T0);
        assertEquals("kube-node-lease", l.path("metadata").path("namespace").asText());
        assertEquals("node-a", l.path("metadata").path("name").asText());
        assertEquals("node-a", l.path("spec").path("holderIdentity").asText());
        assertEquals(40, l.path("spec").path("leaseDurationSeconds").asInt());
        assertEquals("2025-01-01T00:00:00.123456Z", l.path("spec").path("renewTime").asText());
        assertEquals(
                "[{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"node-a\",\"uid\":\"uid-1\"}]",
                l.path("metadata").path("ownerReferences").toString());
        assertEquals(Duration.ofSeconds(10), NodeLease.RENEW_INTERVAL, "a quarter of the duration");
    }

    @Test
    void theOwnerIsAddedOnARenewalOnceTheNodeIsKnownAndNeverReplaced() {
        ObjectNode orphan = NodeLease.create("node-a", Optional.empty(), T0);
        assertFalse(NodeLease.hasOwner(orphan));
        ObjectNode owned =
                NodeLease.renewed(orphan, "node-a", Optional.of("uid-2"), T0.plusSeconds(10));
        assertEquals(
                "uid-2",
                owned.path("metadata").path("ownerReferences").get(0).path("uid").asText());
        assertEquals("2025-01-01T00:00:10.123456Z", owned.path("spec").path("renewTime").asText());
        ObjectNode again =
                NodeLease.renewed(owned, "node-a", Optional.of("uid-3"), T0.plusSeconds(20));
        assertEquals(
                "uid-2",
                again.path("metadata").path("ownerReferences").get(0).path("uid").asText());
    }
}
