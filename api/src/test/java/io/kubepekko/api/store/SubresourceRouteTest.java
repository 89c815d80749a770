package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.Verb;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How each built-in subresource is served, read off the registry rather than known by name in the
 * routes.
 */
class SubresourceRouteTest {

    private static final Registry REGISTRY = Registry.builtin();

    private static ResourceType type(String group, String resource) {
        return REGISTRY.find(new GroupResource(group, resource)).orElseThrow();
    }

    private static SubresourceRoute.ObjectPart part(
            String group, String resource, String subresource) {
        return assertInstanceOf(
                SubresourceRoute.ObjectPart.class,
                SubresourceRoute.of(type(group, resource), subresource).orElseThrow());
    }

    @Test
    void statusReadsAndWritesTheObjectInItsOwnKindWithEveryPatchFormat() {
        SubresourceRoute.ObjectPart status = part("apps", "deployments", "status");
        assertEquals("status", status.name());
        assertEquals(Set.of(Verb.GET, Verb.UPDATE, Verb.PATCH), status.verbs());
        assertEquals(type("apps", "deployments").gvk(), status.bodyKind());
        assertEquals(List.of(PatchType.values()), status.patchTypes());
        byte[] stored = "{\"kind\":\"Deployment\"}".getBytes();
        assertSame(stored, status.read(type("apps", "deployments"), stored));
    }

    @Test
    void scaleIsTheScaleViewWithoutApply() {
        ResourceType deployments = type("apps", "deployments");
        SubresourceRoute.ObjectPart scale = part("apps", "deployments", "scale");
        assertEquals(Set.of(Verb.GET, Verb.UPDATE, Verb.PATCH), scale.verbs());
        assertEquals(ScaleConversion.GVK, scale.bodyKind());
        assertEquals(
                List.of(
                        PatchType.JSON_PATCH,
                        PatchType.MERGE_PATCH,
                        PatchType.STRATEGIC_MERGE_PATCH),
                scale.patchTypes());
        ObjectNode deployment = Json.MAPPER.createObjectNode();
        deployment.putObject("metadata").put("name", "web");
        deployment.putObject("spec").put("replicas", 3);
        assertArrayEquals(
                Json.bytes(ScaleConversion.toScale(deployments, deployment)),
                scale.read(deployments, Json.bytes(deployment)));
    }

    @Test
    void finalizeOnlyUpdates() {
        SubresourceRoute.ObjectPart finalize = part("", "namespaces", "finalize");
        assertEquals(Set.of(Verb.UPDATE), finalize.verbs());
        assertEquals(false, finalize.allows(Verb.GET));
        assertEquals(true, finalize.allows(Verb.UPDATE));
    }

    @Test
    void bindingIsACreateThroughTheKindsStrategy() {
        ResourceType pods = type("", "pods");
        var creates =
                assertInstanceOf(
                        SubresourceRoute.Creates.class,
                        SubresourceRoute.of(pods, "binding").orElseThrow());
        assertSame(
                pods.strategy().subresourceCreate("binding").getClass(),
                creates.creation().getClass());
    }

    @Test
    void anAdvertisedSubresourceThisServerDoesNotServeHasNoRoute() {
        assertEquals(Optional.empty(), SubresourceRoute.of(type("", "pods"), "log"));
    }

    @Test
    void aSubresourceTheKindLacksHasNoRoute() {
        assertEquals(Optional.empty(), SubresourceRoute.of(type("", "configmaps"), "status"));
        assertEquals(Optional.empty(), SubresourceRoute.of(type("", "pods"), "finalize"));
        assertEquals(Optional.empty(), SubresourceRoute.of(type("", "pods"), "scale"));
    }
}
