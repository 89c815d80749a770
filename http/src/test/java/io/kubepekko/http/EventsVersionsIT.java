package io.kubepekko.http;

import static io.kubepekko.http.DiscoveryDocuments.aggregatedGroup;
import static io.kubepekko.http.DiscoveryDocuments.resource;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Events served in two versions over one storage: created through events.k8s.io/v1 and read through
 * core/v1 and back, a watch in one version seeing writes through the other, kube's validation and
 * field selectors per version, and events.k8s.io/v1 in discovery, OpenAPI, Tables and protobuf.
 */
class EventsVersionsIT {

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final GroupVersionKind EVENTS_V1 =
            new GroupVersionKind("events.k8s.io", "v1", "Event");
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String newNamespace() {
        String ns = "ev-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String eventsV1(String ns) {
        return "/apis/events.k8s.io/v1/namespaces/" + ns + "/events";
    }

    private static String core(String ns) {
        return "/api/v1/namespaces/" + ns + "/events";
    }

    private static String newEvent(String ns, String name) {
        return json(
                "{'apiVersion':'events.k8s.io/v1','kind':'Event','metadata':{'name':'"
                        + name
                        + "'},'eventTime':'2026-03-04T05:06:07.000000Z',"
                        + "'reportingController':'example.com/scaler','reportingInstance':'scaler-1',"
                        + "'action':'Scale','reason':'Scaled',"
                        + "'regarding':{'kind':'Deployment','namespace':'"
                        + ns
                        + "','name':'web'},'note':'scaled up','type':'Normal'}");
    }

    @Test
    void anEventCreatedThroughEventsV1IsReadThroughCoreAndBack() {
        String ns = newNamespace();
        ObjectNode created = api.create(eventsV1(ns), newEvent(ns, "e1"));
        assertEquals("events.k8s.io/v1", created.get("apiVersion").asText());
        assertEquals("web", created.at("/regarding/name").asText());
        assertEquals("scaled up", created.get("note").asText());

        ObjectNode asCore = api.get(core(ns) + "/e1").assertCode(200).json();
        assertEquals("v1", asCore.get("apiVersion").asText());
        assertEquals("web", asCore.at("/involvedObject/name").asText());
        assertEquals("scaled up", asCore.get("message").asText());
        assertEquals("example.com/scaler", asCore.get("reportingComponent").asText());
        assertEquals(
                created.at("/metadata/resourceVersion"), asCore.at("/metadata/resourceVersion"));
        assertEquals(created.at("/metadata/uid"), asCore.at("/metadata/uid"));

        ObjectNode again = api.get(eventsV1(ns) + "/e1").assertCode(200).json();
        assertEquals(created, again);
        JsonNode managed = again.at("/metadata/managedFields/0");
        assertEquals("events.k8s.io/v1", managed.get("apiVersion").asText());
        assertTrue(managed.at("/fieldsV1/f:note").isObject(), managed.toString());

        ObjectNode list = api.get(eventsV1(ns)).assertCode(200).json();
        assertEquals("EventList", list.get("kind").asText());
        assertEquals("events.k8s.io/v1", list.get("apiVersion").asText());
        assertEquals(created, list.at("/items/0"));
    }

    @Test
    void anEventCreatedThroughCoreKeepsItsOldFieldsUnderTheirDeprecatedNames() {
        String ns = newNamespace();
        api.create(
                core(ns),
                json(
                        "{'apiVersion':'v1','kind':'Event','metadata':{'name':'old'},"
                                + "'involvedObject':{'kind':'Pod','namespace':'"
                                + ns
                                + "','name':'p'},'reason':'Started','message':'started',"
                                + "'source':{'component':'kubelet','host':'n1'},"
                                + "'firstTimestamp':'2026-03-04T05:06:07Z',"
                                + "'lastTimestamp':'2026-03-04T05:07:07Z','count':3,'type':'Normal'}"));
        ObjectNode v1 = api.get(eventsV1(ns) + "/old").assertCode(200).json();
        assertEquals("kubelet", v1.at("/deprecatedSource/component").asText());
        assertEquals("n1", v1.at("/deprecatedSource/host").asText());
        assertEquals("2026-03-04T05:06:07Z", v1.get("deprecatedFirstTimestamp").asText());
        assertEquals("2026-03-04T05:07:07Z", v1.get("deprecatedLastTimestamp").asText());
        assertEquals(3, v1.get("deprecatedCount").asInt());
        assertEquals("started", v1.get("note").asText());
        assertEquals("p", v1.at("/regarding/name").asText());
        // And back, unchanged: an update through events.k8s.io/v1 of a label keeps them all.
        api.patch(
                        eventsV1(ns) + "/old",
                        "application/merge-patch+json",
                        json("{'metadata':{'labels':{'seen':'yes'}}}"))
                .assertCode(200);
        ObjectNode asCore = api.get(core(ns) + "/old").assertCode(200).json();
        assertEquals("kubelet", asCore.at("/source/component").asText());
        assertEquals(3, asCore.get("count").asInt());
        assertEquals("yes", asCore.at("/metadata/labels/seen").asText());
    }

    private static String coreEvent(String ns, String name) {
        return json(
                "{'apiVersion':'v1','kind':'Event','metadata':{'name':'"
                        + name
                        + "'},'involvedObject':{'kind':'Pod','namespace':'"
                        + ns
                        + "','name':'p'},'reason':'Started','message':'started','type':'Normal'}");
    }

    private static String mismatch(String data, String expected) {
        return "the API version in the data ("
                + data
                + ") does not match the expected API version ("
                + expected
                + ")";
    }

    /**
     * Bad input across versions (issue 26): kube-apiserver's scheme decodes a body of any version
     * it registers for the kind (core v1 and events.k8s.io/v1 Events share one internal type, and
     * removed beta versions are still registered), and the create and update handlers then refuse
     * one whose version is not the URL's with 400.
     */
    @Test
    void aBodyOfTheOtherEventsVersionIsRefusedWith400OnCreateAndUpdate() {
        String ns = newNamespace();
        api.post(core(ns), newEvent(ns, "x1"))
                .assertStatus(400, "BadRequest", mismatch("events.k8s.io/v1", "v1"));
        api.post(eventsV1(ns), coreEvent(ns, "x2"))
                .assertStatus(400, "BadRequest", mismatch("v1", "events.k8s.io/v1"));
        api.create(core(ns), coreEvent(ns, "x3"));
        api.put(core(ns) + "/x3", newEvent(ns, "x3"))
                .assertStatus(400, "BadRequest", mismatch("events.k8s.io/v1", "v1"));
        api.put(eventsV1(ns) + "/x3", coreEvent(ns, "x3"))
                .assertStatus(400, "BadRequest", mismatch("v1", "events.k8s.io/v1"));
        api.get(core(ns) + "/x1").assertCode(404);
        api.get(core(ns) + "/x2").assertCode(404);
    }

    @Test
    void aBodyOfAVersionKubeRemovedIsRefusedWith400AndOneItNeverHadIsNotRegistered() {
        String ns = newNamespace();
        api.post(
                        "/apis/batch/v1/namespaces/" + ns + "/cronjobs",
                        json(
                                "{'apiVersion':'batch/v1beta1','kind':'CronJob','metadata':{'name':'c'},"
                                        + "'spec':{'schedule':'* * * * *','jobTemplate':{'spec':{'template':"
                                        + "{'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'busybox'}]}}}}}}"))
                .assertStatus(400, "BadRequest", mismatch("batch/v1beta1", "batch/v1"));
        api.post(
                        "/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets",
                        json(
                                "{'apiVersion':'policy/v1beta1','kind':'PodDisruptionBudget',"
                                        + "'metadata':{'name':'p'},'spec':{'minAvailable':1}}"))
                .assertStatus(400, "BadRequest", mismatch("policy/v1beta1", "policy/v1"));
        api.post(
                        "/apis/apps/v1/namespaces/" + ns + "/deployments",
                        json(
                                "{'apiVersion':'apps/v1beta3','kind':'Deployment','metadata':{'name':'d'}}"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "Deployment in version \"v1beta3\" cannot be handled as a Deployment: no kind"
                                + " \"Deployment\" is registered for version \"apps/v1beta3\" in scheme"
                                + " \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"");
    }

    /**
     * A patch that changes the type meta: kube decodes a JSON or merge patch's result through its
     * scheme into the URL's kind, so another kind is refused with 422 (the patched object in the
     * message), while a strategic merge patch's result is converted from a map into the URL's Go
     * type and its type meta is simply the URL's.
     */
    @Test
    void aPatchThatChangesTheKindIsRefusedUnlessStrategic() {
        String ns = newNamespace();
        api.create(eventsV1(ns), newEvent(ns, "k1"));
        ObjectNode refused =
                api.patch(
                                eventsV1(ns) + "/k1",
                                "application/json-patch+json",
                                "[{\"op\":\"replace\",\"path\":\"/kind\",\"value\":\"Pod\"}]")
                        .assertStatusMessageStartsWith(
                                422, "Invalid", " \"\" is invalid: patch: Invalid value: \"{");
        assertTrue(
                refused.get("message")
                        .asText()
                        .endsWith(
                                "no kind \"Pod\" is registered for version \"events.k8s.io/v1\" in"
                                        + " scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\""),
                refused.toString());
        api.patch(
                        core(ns) + "/k1",
                        "application/merge-patch+json",
                        json("{'apiVersion':'apps/v1'}"))
                .assertStatusMessageStartsWith(
                        422, "Invalid", " \"\" is invalid: patch: Invalid value: \"{");
        ObjectNode strategic =
                api.patch(
                                core(ns) + "/k1",
                                "application/strategic-merge-patch+json",
                                json(
                                        "{'kind':'Pod','apiVersion':'events.k8s.io/v1','message':'m'}"))
                        .assertCode(200)
                        .json();
        assertEquals("v1", strategic.get("apiVersion").asText());
        assertEquals("Event", strategic.get("kind").asText());
        assertEquals("m", strategic.get("message").asText());
    }

    @Test
    void anApplyOfTheOtherEventsVersionIsAnInvalidObjectType() {
        String ns = newNamespace();
        api.call("PATCH", core(ns) + "/a9?fieldManager=applier")
                .body("application/apply-patch+yaml", newEvent(ns, "a9"))
                .send()
                .assertStatus(
                        400, "BadRequest", "invalid object type: events.k8s.io/v1, Kind=Event");
    }

    @Test
    void aWatchInOneVersionSeesWritesThroughTheOther() {
        String ns = newNamespace();
        try (WatchClient v1 = WatchClient.open(api.url(), eventsV1(ns) + "?watch=true");
                WatchClient old = WatchClient.open(api.url(), core(ns) + "?watch=true")) {
            assertEquals(200, v1.code());
            assertEquals(200, old.code());
            api.create(eventsV1(ns), newEvent(ns, "w1"));
            api.create(
                    core(ns),
                    json(
                            "{'metadata':{'name':'w2'},'involvedObject':{'kind':'Pod','namespace':'"
                                    + ns
                                    + "','name':'p'},'reason':'Pulled','message':'pulled'}"));
            ObjectNode first = v1.next();
            assertEquals("ADDED", first.get("type").asText());
            assertEquals("events.k8s.io/v1", first.at("/object/apiVersion").asText());
            assertEquals("w1", first.at("/object/metadata/name").asText());
            ObjectNode second = v1.next();
            assertEquals("w2", second.at("/object/metadata/name").asText());
            assertEquals("pulled", second.at("/object/note").asText());
            assertEquals("p", second.at("/object/regarding/name").asText());

            ObjectNode inCore = old.next();
            assertEquals("v1", inCore.at("/object/apiVersion").asText());
            assertEquals("scaled up", inCore.at("/object/message").asText());
            assertEquals("w2", old.next().at("/object/metadata/name").asText());
        }
    }

    @Test
    void aNewEventsV1EventIsValidatedAsKubeDoes() {
        String ns = newNamespace();
        ObjectNode status =
                api.post(
                                eventsV1(ns),
                                json(
                                        "{'metadata':{'name':'bad'},'type':'Info','note':'n',"
                                                + "'regarding':{'namespace':'"
                                                + ns
                                                + "','name':'p'},'deprecatedCount':2,"
                                                + "'deprecatedSource':{'component':'kubelet'}}"))
                        .assertFailure(422, "Invalid");
        assertEquals(
                "Event \"bad\" is invalid: [eventTime: Required value, type: Invalid value: \"\": "
                        + "has invalid value: Info, count: Invalid value: \"\": needs to be unset, "
                        + "source: Invalid value: \"\": needs to be unset]",
                status.get("message").asText());
        List<String> causes = new ArrayList<>();
        status.at("/details/causes").forEach(c -> causes.add(c.get("field").asText()));
        assertEquals(List.of("eventTime", "type", "count", "source"), causes);
        assertEquals("Event", status.at("/details/kind").asText());

        ObjectNode missing =
                api.post(
                                eventsV1(ns),
                                json(
                                        "{'metadata':{'name':'bare'},'type':'Normal',"
                                                + "'eventTime':'2026-03-04T05:06:07.000000Z',"
                                                + "'regarding':{'namespace':'"
                                                + ns
                                                + "','name':'p'}}"))
                        .assertFailure(422, "Invalid");
        List<String> fields = new ArrayList<>();
        missing.at("/details/causes").forEach(c -> fields.add(c.get("field").asText()));
        assertEquals(
                List.of(
                        "reportingController",
                        "reportingController",
                        "reportingController",
                        "reportingInstance",
                        "action",
                        "reason"),
                fields);
    }

    @Test
    void errorsNameTheResourceTheRequestAddressed() {
        String ns = newNamespace();
        api.get(eventsV1(ns) + "/nope")
                .assertStatus(404, "NotFound", "events.events.k8s.io \"nope\" not found");
        api.create(eventsV1(ns), newEvent(ns, "twice"));
        api.post(eventsV1(ns), newEvent(ns, "twice"))
                .assertStatus(
                        409, "AlreadyExists", "events.events.k8s.io \"twice\" already exists");
        ObjectNode deleted = api.delete(eventsV1(ns) + "/twice").assertCode(200).json();
        assertEquals("Status", deleted.get("kind").asText());
        assertEquals("events.k8s.io", deleted.at("/details/group").asText());
        assertEquals("events", deleted.at("/details/kind").asText());
        api.get(core(ns) + "/twice").assertCode(404);
    }

    @Test
    void aDeleteCollectionThroughEventsV1AnswersInThatVersion() {
        String ns = newNamespace();
        api.create(eventsV1(ns), newEvent(ns, "d1"));
        api.create(eventsV1(ns), newEvent(ns, "d2").replace("\"web\"", "\"db\""));
        ObjectNode deleted =
                api.delete(eventsV1(ns) + "?fieldSelector=regarding.name%3Dweb")
                        .assertCode(200)
                        .json();
        assertEquals("EventList", deleted.get("kind").asText());
        assertEquals("events.k8s.io/v1", deleted.get("apiVersion").asText());
        assertEquals(1, deleted.get("items").size());
        assertEquals("d1", deleted.at("/items/0/metadata/name").asText());
        assertEquals("web", deleted.at("/items/0/regarding/name").asText());
        ObjectNode left = api.get(core(ns)).assertCode(200).json();
        assertEquals(1, left.get("items").size());
        assertEquals("db", left.at("/items/0/involvedObject/name").asText());
    }

    @Test
    void eachVersionSelectsByItsOwnFieldLabels() {
        String ns = newNamespace();
        api.create(eventsV1(ns), newEvent(ns, "s1"));
        ObjectNode selected =
                api.get(
                                eventsV1(ns)
                                        + "?fieldSelector=regarding.name%3Dweb,reportingController%3Dexample.com/scaler")
                        .assertCode(200)
                        .json();
        assertEquals(1, selected.get("items").size());
        assertEquals(
                0,
                api.get(eventsV1(ns) + "?fieldSelector=regarding.name%3Dother")
                        .assertCode(200)
                        .json()
                        .get("items")
                        .size());
        // kube's source label is the reporting controller of an event without a source.
        assertEquals(
                1,
                api.get(core(ns) + "?fieldSelector=source%3Dexample.com/scaler")
                        .assertCode(200)
                        .json()
                        .get("items")
                        .size());
        api.get(eventsV1(ns) + "?fieldSelector=involvedObject.name%3Dweb")
                .assertStatus(400, "BadRequest", "field label not supported: involvedObject.name");
        assertEquals(
                1,
                api.get(core(ns) + "?fieldSelector=involvedObject.name%3Dweb")
                        .assertCode(200)
                        .json()
                        .get("items")
                        .size());
        api.get(core(ns) + "?fieldSelector=regarding.name%3Dweb")
                .assertStatus(400, "BadRequest", "field label not supported: regarding.name");
    }

    @Test
    void discoveryListsEventsV1WithTheStorageVersionHashOfCoreEvents() {
        ObjectNode groups = api.get("/apis", "application/json").assertCode(200).json();
        JsonNode events = null;
        for (JsonNode g : groups.get("groups")) {
            if (g.get("name").asText().equals("events.k8s.io")) {
                events = g;
            }
        }
        assertEquals(
                "events.k8s.io/v1",
                events.at("/preferredVersion/groupVersion").asText(),
                groups::toString);
        JsonNode v1 = resource(api.get("/apis/events.k8s.io/v1").assertCode(200).json(), "events");
        JsonNode old = resource(api.get("/api/v1").assertCode(200).json(), "events");
        assertEquals("Event", v1.get("kind").asText());
        assertEquals("[\"ev\"]", v1.get("shortNames").toString());
        assertEquals(old.get("storageVersionHash"), v1.get("storageVersionHash"));
        assertEquals(
                "[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]",
                v1.get("verbs").toString());

        JsonNode eventsGroup = aggregatedGroup(api, "events.k8s.io");
        assertEquals("v1", eventsGroup.at("/versions/0/version").asText());
        assertEquals("events", eventsGroup.at("/versions/0/resources/0/resource").asText());
    }

    @Test
    void openApiV3DescribesEventsV1() {
        ObjectNode root = api.get("/openapi/v3").assertCode(200).json();
        assertTrue(root.at("/paths").has("apis/events.k8s.io/v1"), root::toString);
        ObjectNode doc = api.get("/openapi/v3/apis/events.k8s.io/v1").assertCode(200).json();
        assertTrue(
                doc.at("/paths").has("/apis/events.k8s.io/v1/namespaces/{namespace}/events"),
                () -> doc.get("paths").toString());
        JsonNode event = doc.at("/components/schemas/io.k8s.api.events.v1.Event");
        assertTrue(event.at("/properties/regarding").isObject(), event::toString);
        assertTrue(event.at("/properties/deprecatedCount").isObject(), event::toString);
        assertEquals(
                "events.k8s.io",
                event.at("/x-kubernetes-group-version-kind/0/group").asText(),
                event::toString);
    }

    @Test
    void aTableOfEventsV1HasKubesEventColumns() {
        String ns = newNamespace();
        api.create(eventsV1(ns), newEvent(ns, "t1"));
        String table = "application/json;as=Table;g=meta.k8s.io;v=v1";
        ObjectNode v1 = api.get(eventsV1(ns), table).assertCode(200).json();
        ObjectNode old = api.get(core(ns), table).assertCode(200).json();
        assertEquals(old.get("columnDefinitions"), v1.get("columnDefinitions"));
        List<String> columns = new ArrayList<>();
        v1.get("columnDefinitions").forEach(c -> columns.add(c.get("name").asText()));
        assertEquals(
                List.of(
                        "Last Seen",
                        "Type",
                        "Reason",
                        "Object",
                        "Subobject",
                        "Source",
                        "Message",
                        "First Seen",
                        "Count",
                        "Name"),
                columns);
        JsonNode cells = v1.at("/rows/0/cells");
        assertEquals("Normal", cells.get(1).asText());
        assertEquals("Scaled", cells.get(2).asText());
        assertEquals("deployment/web", cells.get(3).asText());
        assertEquals("scaled up", cells.get(6).asText());
        ObjectNode withObjects =
                api.get(eventsV1(ns) + "?includeObject=Object", table).assertCode(200).json();
        assertEquals("events.k8s.io/v1", withObjects.at("/rows/0/object/apiVersion").asText());
    }

    @Test
    void protobufCarriesEventsV1Events() {
        String ns = newNamespace();
        byte[] body =
                ProtobufBodies.builtin()
                        .encode(
                                Json.parseTrusted(
                                        newEvent(ns, "p1").getBytes(StandardCharsets.UTF_8)),
                                EVENTS_V1);
        api.call("POST", eventsV1(ns))
                .header("Content-Type", PROTOBUF)
                .header("Accept", PROTOBUF)
                .bytes(body)
                .send()
                .assertCode(201);
        Response got = api.get(eventsV1(ns) + "/p1", PROTOBUF).assertCode(200);
        assertEquals(PROTOBUF, got.mediaType());
        ObjectNode decoded = ProtobufBodies.builtin().decode(got.body(), EVENTS_V1);
        assertEquals("scaled up", decoded.get("note").asText());
        assertEquals("web", decoded.at("/regarding/name").asText());
        assertEquals(
                "scaled up",
                api.get(core(ns) + "/p1").assertCode(200).json().get("message").asText());
    }

    @Test
    void serverSideApplyThroughEventsV1RecordsItsManagerInThatVersion() {
        String ns = newNamespace();
        String applied = newEvent(ns, "a1");
        ObjectNode created =
                api.call("PATCH", eventsV1(ns) + "/a1?fieldManager=applier")
                        .body("application/apply-patch+yaml", applied)
                        .send()
                        .assertCode(201)
                        .json();
        assertEquals("scaled up", created.get("note").asText());
        JsonNode entry = created.at("/metadata/managedFields/0");
        assertEquals("Apply", entry.get("operation").asText());
        assertEquals("events.k8s.io/v1", entry.get("apiVersion").asText());
        // A core/v1 apply of the same field conflicts with it, found in its version.
        api.call("PATCH", core(ns) + "/a1?fieldManager=other")
                .body(
                        "application/apply-patch+yaml",
                        json(
                                "{'apiVersion':'v1','kind':'Event','metadata':{'name':'a1'},"
                                        + "'message':'mine'}"))
                .send()
                .assertStatusMessageStartsWith(409, "Conflict", "Apply failed with 1 conflict");
    }
}
