package io.kubepekko.agent.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeIdentityTest {

    private static final NodeIdentity ID =
            new NodeIdentity(
                    "node-a",
                    "linux",
                    "amd64",
                    Map.of("tier", "edge", "kubernetes.io/os", "custom"),
                    Optional.of("kubepekko://node-a"),
                    false);

    @Test
    void theInitialNodeHasTheKubeletsLabelsProviderIdAndUnschedulableTaint() {
        ObjectNode n = ID.initialNode();
        assertEquals("node-a", n.path("metadata").path("name").asText());
        ObjectNode labels = (ObjectNode) n.path("metadata").path("labels");
        assertEquals("node-a", labels.path("kubernetes.io/hostname").asText());
        assertEquals("amd64", labels.path("kubernetes.io/arch").asText());
        assertEquals("amd64", labels.path("beta.kubernetes.io/arch").asText());
        assertEquals("linux", labels.path("beta.kubernetes.io/os").asText());
        assertEquals(
                "custom",
                labels.path("kubernetes.io/os").asText(),
                "--node-labels win over the defaults");
        assertEquals("edge", labels.path("tier").asText());
        assertEquals("kubepekko://node-a", n.path("spec").path("providerID").asText());
        assertEquals(true, n.path("spec").path("unschedulable").asBoolean());
        assertEquals(
                "{\"key\":\"node.kubernetes.io/unschedulable\",\"effect\":\"NoSchedule\"}",
                n.path("spec").path("taints").get(0).toString());
        assertEquals(
                "true",
                n.path("metadata")
                        .path("annotations")
                        .path("volumes.kubernetes.io/controller-managed-attach-detach")
                        .asText());
    }

    @Test
    void aSchedulableNodeHasNoTaint() {
        ObjectNode n =
                new NodeIdentity("n", "linux", "arm64", Map.of(), Optional.empty(), true)
                        .initialNode();
        assertEquals("{}", n.path("spec").toString());
    }

    @Test
    void adoptingAnExistingNodeReappliesOnlyTheDefaultLabels() {
        ObjectNode existing = ID.initialNode();
        assertEquals(Optional.empty(), ID.adoptionPatch(existing));
        ObjectNode drifted = existing.deepCopy();
        ((ObjectNode) drifted.path("metadata").path("labels"))
                .put("kubernetes.io/hostname", "old")
                .remove("tier");
        assertEquals(
                "{\"metadata\":{\"labels\":{\"kubernetes.io/hostname\":\"node-a\"}}}",
                ID.adoptionPatch(drifted).orElseThrow().toString(),
                "tier is not a default label: the kubelet leaves it");
        ObjectNode bare = Json.MAPPER.createObjectNode();
        bare.putObject("metadata").put("name", "node-a");
        assertEquals(
                "true",
                ID.adoptionPatch(bare)
                        .orElseThrow()
                        .path("metadata")
                        .path("annotations")
                        .path("volumes.kubernetes.io/controller-managed-attach-detach")
                        .asText());
    }
}
