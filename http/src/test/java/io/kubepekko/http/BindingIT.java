package io.kubepekko.http;

import static io.kubepekko.http.Response.assertDetails;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Binding a pod to a node as a scheduler does: {@code POST pods/{name}/binding} and the create-only
 * {@code bindings} resource, what they answer, what they do to the pod, and every other method on
 * them.
 */
class BindingIT {

    private static final String NS = "/api/v1/namespaces/default";
    private static final String PODS = NS + "/pods";
    private static final String BINDINGS = NS + "/bindings";
    private static final String NOT_ALLOWED =
            "the server does not allow this method on the requested resource";
    private static final String NOT_FOUND = "the server could not find the requested resource";
    private static final String SUCCESS =
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                    + "\"status\":\"Success\",\"code\":201}";
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    /** A new unscheduled pod; returns it as stored. */
    private static ObjectNode pod(String name) {
        return api.create(
                PODS,
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                                + name
                                + "'},"
                                + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}"));
    }

    private static String fresh() {
        return "web-" + names.incrementAndGet();
    }

    private static String binding(String name, String node) {
        return json(
                "{'apiVersion':'v1','kind':'Binding','metadata':{'name':'"
                        + name
                        + "'},"
                        + "'target':{'apiVersion':'v1','kind':'Node','name':'"
                        + node
                        + "'}}");
    }

    private static ObjectNode stored(String name) {
        return api.get(PODS + "/" + name).assertCode(200).json();
    }

    private static JsonNode condition(ObjectNode pod, String type) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }

    @Test
    void aPodsBindingAssignsTheNodeAndAnswersASuccessStatus() {
        String name = fresh();
        ObjectNode before = pod(name);
        String body =
                json(
                        "{'apiVersion':'v1','kind':'Binding','metadata':{'name':'"
                                + name
                                + "',"
                                + "'annotations':{'scheduler.example.com/score':'7'}},'target':{'kind':'Node','name':'node-1'}}");
        Response r = api.post(PODS + "/" + name + "/binding", body).assertCode(201);
        assertEquals("application/json", r.mediaType());
        assertEquals(SUCCESS, r.text());

        ObjectNode after = stored(name);
        assertEquals("node-1", after.path("spec").path("nodeName").asText());
        assertEquals(
                "7",
                after.path("metadata")
                        .path("annotations")
                        .path("scheduler.example.com/score")
                        .asText());
        JsonNode scheduled = condition(after, "PodScheduled");
        assertEquals("True", scheduled.path("status").asText(), after.toString());
        assertTrue(scheduled.path("lastTransitionTime").isTextual(), after.toString());
        assertTrue(TestApiServer.rv(after) > TestApiServer.rv(before));
        // Written straight to storage, as kube-apiserver does: no generation bump, managedFields as
        // they were.
        assertEquals(
                before.path("metadata").path("generation"),
                after.path("metadata").path("generation"));
        assertEquals(
                before.path("metadata").path("managedFields"),
                after.path("metadata").path("managedFields"));
        // The binding is selectable at once, as a kubelet watching spec.nodeName needs.
        ObjectNode listed =
                api.get(PODS + "?fieldSelector=spec.nodeName%3Dnode-1").assertCode(200).json();
        assertTrue(TestApiServer.itemNames(listed).contains(name), listed.toString());
    }

    @Test
    void theBindingsResourceBindsThePodItsBodyNames() {
        String name = fresh();
        pod(name);
        Response r = api.post(BINDINGS, binding(name, "node-2")).assertCode(201);
        assertEquals(SUCCESS, r.text());
        assertEquals("node-2", stored(name).path("spec").path("nodeName").asText());
    }

    @Test
    void aSecondBindingConflicts() {
        String name = fresh();
        pod(name);
        api.post(PODS + "/" + name + "/binding", binding(name, "node-1")).assertCode(201);
        ObjectNode s =
                api.post(BINDINGS, binding(name, "node-2"))
                        .assertStatus(
                                409,
                                "Conflict",
                                "Operation cannot be fulfilled on pods/binding \""
                                        + name
                                        + "\": pod "
                                        + name
                                        + " is already assigned to node \"node-1\"");
        assertDetails(s, name, null, "pods/binding");
        assertEquals("node-1", stored(name).path("spec").path("nodeName").asText());
    }

    @Test
    void aPodBeingDeletedIsNotBound() {
        String name = fresh();
        api.create(
                PODS,
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                                + name
                                + "',"
                                + "'finalizers':['example.com/hold']},'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}"));
        api.delete(PODS + "/" + name).assertCode(200);
        api.post(PODS + "/" + name + "/binding", binding(name, "node-1"))
                .assertStatus(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on pods/binding \""
                                + name
                                + "\": pod "
                                + name
                                + " is being deleted, cannot be assigned to a host");
        assertFalse(stored(name).path("spec").has("nodeName"));
        api.patch(
                        PODS + "/" + name,
                        "application/merge-patch+json",
                        json("{'metadata':{'finalizers':null}}"))
                .assertCode(200);
    }

    @Test
    void aMissingPodIsNotFound() {
        api.post(PODS + "/absent/binding", binding("absent", "node-1"))
                .assertStatus(404, "NotFound", "pods \"absent\" not found");
        api.post(BINDINGS, binding("absent", "node-1"))
                .assertStatus(404, "NotFound", "pods \"absent\" not found");
        api.post("/api/v1/namespaces/no-such-ns/bindings", binding("absent", "node-1"))
                .assertStatus(404, "NotFound", "namespaces \"no-such-ns\" not found");
    }

    /**
     * NamespaceLifecycle admission names the resource the request addressed, as kube-apiserver's
     * does.
     */
    @Test
    void aTerminatingNamespaceRefusesBindings() {
        String ns = "bind-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json(
                        "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                + ns
                                + "','finalizers':['example.com/keep-ns']}}"));
        api.delete("/api/v1/namespaces/" + ns).assertCode(200);
        String why =
                " is forbidden: unable to create new content in namespace "
                        + ns
                        + " because it is being terminated";
        ObjectNode legacy =
                api.post("/api/v1/namespaces/" + ns + "/bindings", binding("p", "node-1"))
                        .assertStatus(403, "Forbidden", "bindings \"p\"" + why);
        assertDetails(legacy, "p", null, "bindings");
        assertEquals(
                "NamespaceTerminating",
                legacy.path("details").path("causes").path(0).path("reason").asText());
        api.post("/api/v1/namespaces/" + ns + "/pods/p/binding", binding("p", "node-1"))
                .assertStatus(403, "Forbidden", "pods \"p\"" + why);
        api.patch(
                        "/api/v1/namespaces/" + ns,
                        "application/merge-patch+json",
                        json("{'metadata':{'finalizers':null}}"))
                .assertCode(200);
    }

    @Test
    void theNameInTheUrlMustBeTheBindings() {
        String name = fresh();
        pod(name);
        api.post(PODS + "/" + name + "/binding", binding("other", "node-1"))
                .assertStatus(
                        400, "BadRequest", "name in URL does not match name in Binding object");
        api.post(BINDINGS, json("{'target':{'name':'node-1'}}"))
                .assertStatus(400, "BadRequest", "Name parameter required.");
        assertFalse(stored(name).path("spec").has("nodeName"));
    }

    /**
     * kube-apiserver answers ValidatePodBinding's errors as a 500; a request's fault is a 422 here.
     */
    @Test
    void anInvalidTargetIsUnprocessable() {
        String name = fresh();
        pod(name);
        ObjectNode s =
                api.post(
                                PODS + "/" + name + "/binding",
                                json(
                                        "{'metadata':{'name':'"
                                                + name
                                                + "'},"
                                                + "'target':{'kind':'Pod'}}"))
                        .assertStatus(
                                422,
                                "Invalid",
                                "Binding \""
                                        + name
                                        + "\" is invalid: "
                                        + "[target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\", "
                                        + "target.name: Required value]");
        assertDetails(s, name, null, "Binding");
        assertEquals(2, s.path("details").path("causes").size());
        assertFalse(stored(name).path("spec").has("nodeName"));
    }

    @Test
    void theBindingsUidAndResourceVersionArePreconditions() {
        String name = fresh();
        ObjectNode p = pod(name);
        String uid = p.path("metadata").path("uid").asText();
        api.post(
                        PODS + "/" + name + "/binding",
                        json(
                                "{'metadata':{'name':'"
                                        + name
                                        + "','uid':'not-"
                                        + uid
                                        + "'},"
                                        + "'target':{'name':'node-1'}}"))
                .assertStatusMessageStartsWith(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on pods \""
                                + name
                                + "\": StorageError: invalid object, Code: 4, Key: "
                                + "/registry/pods/default/"
                                + name
                                + ", ResourceVersion: 0, AdditionalErrorMsg: Precondition "
                                + "failed: UID in precondition: not-"
                                + uid);
        api.post(
                        PODS + "/" + name + "/binding",
                        json(
                                "{'metadata':{'name':'"
                                        + name
                                        + "','resourceVersion':'1'},"
                                        + "'target':{'name':'node-1'}}"))
                .assertFailure(409, "Conflict");
        // The bindings resource wipes the uid as every create does.
        api.post(
                        BINDINGS,
                        json(
                                "{'metadata':{'name':'"
                                        + name
                                        + "','uid':'not-"
                                        + uid
                                        + "','resourceVersion':'"
                                        + p.path("metadata").path("resourceVersion").asText()
                                        + "'},'target':{'name':'node-1'}}"))
                .assertCode(201);
    }

    @Test
    void dryRunAnswersAsTheBindingWouldAndChangesNothing() {
        String name = fresh();
        ObjectNode before = pod(name);
        assertEquals(
                SUCCESS,
                api.post(PODS + "/" + name + "/binding?dryRun=All", binding(name, "node-1"))
                        .assertCode(201)
                        .text());
        assertEquals(
                SUCCESS,
                api.post(BINDINGS + "?dryRun=All", binding(name, "node-1")).assertCode(201).text());
        assertEquals(before, stored(name));
        api.post(PODS + "/" + name + "/binding", binding(name, "node-1")).assertCode(201);
        api.post(PODS + "/" + name + "/binding?dryRun=All", binding(name, "node-2"))
                .assertFailure(409, "Conflict");
        api.post(BINDINGS + "?dryRun=Bogus", binding(name, "node-2")).assertFailure(422, "Invalid");
    }

    @Test
    void aWatchOfPodsSeesTheBindingAsModified() {
        String name = fresh();
        ObjectNode created = pod(name);
        try (WatchClient w =
                WatchClient.open(
                        api.url(),
                        PODS + "?watch=true&resourceVersion=" + TestApiServer.rv(created))) {
            api.post(PODS + "/" + name + "/binding", binding(name, "node-3")).assertCode(201);
            ObjectNode event = w.next();
            assertEquals("MODIFIED", event.path("type").asText());
            assertEquals(name, event.path("object").path("metadata").path("name").asText());
            assertEquals("node-3", event.path("object").path("spec").path("nodeName").asText());
        }
    }

    @Test
    void aProtobufBindingBindsAndIsAnsweredInProtobuf() {
        String name = fresh();
        pod(name);
        byte[] body =
                ProtobufBodies.builtin()
                        .encode(
                                TestApiServer.obj(
                                        "{'apiVersion':'v1','kind':'Binding',"
                                                + "'metadata':{'name':'"
                                                + name
                                                + "'},'target':{'kind':'Node','name':'node-4'}}"),
                                new GroupVersionKind("", "v1", "Binding"));
        Response r =
                api.call("POST", PODS + "/" + name + "/binding")
                        .header("Content-Type", PROTOBUF)
                        .header("Accept", PROTOBUF + ", application/json")
                        .bytes(body)
                        .send()
                        .assertCode(201);
        assertEquals(PROTOBUF, r.mediaType());
        ObjectNode status =
                ProtobufBodies.builtin().decode(r.body(), new GroupVersionKind("", "v1", "Status"));
        assertEquals("Success", status.path("status").asText());
        assertEquals(201, status.path("code").asInt());
        assertEquals("node-4", stored(name).path("spec").path("nodeName").asText());
    }

    @Test
    void aYamlBindingBinds() {
        String name = fresh();
        pod(name);
        api.call("POST", BINDINGS)
                .body(
                        "application/yaml",
                        "apiVersion: v1\nkind: Binding\nmetadata:\n  name: "
                                + name
                                + "\ntarget:\n  kind: Node\n  name: node-5\n")
                .send()
                .assertCode(201);
        assertEquals("node-5", stored(name).path("spec").path("nodeName").asText());
    }

    @Test
    void fieldValidationAppliesToTheBindingBody() {
        String name = fresh();
        pod(name);
        String unknown =
                json("{'metadata':{'name':'" + name + "'},'target':{'name':'node-1'},'extra':1}");
        ObjectNode s =
                api.post(PODS + "/" + name + "/binding?fieldValidation=Strict", unknown)
                        .assertFailure(400, "BadRequest");
        assertTrue(s.path("message").asText().contains("unknown field \"extra\""), s.toString());
        Response warned = api.post(BINDINGS + "?fieldValidation=Warn", unknown).assertCode(201);
        assertEquals("299 - \"unknown field \\\"extra\\\"\"", warned.header("Warning").orElse(""));
    }

    @Test
    void aBindingBodyOfAnotherKindOrNamespaceIsRefused() {
        String name = fresh();
        pod(name);
        api.post(
                        PODS + "/" + name + "/binding",
                        json("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'" + name + "'}}"))
                .assertStatusMessageStartsWith(
                        400,
                        "BadRequest",
                        "Pod in version \"v1\" cannot be handled as a " + "Binding");
        api.post(
                        BINDINGS,
                        json(
                                "{'metadata':{'name':'"
                                        + name
                                        + "','namespace':'kube-system'},"
                                        + "'target':{'name':'node-1'}}"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "the namespace of the provided object does not match the namespace sent on the request");
        assertFalse(stored(name).path("spec").has("nodeName"));
    }

    /** The POST route is the only one on both paths: every other method finds it and is refused. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "GET, /api/v1/namespaces/default/bindings",
        "GET, /api/v1/namespaces/default/bindings?watch=true",
        "HEAD, /api/v1/namespaces/default/bindings",
        "PUT, /api/v1/namespaces/default/bindings",
        "PATCH, /api/v1/namespaces/default/bindings",
        "DELETE, /api/v1/namespaces/default/bindings",
        "GET, /api/v1/namespaces/default/pods/p/binding",
        "GET, /api/v1/namespaces/default/pods/p/binding?watch=true",
        "PUT, /api/v1/namespaces/default/pods/p/binding",
        "PATCH, /api/v1/namespaces/default/pods/p/binding",
        "DELETE, /api/v1/namespaces/default/pods/p/binding",
    })
    void everyOtherMethodIsNotAllowed(String method, String path) {
        Response r =
                api.call(method, path)
                        .body(
                                method.equals("PATCH")
                                        ? "application/merge-patch+json"
                                        : "application/json",
                                method.equals("GET") || method.equals("HEAD") ? "" : "{}")
                        .send();
        if (method.equals("HEAD")) {
            r.assertCode(405);
            return;
        }
        r.assertStatus(405, "MethodNotAllowed", NOT_ALLOWED);
    }

    /**
     * kube-apiserver registers no route under {@code bindings/{name}} nor across namespaces: 404
     * there, whatever the method.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "GET, /api/v1/namespaces/default/bindings/p",
        "POST, /api/v1/namespaces/default/bindings/p",
        "PUT, /api/v1/namespaces/default/bindings/p",
        "DELETE, /api/v1/namespaces/default/bindings/p",
        "GET, /api/v1/bindings",
        "POST, /api/v1/bindings",
        "GET, /api/v1/bindings?watch=true",
        "GET, /api/v1/namespaces/default/bindings/p/status",
    })
    void bindingsHaveNoObjectOrClusterWidePaths(String method, String path) {
        api.call(method, path)
                .body("application/json", method.equals("GET") ? "" : "{}")
                .send()
                .assertStatus(404, "NotFound", NOT_FOUND);
    }

    @Test
    void discoveryListsBindingsAsCreateOnly() {
        JsonNode resources = api.get("/api/v1").assertCode(200).json().path("resources");
        JsonNode bindings = null;
        JsonNode podBinding = null;
        for (JsonNode r : resources) {
            if (r.path("name").asText().equals("bindings")) {
                bindings = r;
            } else if (r.path("name").asText().equals("pods/binding")) {
                podBinding = r;
            }
        }
        assertEquals(
                TestApiServer.obj(
                        "{'name':'bindings','singularName':'binding','namespaced':true,'kind':'Binding',"
                                + "'verbs':['create']}"),
                bindings);
        assertEquals(
                TestApiServer.obj(
                        "{'name':'pods/binding','singularName':'','namespaced':true,'kind':'Binding',"
                                + "'verbs':['create']}"),
                podBinding);
    }
}
