package io.kubepekko.api.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetadataPatchesTest {

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void removesOnlyTheNamedOwnersAndPinsTheResourceVersion() {
        ObjectNode d = GarbageCollectionTest.dependent(List.of("a", "b"));
        assertEquals(
                "{\"metadata\":{\"resourceVersion\":\"7\",\"ownerReferences\":[{\"apiVersion\":\"v1\","
                        + "\"kind\":\"ConfigMap\",\"name\":\"o-b\",\"uid\":\"b\",\"blockOwnerDeletion\":true}]}}",
                text(MetadataPatches.withoutOwnerReferences(d, List.of("a")).orElseThrow()));
        assertEquals(
                "{\"metadata\":{\"resourceVersion\":\"7\",\"ownerReferences\":null}}",
                text(MetadataPatches.withoutOwnerReferences(d, List.of("a", "b")).orElseThrow()));
        assertTrue(MetadataPatches.withoutOwnerReferences(d, List.of("zz")).isEmpty());
    }

    @Test
    void removesOneFinalizer() {
        ObjectNode d =
                GarbageCollectionTest.dependent(List.of(), "foregroundDeletion", "example.com/x");
        assertEquals(
                "{\"metadata\":{\"resourceVersion\":\"7\",\"finalizers\":[\"example.com/x\"]}}",
                text(MetadataPatches.withoutFinalizer(d, "foregroundDeletion").orElseThrow()));
        ObjectNode only = GarbageCollectionTest.dependent(List.of(), "orphan");
        assertEquals(
                "{\"metadata\":{\"resourceVersion\":\"7\",\"finalizers\":null}}",
                text(MetadataPatches.withoutFinalizer(only, "orphan").orElseThrow()));
        assertTrue(
                MetadataPatches.withoutFinalizer(Json.MAPPER.createObjectNode(), "orphan")
                        .isEmpty());
    }
}
