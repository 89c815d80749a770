package io.kubepekko.api.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube's namespace deletion conditions and finalize body. */
class NamespaceDeletionTest {

    private static final Registry REGISTRY = Registry.builtin();

    private static ResourceType type(String group, String resource) {
        return REGISTRY.find(new GroupResource(group, resource)).orElseThrow();
    }

    private static ObjectNode obj(String... finalizers) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        ArrayNode fs = o.putObject("metadata").putArray("finalizers");
        for (String f : finalizers) {
            fs.add(f);
        }
        return o;
    }

    private static NamespaceCondition condition(NamespaceDeletion.Pass pass, String type) {
        return pass.conditions().stream()
                .filter(c -> c.type().equals(type))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void anEmptyNamespaceReportsEveryOkConditionAndCanBeFinalized() {
        NamespaceDeletion.Pass pass =
                NamespaceDeletion.summarize(
                        List.of(ContentRemaining.of(type("", "configmaps"), "ns", List.of())));
        assertTrue(pass.contentGone());
        assertEquals(
                List.of(
                        new NamespaceCondition(
                                "NamespaceDeletionDiscoveryFailure",
                                "False",
                                "ResourcesDiscovered",
                                "All resources successfully discovered"),
                        new NamespaceCondition(
                                "NamespaceDeletionGroupVersionParsingFailure",
                                "False",
                                "ParsedGroupVersions",
                                "All legacy kube types successfully parsed"),
                        new NamespaceCondition(
                                "NamespaceDeletionContentFailure",
                                "False",
                                "ContentDeleted",
                                "All content successfully deleted, may be waiting on finalization"),
                        new NamespaceCondition(
                                "NamespaceContentRemaining",
                                "False",
                                "ContentRemoved",
                                "All content successfully removed"),
                        new NamespaceCondition(
                                "NamespaceFinalizersRemaining",
                                "False",
                                "ContentHasNoFinalizers",
                                "All content-preserving finalizers finished")),
                pass.conditions());
    }

    @Test
    void contentHeldByFinalizersIsCountedPerResourceAndPerFinalizer() {
        NamespaceDeletion.Pass pass =
                NamespaceDeletion.summarize(
                        List.of(
                                ContentRemaining.of(
                                        type("", "pods"),
                                        "ns",
                                        List.of(
                                                obj("example.com/x"),
                                                obj("example.com/x"),
                                                obj("example.com/y"))),
                                ContentRemaining.of(
                                        type("apps", "deployments"),
                                        "ns",
                                        List.of(obj("example.com/x")))));
        assertFalse(pass.contentGone());
        assertEquals(15, pass.estimateSeconds());
        assertEquals(
                new NamespaceCondition(
                        "NamespaceContentRemaining",
                        "True",
                        "SomeResourcesRemain",
                        "Some resources are remaining: deployments.apps has 1 resource instances, pods. has 3 resource "
                                + "instances"),
                condition(pass, "NamespaceContentRemaining"));
        assertEquals(
                new NamespaceCondition(
                        "NamespaceFinalizersRemaining",
                        "True",
                        "SomeFinalizersRemain",
                        "Some content in the namespace has finalizers remaining: example.com/x in 3 resource "
                                + "instances, example.com/y in 1 resource instances"),
                condition(pass, "NamespaceFinalizersRemaining"));
        assertEquals("False", condition(pass, "NamespaceDeletionContentFailure").status());
    }

    @Test
    void contentThatShouldHaveGoneIsAContentFailure() {
        NamespaceDeletion.Pass pass =
                NamespaceDeletion.summarize(
                        List.of(
                                ContentRemaining.of(type("", "configmaps"), "ns", List.of(obj())),
                                ContentRemaining.failed(type("", "secrets"), "boom")));
        assertFalse(pass.contentGone());
        assertEquals(
                new NamespaceCondition(
                        "NamespaceDeletionContentFailure",
                        "True",
                        "ContentDeletionFailed",
                        "Failed to delete all resource types, 2 remaining: boom, unexpected items still remain in "
                                + "namespace: ns for gvr: /v1, Resource=configmaps"),
                condition(pass, "NamespaceDeletionContentFailure"));
    }

    @Test
    void conditionsKeepTheirTransitionTimeUnlessTheStatusChanges() {
        ObjectNode ns = Json.MAPPER.createObjectNode();
        NamespaceDeletion.Pass remaining =
                NamespaceDeletion.summarize(
                        List.of(
                                ContentRemaining.of(
                                        type("", "pods"), "ns", List.of(obj("example.com/x")))));
        ArrayNode first = NamespaceDeletion.mergeConditions(ns, remaining.conditions(), "T1");
        assertEquals(5, first.size());
        ns.putObject("status").set("conditions", first);
        assertNull(
                NamespaceDeletion.mergeConditions(ns, remaining.conditions(), "T2"), "unchanged");
        NamespaceDeletion.Pass more =
                NamespaceDeletion.summarize(
                        List.of(
                                ContentRemaining.of(
                                        type("", "pods"),
                                        "ns",
                                        List.of(obj("example.com/x"), obj("example.com/x")))));
        ArrayNode second = NamespaceDeletion.mergeConditions(ns, more.conditions(), "T3");
        assertEquals(
                "T1", second.get(3).path("lastTransitionTime").asText(), "same status: time kept");
        assertEquals(
                "Some resources are remaining: pods. has 2 resource instances",
                second.get(3).path("message").asText());
        ns.withObjectProperty("status").set("conditions", second);
        ArrayNode third =
                NamespaceDeletion.mergeConditions(
                        ns, NamespaceDeletion.summarize(List.of()).conditions(), "T4");
        assertEquals("T4", third.get(3).path("lastTransitionTime").asText(), "status changed");
        assertEquals("False", third.get(3).path("status").asText());
    }

    @Test
    void finalizeRemovesOnlyTheKubernetesTokenAndTerminatingSetsThePhase() {
        ObjectNode ns = Json.MAPPER.createObjectNode();
        ns.putObject("metadata").put("name", "ns").put("deletionTimestamp", "2026-01-01T00:00:00Z");
        ns.putObject("spec").putArray("finalizers").add("kubernetes").add("z.io/x").add("a.io/y");
        ns.putObject("status").put("phase", "Active");
        assertTrue(NamespaceDeletion.needsContentDeletion(ns));
        List<String> rest = new ArrayList<>();
        NamespaceDeletion.finalized(ns).at("/spec/finalizers").forEach(f -> rest.add(f.asText()));
        assertEquals(List.of("a.io/y", "z.io/x"), rest);
        assertEquals("Terminating", NamespaceDeletion.terminating(ns).at("/status/phase").asText());
        assertNull(NamespaceDeletion.terminating(NamespaceDeletion.terminating(ns)));
        assertFalse(NamespaceDeletion.needsContentDeletion(NamespaceDeletion.finalized(ns)));
    }
}
