package io.kubepekko.api.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** kube-apiserver's NamespaceLifecycle admission and the bootstrapped namespaces. */
class NamespaceLifecycleTest {

    private static final GroupResource CONFIG_MAPS = new GroupResource("", "configmaps");

    private static ObjectNode namespace(String name) {
        ObjectNode ns = Json.MAPPER.createObjectNode();
        ns.putObject("metadata").put("name", name);
        ns.putObject("status").put("phase", "Active");
        return ns;
    }

    @Test
    void anActiveNamespaceIsLive() {
        assertInstanceOf(
                NamespaceLifecycle.Admission.Live.class,
                NamespaceLifecycle.admit(
                        CONFIG_MAPS, "cm", "team", Optional.of(namespace("team")), true));
    }

    @Test
    void aMissingNamespaceIs404ForACreate() {
        var refused =
                assertInstanceOf(
                        NamespaceLifecycle.Admission.Refused.class,
                        NamespaceLifecycle.admit(
                                CONFIG_MAPS, "cm", "team", Optional.empty(), true));
        assertEquals(404, refused.status().code());
        assertEquals("namespaces \"team\" not found", refused.status().message());
        assertEquals("namespaces", refused.status().details().kind());
    }

    @Test
    void aMissingNamespaceLetsAWriteThatMayNotCreateGoOn() {
        assertInstanceOf(
                NamespaceLifecycle.Admission.Absent.class,
                NamespaceLifecycle.admit(CONFIG_MAPS, "cm", "team", Optional.empty(), false));
    }

    @Test
    void aTerminatingNamespaceRefusesNewContentWith403NamingTheObject() {
        ObjectNode ns = namespace("team");
        ((ObjectNode) ns.get("status")).put("phase", "Terminating");
        ApiStatus status =
                assertInstanceOf(
                                NamespaceLifecycle.Admission.Refused.class,
                                NamespaceLifecycle.admit(
                                        CONFIG_MAPS, "cm", "team", Optional.of(ns), false))
                        .status();
        assertEquals(403, status.code());
        assertEquals("Forbidden", status.reason());
        assertEquals(
                "configmaps \"cm\" is forbidden: unable to create new content in namespace team because it is "
                        + "being terminated",
                status.message());
        assertEquals("cm", status.details().name());
        assertEquals(
                List.of(
                        new StatusCause(
                                "NamespaceTerminating",
                                "namespace team is being terminated",
                                "metadata.namespace")),
                status.details().causes());
    }

    @Test
    void aNamespaceWithADeletionTimestampIsTerminatingBeforeItsPhaseSaysSo() {
        ObjectNode ns = namespace("team");
        ((ObjectNode) ns.get("metadata")).put("deletionTimestamp", "2026-01-02T03:04:05Z");
        var refused =
                assertInstanceOf(
                        NamespaceLifecycle.Admission.Refused.class,
                        NamespaceLifecycle.admit(CONFIG_MAPS, "cm", "team", Optional.of(ns), true));
        assertEquals(403, refused.status().code());
    }

    @Test
    void theSystemNamespacesAreNamedNamespaceObjects() {
        List<ObjectNode> objects = NamespaceLifecycle.systemNamespaces();
        assertEquals(
                List.of("default", "kube-system", "kube-public", "kube-node-lease"),
                objects.stream().map(o -> o.path("metadata").path("name").asText()).toList());
        assertEquals(
                Json.MAPPER
                        .createObjectNode()
                        .put("apiVersion", "v1")
                        .put("kind", "Namespace")
                        .set("metadata", Json.MAPPER.createObjectNode().put("name", "default")),
                objects.get(0));
    }
}
