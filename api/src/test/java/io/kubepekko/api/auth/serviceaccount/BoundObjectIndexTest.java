package io.kubepekko.api.auth.serviceaccount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.watch.PartialJson;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BoundObjectIndexTest {

    private static ObjectNode object(String namespace, String name, String uid) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        ObjectNode meta = o.putObject("metadata");
        if (!namespace.isEmpty()) {
            meta.put("namespace", namespace);
        }
        meta.put("name", name);
        meta.put("uid", uid);
        o.putObject("spec").put("serviceAccountName", "builder");
        return o;
    }

    @Test
    void keepsTheUidOfEachObjectByKindNamespaceAndName() {
        BoundObjectIndex index = new BoundObjectIndex();
        index.put(BoundObjects.Kind.POD, object("ci", "web-0", "pod-uid"));
        index.put(BoundObjects.Kind.NODE, object("", "node-a", "node-uid"));
        assertEquals(
                Optional.of(BoundObjects.Live.of("pod-uid")),
                index.find(BoundObjects.Kind.POD, "ci", "web-0"));
        assertEquals(
                Optional.of(BoundObjects.Live.of("node-uid")),
                index.find(BoundObjects.Kind.NODE, "", "node-a"));
        assertEquals(Optional.empty(), index.find(BoundObjects.Kind.SECRET, "ci", "web-0"));
        assertEquals(Optional.empty(), index.find(BoundObjects.Kind.POD, "other", "web-0"));
    }

    @Test
    void aDeletionTimestampIsKeptAndADeletedObjectIsGone() {
        BoundObjectIndex index = new BoundObjectIndex();
        ObjectNode pod = object("ci", "web-0", "pod-uid");
        index.put(BoundObjects.Kind.POD, pod);
        ((ObjectNode) pod.get("metadata")).put("deletionTimestamp", "2026-11-29T08:00:00Z");
        index.put(BoundObjects.Kind.POD, pod);
        assertEquals(
                Optional.of(
                        new BoundObjects.Live(
                                "pod-uid", Optional.of(Instant.parse("2026-11-29T08:00:00Z")))),
                index.find(BoundObjects.Kind.POD, "ci", "web-0"));
        index.remove(BoundObjects.Kind.POD, pod);
        assertEquals(Optional.empty(), index.find(BoundObjects.Kind.POD, "ci", "web-0"));
    }

    @Test
    void aPodsNodeIsKeptForNodeRestriction() {
        BoundObjectIndex index = new BoundObjectIndex();
        ObjectNode pod = object("ci", "web-0", "pod-uid");
        pod.putObject("spec").put("nodeName", "n1");
        index.put(BoundObjects.Kind.POD, pod);
        assertEquals(
                Optional.of(new BoundObjects.Live("pod-uid", Optional.empty(), "n1")),
                index.find(BoundObjects.Kind.POD, "ci", "web-0"));
    }

    @Test
    void aRelistReplacesWhatWasKnownOfItsKindOnly() {
        BoundObjectIndex index = new BoundObjectIndex();
        index.put(BoundObjects.Kind.POD, object("ci", "old", "u1"));
        index.put(BoundObjects.Kind.SECRET, object("ci", "old", "u2"));
        index.replace(BoundObjects.Kind.POD, List.of(object("ci", "new", "u3")));
        assertEquals(Optional.empty(), index.find(BoundObjects.Kind.POD, "ci", "old"));
        assertEquals(
                Optional.of(BoundObjects.Live.of("u3")),
                index.find(BoundObjects.Kind.POD, "ci", "new"));
        assertEquals(
                Optional.of(BoundObjects.Live.of("u2")),
                index.find(BoundObjects.Kind.SECRET, "ci", "old"));
    }

    @Test
    void isReadyOnceEveryKindWasListed() {
        BoundObjectIndex index = new BoundObjectIndex();
        for (BoundObjects.Kind kind : BoundObjects.Kind.values()) {
            assertEquals(true, index.readiness().isPresent(), kind.toString());
            index.replace(kind, List.of());
        }
        assertEquals(Optional.empty(), index.readiness());
    }

    @Test
    void anObjectsFieldsGiveTheIndexWhatTheWholeObjectGives() {
        ObjectNode pod = object("ci", "web-0", "pod-uid");
        ((ObjectNode) pod.get("metadata")).put("deletionTimestamp", "2026-01-02T03:04:05Z");
        ((ObjectNode) pod.get("metadata")).putObject("labels").put("app", "web");
        ((ObjectNode) pod.get("spec")).put("nodeName", "n1").putArray("containers").addObject();
        pod.putObject("status").put("phase", "Running");
        ObjectNode fields = PartialJson.keeping(BoundObjectIndex.FIELDS).parse(Json.bytes(pod));
        BoundObjectIndex whole = new BoundObjectIndex();
        BoundObjectIndex part = new BoundObjectIndex();

        whole.put(BoundObjects.Kind.POD, pod);
        part.put(BoundObjects.Kind.POD, fields);

        assertEquals(
                whole.find(BoundObjects.Kind.POD, "ci", "web-0"),
                part.find(BoundObjects.Kind.POD, "ci", "web-0"));
        assertEquals(
                "n1", part.find(BoundObjects.Kind.POD, "ci", "web-0").orElseThrow().nodeName());
        assertEquals(false, fields.has("status"));
        assertEquals(false, fields.path("spec").has("containers"));
    }
}
