package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Writes through events.k8s.io/v1 to the core/v1 Events they are stored as: the body and patches
 * are in the served version, the object is stored converted, validation is kube's for the request's
 * version, and managedFields record each manager in the version it wrote through.
 */
class EventsV1WritesTest {

    private static final Registry REGISTRY = Registry.builtin();
    private static final ResourceType EVENTS =
            REGISTRY.definition(new GroupResource("", "events")).orElseThrow().type();
    private static final String V1 = "events.k8s.io/v1";

    private final Map<String, ObjectNode> store = new HashMap<>();
    private int uids;
    private final ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);
    private final ObjectWrites.Env env =
            new ObjectWrites.Env(
                    Instant.parse("2026-03-04T05:06:07Z"), () -> "uid-" + (++uids), () -> "x");

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static WriteOptions through(String apiVersion, String manager) {
        WriteOptions o = new WriteOptions(false, manager, FieldValidation.STRICT);
        return apiVersion.equals("v1") ? o : o.inVersion(apiVersion);
    }

    private WriteDecision run(WriteOp op) {
        WriteDecision d = writes.execute(EVENTS, "default", store::get, op, env);
        if (d instanceof WriteOutcome out && out.after() != null) {
            ObjectNode stored = out.after().deepCopy();
            ((ObjectNode) stored.get("metadata")).put("resourceVersion", "" + (10 + uids));
            store.put(stored.at("/metadata/name").asText(), stored);
        }
        return d;
    }

    private static final String NEW_EVENT =
            "{'apiVersion':'events.k8s.io/v1','kind':'Event','metadata':{'name':'e1'},"
                    + "'eventTime':'2026-03-04T05:06:07.000000Z','reportingController':'example.com/ctl',"
                    + "'reportingInstance':'ctl-1','action':'Scale','reason':'Scaled',"
                    + "'regarding':{'kind':'Deployment','namespace':'default','name':'web'},"
                    + "'note':'scaled up','type':'Normal'}";

    private ObjectNode createThroughEventsV1() {
        return run(new WriteOp.Create(obj(NEW_EVENT), through(V1, "ctl"))).orThrow().after();
    }

    @Test
    void aCreateThroughEventsV1IsStoredAsACoreEvent() {
        ObjectNode stored = createThroughEventsV1();
        assertEquals("v1", stored.get("apiVersion").asText());
        assertEquals("Event", stored.get("kind").asText());
        assertEquals("web", stored.at("/involvedObject/name").asText());
        assertEquals("scaled up", stored.get("message").asText());
        assertEquals("example.com/ctl", stored.get("reportingComponent").asText());
        assertTrue(stored.path("regarding").isMissingNode(), stored.toString());
        JsonNode managed = stored.at("/metadata/managedFields/0");
        assertEquals("ctl", managed.get("manager").asText());
        assertEquals(V1, managed.get("apiVersion").asText());
        // Fields in events.k8s.io/v1's paths.
        assertTrue(managed.at("/fieldsV1/f:regarding").isObject(), managed.toString());
        assertTrue(managed.at("/fieldsV1/f:note").isObject(), managed.toString());
    }

    private List<String> refusal(WriteDecision d) {
        ApiStatus s = assertInstanceOf(WriteResult.Refused.class, d).status();
        assertEquals(422, s.code());
        List<String> out = new ArrayList<>();
        s.details().causes().forEach(c -> out.add(c.field() + ": " + c.message()));
        return out;
    }

    @Test
    void aNewEventsV1EventNeedsKubesFieldsAndNoDeprecatedOnes() {
        ObjectNode body =
                obj(
                        "{'metadata':{'name':'Bad_Name'},'type':'Info','note':'n',"
                                + "'regarding':{'namespace':'default','name':'p'},"
                                + "'deprecatedSource':{'component':'kubelet'},"
                                + "'deprecatedFirstTimestamp':'2026-01-01T00:00:00Z',"
                                + "'deprecatedLastTimestamp':'2026-01-01T00:00:00Z',"
                                + "'deprecatedCount':3,"
                                + "'series':{'count':1}}");
        assertEquals(
                List.of(
                        "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                        "series.count: Invalid value: \"\": should be at least 2",
                        "series.lastObservedTime: Required value",
                        "eventTime: Required value",
                        "type: Invalid value: \"\": has invalid value: Info",
                        "firstTimestamp: Invalid value: \"\": needs to be unset",
                        "lastTimestamp: Invalid value: \"\": needs to be unset",
                        "count: Invalid value: \"\": needs to be unset",
                        "source: Invalid value: \"\": needs to be unset"),
                refusal(run(new WriteOp.Create(body, through(V1, "ctl")))));
    }

    @Test
    void aNewStyleEventNamesTheReportingControllerAsItsVersionDoes() {
        String missing =
                "{'metadata':{'name':'e2'},'eventTime':'2026-03-04T05:06:07.000000Z',"
                        + "'type':'Normal','%s':{'namespace':'default','name':'p'}}";
        assertEquals(
                List.of(
                        "reportingController: Required value",
                        "reportingController: Invalid value: \"\": name part must be non-empty",
                        "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                        "reportingInstance: Required value",
                        "action: Required value",
                        "reason: Required value"),
                refusal(
                        run(
                                new WriteOp.Create(
                                        obj(String.format(missing, "regarding")),
                                        through(V1, "ctl")))));
        List<String> core =
                refusal(
                        run(
                                new WriteOp.Create(
                                        obj(String.format(missing, "involvedObject")),
                                        through("v1", "ctl"))));
        assertEquals("reportingComponent: Required value", core.get(0));
        // core/v1 has no further rules: a Warning without type checks passes the rest.
        assertEquals(6, core.size());
    }

    @Test
    void anEventsV1UpdateMayChangeOnlyTheSeries() {
        createThroughEventsV1();
        ObjectNode changed =
                obj(NEW_EVENT.replace("'note':'scaled up'", "'note':'other'"))
                        .put("reason", "Moved");
        changed.withObjectProperty("metadata")
                .put("resourceVersion", store.get("e1").at("/metadata/resourceVersion").asText());
        assertEquals(
                List.of(
                        "reason: Invalid value: \"Moved\": field is immutable",
                        "message: Invalid value: \"other\": field is immutable",
                        "reason: Invalid value: \"Moved\": field is immutable"),
                refusal(run(new WriteOp.Update("e1", changed, null, through(V1, "ctl")))));
        ObjectNode series =
                obj(NEW_EVENT)
                        .set(
                                "series",
                                obj(
                                        "{'count':2,'lastObservedTime':'2026-03-04T05:07:00.000000Z'}"));
        WriteOutcome out =
                run(new WriteOp.Update("e1", series, null, through(V1, "ctl"))).orThrow();
        assertEquals(2, out.after().at("/series/count").asInt());
    }

    private WriteOutcome patch(PatchType type, String patch, String apiVersion, String manager) {
        return run(new WriteOp.Patch(
                        "e1",
                        type,
                        patch.replace('\'', '"').getBytes(StandardCharsets.UTF_8),
                        null,
                        through(apiVersion, manager)))
                .orThrow();
    }

    /**
     * A JSON or merge patch whose result names the kind's other served version is decoded as that
     * version, as kube decodes the patched JSON through its scheme: the fields only the URL's
     * version has are unknown there (refused under Strict), and the fields of the named version
     * count.
     */
    @Test
    void aPatchResultNamingTheOtherVersionIsDecodedAsThatVersion() {
        createThroughEventsV1();
        WriteDecision d =
                run(
                        new WriteOp.Patch(
                                "e1",
                                PatchType.MERGE_PATCH,
                                "{\"apiVersion\":\"v1\",\"message\":\"x\"}"
                                        .getBytes(StandardCharsets.UTF_8),
                                null,
                                through(V1, "a")));
        ApiStatus s = assertInstanceOf(WriteResult.Refused.class, d).status();
        assertEquals(400, s.code());
        assertTrue(s.message().contains("unknown field \"note\""), s.message());
        assertTrue(s.message().contains("unknown field \"regarding\""), s.message());
        assertFalse(s.message().contains("\"message\""), s.message());

        // Warn: the fields core/v1 lacks are dropped, so the events.k8s.io/v1 update that results
        // has lost its regarding object and reporting controller, which its validation refuses.
        WriteOptions warn = new WriteOptions(false, "b", FieldValidation.WARN).inVersion(V1);
        List<String> causes =
                refusal(
                        run(
                                new WriteOp.Patch(
                                        "e1",
                                        PatchType.JSON_PATCH,
                                        ("[{\"op\":\"replace\",\"path\":\"/apiVersion\",\"value\":\"v1\"},"
                                                        + "{\"op\":\"add\",\"path\":\"/message\",\"value\":\"x\"}]")
                                                .getBytes(StandardCharsets.UTF_8),
                                        null,
                                        warn)));
        assertTrue(causes.contains("reportingController: Required value"), causes.toString());
        assertTrue(
                causes.contains("message: Invalid value: \"x\": field is immutable"),
                causes.toString());
    }

    @Test
    void patchesAreAppliedInTheVersionTheyAreWrittenIn() {
        createThroughEventsV1();
        String series = "'series':{'count':2,'lastObservedTime':'2026-03-04T05:07:00.000000Z'}";
        ObjectNode merged = patch(PatchType.MERGE_PATCH, "{" + series + "}", V1, "a").after();
        assertEquals(2, merged.at("/series/count").asInt());
        ObjectNode json =
                patch(
                                PatchType.JSON_PATCH,
                                "[{'op':'replace','path':'/series/count','value':3}]",
                                V1,
                                "b")
                        .after();
        assertEquals(3, json.at("/series/count").asInt());
        ObjectNode strategic =
                patch(
                                PatchType.STRATEGIC_MERGE_PATCH,
                                "{'metadata':{'labels':{'x':'y'}},'series':{'count':4}}",
                                V1,
                                "c")
                        .after();
        assertEquals(4, strategic.at("/series/count").asInt());
        assertEquals("y", strategic.at("/metadata/labels/x").asText());
        // A patch through core/v1 uses core/v1's names, on the same object.
        ObjectNode core =
                patch(PatchType.MERGE_PATCH, "{'metadata':{'labels':{'z':'1'}}}", "v1", "d")
                        .after();
        assertEquals("web", core.at("/involvedObject/name").asText());
        assertEquals("1", core.at("/metadata/labels/z").asText());
    }

    @Test
    void aPatchNamingAFieldOnlyTheOtherVersionHasIsUnknown() {
        createThroughEventsV1();
        WriteDecision d =
                run(
                        new WriteOp.Patch(
                                "e1",
                                PatchType.MERGE_PATCH,
                                "{\"message\":\"x\"}".getBytes(StandardCharsets.UTF_8),
                                null,
                                through(V1, "a")));
        ApiStatus s = assertInstanceOf(WriteResult.Refused.class, d).status();
        assertEquals(400, s.code());
        assertTrue(s.message().contains("unknown field \"message\""), s.message());
    }

    private static Map<String, JsonNode> managers(ObjectNode stored) {
        Map<String, JsonNode> out = new HashMap<>();
        for (JsonNode e : stored.at("/metadata/managedFields")) {
            out.put(e.get("manager").asText() + "@" + e.get("apiVersion").asText(), e);
        }
        return out;
    }

    @Test
    void managersKeepTheirFieldsInTheVersionTheyWroteThrough() {
        createThroughEventsV1();
        // A core/v1 update of the label: the creator keeps its events.k8s.io/v1 fields.
        ObjectNode labelled =
                patch(PatchType.MERGE_PATCH, "{'metadata':{'labels':{'a':'1'}}}", "v1", "labeller")
                        .after();
        Map<String, JsonNode> m = managers(labelled);
        assertTrue(m.get("ctl@events.k8s.io/v1").at("/fieldsV1/f:note").isObject(), m.toString());
        assertTrue(
                m.get("labeller@v1").at("/fieldsV1/f:metadata/f:labels/f:a").isObject(),
                m.toString());
        // A core/v1 write of the message takes it from the events.k8s.io/v1 manager, whose
        // field is note.
        ObjectNode written =
                patch(PatchType.MERGE_PATCH, "{'message':'rewritten'}", "v1", "writer").after();
        m = managers(written);
        assertTrue(
                m.get("ctl@events.k8s.io/v1").at("/fieldsV1/f:note").isMissingNode(), m.toString());
        assertTrue(m.get("writer@v1").at("/fieldsV1/f:message").isObject(), m.toString());
        // The same manager through another version is another Update entry, as kube identifies
        // Update managers by their apiVersion.
        ObjectNode again =
                patch(PatchType.MERGE_PATCH, "{'metadata':{'labels':{'b':'2'}}}", V1, "labeller")
                        .after();
        m = managers(again);
        assertTrue(
                m.containsKey("labeller@v1") && m.containsKey("labeller@events.k8s.io/v1"),
                m.toString());
    }

    private static byte[] json(String json) {
        return json.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anApplyThroughCoreConflictsWithTheEventsV1ManagerOfTheSameField() {
        createThroughEventsV1();
        byte[] apply =
                json(
                        "{'apiVersion':'v1','kind':'Event','metadata':{'name':'e1'},'message':'applied'}");
        WriteDecision d =
                run(
                        new WriteOp.Patch(
                                "e1",
                                PatchType.APPLY_PATCH,
                                apply,
                                null,
                                through("v1", "applier")));
        ApiStatus s = assertInstanceOf(WriteResult.Refused.class, d).status();
        assertEquals(409, s.code());
        // The creator owns note (events.k8s.io/v1's name); the conflict is found in that version.
        assertTrue(s.message().contains("conflict with \"ctl\""), s.message());
        WriteOutcome forced =
                run(new WriteOp.Patch(
                                "e1",
                                PatchType.APPLY_PATCH,
                                apply,
                                null,
                                through("v1", "applier"),
                                true))
                        .orThrow();
        assertEquals("applied", forced.after().get("message").asText());
        Map<String, JsonNode> m = managers(forced.after());
        assertTrue(
                m.get("ctl@events.k8s.io/v1").at("/fieldsV1/f:note").isMissingNode(), m.toString());
        assertTrue(
                m.get("ctl@events.k8s.io/v1").at("/fieldsV1/f:regarding").isObject(), m.toString());
        assertTrue(m.get("applier@v1").at("/fieldsV1/f:message").isObject(), m.toString());
    }

    @Test
    void anApplierWhoStopsApplyingAFieldThroughAnotherVersionHasItRemoved() {
        String first =
                NEW_EVENT.substring(0, NEW_EVENT.length() - 1)
                        + ",'related':{'kind':'ReplicaSet','name':'web-1'}}";
        run(new WriteOp.Patch("e1", PatchType.APPLY_PATCH, json(first), null, through(V1, "app")))
                .orThrow();
        assertEquals("web-1", store.get("e1").at("/related/name").asText());
        byte[] second =
                json(
                        "{'apiVersion':'v1','kind':'Event','metadata':{'name':'e1'},"
                                + "'eventTime':'2026-03-04T05:06:07.000000Z','reportingComponent':'example.com/ctl',"
                                + "'reportingInstance':'ctl-1','action':'Scale','reason':'Scaled',"
                                + "'involvedObject':{'kind':'Deployment','namespace':'default','name':'web'},"
                                + "'type':'Normal'}");
        ObjectNode after =
                run(new WriteOp.Patch(
                                "e1", PatchType.APPLY_PATCH, second, null, through("v1", "app")))
                        .orThrow()
                        .after();
        // related and note were applied through events.k8s.io/v1 and are omitted now: removed,
        // note found as events.k8s.io/v1 has the object (core/v1's message).
        assertTrue(after.path("related").isMissingNode(), after.toString());
        assertTrue(after.path("message").isMissingNode(), after.toString());
        assertEquals("web", after.at("/involvedObject/name").asText());
        JsonNode entry = after.at("/metadata/managedFields/0");
        assertEquals("v1", entry.get("apiVersion").asText());
        assertTrue(entry.at("/fieldsV1/f:involvedObject").isObject(), entry.toString());
    }
}
