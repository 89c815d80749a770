package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code metadata.managedFields} through the write pipeline: recorded, kept, reset and taken as
 * supplied.
 */
class ManagedFieldsRecorderTest {

    private static final ResourceType CONFIG_MAPS =
            Registry.builtin().all().stream()
                    .filter(t -> t.resource().equals("configmaps"))
                    .findFirst()
                    .orElseThrow();
    private final Map<String, ObjectNode> store = new HashMap<>();
    private Instant now = Instant.parse("2026-11-23T10:00:00Z");
    private int uids;
    private final ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private ObjectNode run(WriteOp op) {
        WriteOutcome out =
                writes.execute(
                                CONFIG_MAPS,
                                "default",
                                store::get,
                                op,
                                new ObjectWrites.Env(now, () -> "uid-" + (++uids), () -> "x"))
                        .orThrow();
        ObjectNode stored = out.after().deepCopy();
        ObjectNode meta = (ObjectNode) stored.get("metadata");
        meta.put("resourceVersion", Integer.toString(10 + uids + store.size()));
        store.put("cm", stored);
        return stored;
    }

    private static WriteOptions by(String manager) {
        return new WriteOptions(false, manager, FieldValidation.WARN);
    }

    private ObjectNode update(String json, String manager) {
        return run(new WriteOp.Update("cm", obj(json), null, by(manager)));
    }

    private ObjectNode create() {
        return run(
                new WriteOp.Create(
                        obj("{'metadata':{'name':'cm','labels':{'a':'1'}},'data':{'k':'v'}}"),
                        by("creator")));
    }

    private static JsonNode managed(ObjectNode object) {
        return object.at("/metadata/managedFields");
    }

    @Test
    void aCreateAndAnUpdateByAnotherManagerAreRecorded() {
        create();
        now = now.plusSeconds(60);
        ObjectNode after =
                update(
                        "{'metadata':{'name':'cm','labels':{'a':'1','b':'2'}},'data':{'k':'v'}}",
                        "editor");
        assertEquals(2, managed(after).size());
        assertEquals("creator", managed(after).get(0).path("manager").asText());
        assertEquals(
                "2026-11-23T10:00:00Z",
                managed(after).get(0).path("time").asText(),
                "untouched entry");
        assertEquals("editor", managed(after).get(1).path("manager").asText());
        assertEquals("2026-11-23T10:01:00Z", managed(after).get(1).path("time").asText());
    }

    @Test
    void aBodyWithoutManagedFieldsKeepsThemAndANoOpChangesNothing() {
        ObjectNode created = create();
        now = now.plusSeconds(60);
        WriteOutcome noop =
                writes.execute(
                                CONFIG_MAPS,
                                "default",
                                store::get,
                                new WriteOp.Update(
                                        "cm",
                                        obj(
                                                "{'metadata':{'name':'cm','labels':{'a':'1'}},'data':{'k':'v'}}"),
                                        null,
                                        by("creator")),
                                new ObjectWrites.Env(now, () -> "u", () -> "x"))
                        .orThrow();
        assertFalse(noop.changed(), "omitting managedFields is not a change");
        assertSame(store.get("cm"), noop.after());
        assertEquals(managed(created), managed(store.get("cm")));
    }

    @Test
    void managedFieldsSetToAnEmptyEntryAreCleared() {
        create();
        ObjectNode after =
                update(
                        "{'metadata':{'name':'cm','labels':{'a':'1'},'managedFields':[{}]},'data':{'k':'v'}}",
                        "editor");
        assertTrue(managed(after).isMissingNode(), "[{}] resets the record: " + after);
    }

    @Test
    void aResetHappensFirstSoTheWriterOwnsWhatElseItChanged() {
        create();
        ObjectNode after =
                update(
                        "{'metadata':{'name':'cm','labels':{'a':'1'},'managedFields':[{}]},'data':{'k':'w'}}",
                        "editor");
        assertEquals(1, managed(after).size(), after.toString());
        assertEquals("editor", managed(after).get(0).path("manager").asText());
        assertEquals(obj("{'f:data':{'f:k':{}}}"), managed(after).get(0).path("fieldsV1"));
    }

    @Test
    void managedFieldsTheClientChangesAreTakenAsTheyAre() {
        create();
        String supplied =
                "[{'manager':'kubectl','operation':'Apply','apiVersion':'v1','fieldsType':'FieldsV1',"
                        + "'fieldsV1':{'f:data':{'f:k':{}}}}]";
        ObjectNode after =
                update(
                        "{'metadata':{'name':'cm','labels':{'a':'1'},'managedFields':"
                                + supplied
                                + "},'data':{'k':'w'}}",
                        "kubectl-client-side-apply");
        assertEquals(
                Json.parseTrusted(("{'m':" + supplied + "}").replace('\'', '"').getBytes())
                        .get("m"),
                managed(after),
                "kubectl's migration to server-side apply sends these");
    }

    /** The managedFields a request recorded before its mutating webhooks, with an Apply entry. */
    private static final String RECORDED =
            "[{'manager':'applier','operation':'Apply','apiVersion':'v1','time':'2026-11-23T09:00:00Z',"
                    + "'fieldsType':'FieldsV1','fieldsV1':{'f:data':{'f:k':{}}}}]";

    private static JsonNode recorded() {
        return obj("{'m':" + RECORDED + "}").get("m");
    }

    private static WriteOptions recordedBy(String manager) {
        return by(manager).withManagersRecorded();
    }

    @Test
    void aStoredUpdateWhoseManagersWereRecordedKeepsThemAndOwnsNothingElse() {
        ObjectNode created = create();
        // The request recorded no change of its own (as a write that changed nothing but what a
        // webhook then set): the webhook's label b is nobody's.
        ObjectNode body =
                obj("{'metadata':{'name':'cm','labels':{'a':'1','b':'2'}},'data':{'k':'v'}}");
        ((ObjectNode) body.get("metadata")).set("managedFields", managed(created).deepCopy());
        now = now.plusSeconds(60);
        ObjectNode after = run(new WriteOp.Update("cm", body, null, recordedBy("editor")));
        assertEquals(managed(created), managed(after), after.toString());
        assertEquals("2", after.at("/metadata/labels/b").asText());
    }

    @Test
    void aStoredCreateWhoseManagersWereRecordedKeepsThem() {
        ObjectNode after =
                run(
                        new WriteOp.Create(
                                obj(
                                        "{'metadata':{'name':'cm','labels':{'b':'2'},'managedFields':"
                                                + RECORDED
                                                + "},'data':{'k':'v'}}"),
                                recordedBy("applier")));
        assertEquals(recorded(), managed(after), after.toString());
    }

    @Test
    void aStoredUpdateWhoseBodyHasNoManagedFieldsLeavesNone() {
        create();
        ObjectNode after =
                run(
                        new WriteOp.Update(
                                "cm",
                                obj(
                                        "{'metadata':{'name':'cm','labels':{'a':'1'}},'data':{'k':'w'}}"),
                                null,
                                recordedBy("editor")));
        assertTrue(managed(after).isMissingNode(), "a webhook removed them: " + after);
    }
}
