package io.kubepekko.api.definition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.registry.VersionConversion;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.table.TablePrinter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A kind served in several versions: the registry resolves each served version to its storage and
 * conversion, knows one storage version per group-resource, and the served version converts
 * objects, field selectors, response bodies and refusals.
 */
class ServedVersionsTest {

    private static final Registry REGISTRY = Registry.builtin();

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static ServedKind eventsV1() {
        return REGISTRY.served("events.k8s.io", "v1", "events").orElseThrow();
    }

    @Test
    void eventsV1IsStoredAsCoreEvents() {
        ServedKind events = eventsV1();
        assertFalse(events.isStorageVersion());
        assertEquals(new GroupResource("events.k8s.io", "events"), events.type().groupResource());
        assertEquals(new GroupResource("", "events"), events.storageType().groupResource());
        assertEquals("events.k8s.io/v1", events.apiVersion());
        assertSame(
                REGISTRY.definition(new GroupResource("", "events")).orElseThrow(),
                events.storage());
    }

    @Test
    void aStorageVersionIsServedAsItIsStored() {
        ServedKind core = REGISTRY.served("", "v1", "events").orElseThrow();
        assertTrue(core.isStorageVersion());
        byte[] json = "{\"kind\":\"Event\",\"apiVersion\":\"v1\"}".getBytes(StandardCharsets.UTF_8);
        assertSame(json, core.fromStorage(json));
        assertSame(json, core.responseBody(json));
        assertEquals("involvedObject.name=x", core.storageFieldSelector("involvedObject.name=x"));
    }

    @Test
    void collectionsCachesAndControllersKnowOnlyTheStorageVersion() {
        assertTrue(REGISTRY.stored().stream().noneMatch(t -> t.group().equals("events.k8s.io")));
        assertEquals(
                1, REGISTRY.stored().stream().filter(t -> t.resource().equals("events")).count());
        assertTrue(REGISTRY.definition(new GroupResource("events.k8s.io", "events")).isEmpty());
        assertEquals(
                List.of("v1", "events.k8s.io/v1"),
                List.copyOf(REGISTRY.servedVersions(new GroupResource("", "events")).keySet()));
        // An owner reference to an events.k8s.io/v1 Event is read from where Events are stored.
        assertEquals(
                new GroupResource("", "events"),
                REGISTRY.findKind("events.k8s.io/v1", "Event").orElseThrow().groupResource());
        assertEquals(
                new GroupVersionKind("", "v1", "Event"), REGISTRY.storageKind(eventsV1().type()));
    }

    @Test
    void convertsStoredObjectsWithTheServedTypeMetaFirst() {
        ObjectNode stored =
                obj(
                        "{'apiVersion':'v1','kind':'Event','metadata':{'name':'e'},"
                                + "'involvedObject':{'name':'p'},'message':'m','count':2}");
        ObjectNode served = eventsV1().fromStorage(stored);
        assertEquals(
                "{\"kind\":\"Event\",\"apiVersion\":\"events.k8s.io/v1\",\"metadata\":{\"name\":\"e\"},"
                        + "\"regarding\":{\"name\":\"p\"},\"note\":\"m\",\"deprecatedCount\":2}",
                Json.string(served));
        assertEquals(stored, eventsV1().toStorage(served));
        assertArrayEquals(Json.bytes(served), eventsV1().fromStorage(Json.bytes(stored)));
    }

    @Test
    void fieldSelectorsUseTheServedVersionsLabels() {
        assertEquals(
                "involvedObject.name=web,reportingComponent!=kubelet,type=Warning",
                eventsV1()
                        .storageFieldSelector(
                                "regarding.name=web,type=Warning,reportingController!=kubelet"));
        assertEquals(
                "metadata.name=e,source=x",
                eventsV1().storageFieldSelector("source=x,metadata.name=e"));
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> eventsV1().storageFieldSelector("involvedObject.name=web"));
        assertEquals(400, e.status().code());
        assertEquals("field label not supported: involvedObject.name", e.status().message());
    }

    @Test
    void responsesAndRefusalsNameTheServedResource() {
        byte[] deleted = Json.bytes(ApiStatus.success(new GroupResource("", "events"), "e", "u-1"));
        ObjectNode status = Json.parseTrusted(eventsV1().responseBody(deleted));
        assertEquals("events.k8s.io", status.at("/details/group").asText());
        assertEquals("events", status.at("/details/kind").asText());

        ApiStatus refused =
                eventsV1().refusal(ApiStatus.alreadyExists(new GroupResource("", "events"), "e"));
        assertEquals("events.events.k8s.io \"e\" already exists", refused.message());
        assertEquals("events.k8s.io", refused.details().group());
        ApiStatus conflict =
                eventsV1()
                        .refusal(
                                ApiStatus.staleResourceVersion(
                                        new GroupResource("", "events"), "e"));
        assertTrue(
                conflict.message()
                        .startsWith(
                                "Operation cannot be fulfilled on events.events.k8s.io \"e\": "),
                conflict.message());
        // A 422 names the kind, which both versions share, and passes unchanged.
        ApiStatus invalid = ApiStatus.invalid("", "Event", "e", List.of());
        assertSame(invalid, eventsV1().refusal(invalid));
    }

    private static KindDefinition widgets(String version) {
        return KindDefinition.builtin(
                ResourceType.builder("example.com", version, "Widget", "widgets"),
                Strategy.GENERIC,
                TablePrinter.DEFAULT);
    }

    @Test
    void refusesTwoStorageVersionsOfOneGroupResource() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> new Registry(List.of(widgets("v1"), widgets("v2"))));
        assertEquals("widgets.example.com has two storage versions", e.getMessage());
    }

    @Test
    void refusesAVersionStoredWhereNoStorageVersionOfItsKindIs() {
        KindDefinition v2 =
                KindDefinition.servedVersion(
                        ResourceType.builder("example.com", "v2", "Widget", "widgets"),
                        new GroupResource("example.com", "gadgets"),
                        VersionConversion.IDENTITY,
                        TablePrinter.DEFAULT);
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> new Registry(List.of(widgets("v1"), v2)));
        assertTrue(e.getMessage().contains("is stored as gadgets.example.com"), e.getMessage());
        KindDefinition ok =
                KindDefinition.servedVersion(
                        ResourceType.builder("example.com", "v2", "Widget", "widgets"),
                        new GroupResource("example.com", "widgets"),
                        VersionConversion.IDENTITY,
                        TablePrinter.DEFAULT);
        Registry registry = new Registry(List.of(widgets("v1"), ok));
        assertEquals(List.of("v1", "v2"), registry.versions("example.com"));
        assertEquals("v1", registry.stored().get(0).version());
        assertEquals(
                "v1",
                registry.served("example.com", "v2", "widgets")
                        .orElseThrow()
                        .storageType()
                        .version());
    }
}
