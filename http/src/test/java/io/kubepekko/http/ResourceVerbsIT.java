package io.kubepekko.http;

import static io.kubepekko.http.Response.assertDetails;
import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every verb over HTTP on a namespaced kind (configmaps) and a cluster-scoped one (clusterroles),
 * with the status codes, bodies and {@code Status} errors kube-apiserver answers.
 */
class ResourceVerbsIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final String CLUSTER_ROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
    private static final String RFC3339_SECONDS = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";
    private static final String STALE =
            "the object has been modified; please apply your changes to the latest version "
                    + "and try again";
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    /** A name no other test uses, so tests sharing the server stay independent. */
    private static String unique(String prefix) {
        return prefix + "-" + names.incrementAndGet();
    }

    private static String configMap(String name, String data) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "'},'data':"
                        + data
                        + "}");
    }

    private static ObjectNode createConfigMap(String name) {
        return api.create(CMS, configMap(name, "{'a':'1'}"));
    }

    private static String newNamespace() {
        String ns = unique("ns");
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    @Nested
    class Create {
        @Test
        void writesRecordTheirManagerFromFieldManagerOrTheUserAgent() {
            String name = unique("cm");
            ObjectNode created =
                    api.call("POST", CMS)
                            .header("User-Agent", "my-tool/1.2 (linux)")
                            .json(
                                    json(
                                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                                    + name
                                                    + "'},'data':{'a':'1'}}"))
                            .send()
                            .assertCode(201)
                            .json();
            JsonNode entry = created.at("/metadata/managedFields/0");
            assertEquals("my-tool", entry.path("manager").asText());
            assertEquals("Update", entry.path("operation").asText());
            assertEquals("FieldsV1", entry.path("fieldsType").asText());
            assertEquals(json("{'f:data':{'.':{},'f:a':{}}}"), entry.path("fieldsV1").toString());
            ObjectNode labeled =
                    api.patch(
                                    CMS + "/" + name + "?fieldManager=labeler",
                                    "application/merge-patch+json",
                                    json("{'metadata':{'labels':{'x':'y'}}}"))
                            .assertCode(200)
                            .json();
            List<String> managers = new ArrayList<>();
            labeled.at("/metadata/managedFields")
                    .forEach(e -> managers.add(e.path("manager").asText()));
            // kube sorts entries by operation, time to the second, then manager: both wrote within
            // a second.
            assertTrue(managers.containsAll(List.of("labeler", "my-tool")), managers.toString());
        }

        @Test
        void createAnswers201WithSystemFields() {
            String name = unique("cm");
            Response r = api.post(CMS, configMap(name, "{'a':'1'}")).assertCode(201);
            assertEquals("application/json", r.mediaType());
            ObjectNode o = r.json();
            assertEquals("ConfigMap", o.path("kind").asText());
            assertEquals("v1", o.path("apiVersion").asText());
            JsonNode m = o.path("metadata");
            assertEquals(name, m.path("name").asText());
            assertEquals("default", m.path("namespace").asText());
            assertTrue(
                    m.path("uid")
                            .asText()
                            .matches(
                                    "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
                    () -> "uid: " + m.path("uid"));
            assertTrue(
                    m.path("creationTimestamp").asText().matches(RFC3339_SECONDS),
                    () -> "creationTimestamp: " + m.path("creationTimestamp"));
            assertTrue(rv(o) > 0, "resourceVersion is a positive decimal");
            assertEquals("1", o.path("data").path("a").asText());
        }

        @Test
        void createOfClusterScopedKindAnswers201WithoutNamespace() {
            String name = unique("role");
            Response r =
                    api.post(
                                    CLUSTER_ROLES,
                                    json(
                                            "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                                    + "'metadata':{'name':'"
                                                    + name
                                                    + "'},'rules':[]}"))
                            .assertCode(201);
            JsonNode m = r.json().path("metadata");
            assertEquals(name, m.path("name").asText());
            assertTrue(
                    m.path("namespace").isMissingNode(),
                    "a cluster-scoped object has no namespace");
            assertFalse(m.path("uid").asText().isEmpty());
            assertTrue(m.path("creationTimestamp").asText().matches(RFC3339_SECONDS));
        }

        @Test
        void createOfExistingNameIsAlreadyExists() {
            String name = unique("cm");
            createConfigMap(name);
            ObjectNode s =
                    api.post(CMS, configMap(name, "{}"))
                            .assertStatus(
                                    409,
                                    "AlreadyExists",
                                    "configmaps \"" + name + "\" already exists");
            assertDetails(s, name, null, "configmaps");
        }

        @Test
        void generateNameGetsAFiveCharacterSuffix() {
            ObjectNode o =
                    api.create(
                            CMS,
                            json(
                                    "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'generateName':'gen-'}}"));
            String name = o.path("metadata").path("name").asText();
            assertTrue(
                    name.matches("gen-[bcdfghjklmnpqrstvwxz2456789]{5}"),
                    () -> "generated name: " + name);
            assertEquals("gen-", o.path("metadata").path("generateName").asText());
            api.get(CMS + "/" + name).assertCode(200);
        }

        @Test
        void createInMissingNamespaceIsNotFoundNamingTheNamespace() {
            ObjectNode s =
                    api.post("/api/v1/namespaces/no-such-ns/configmaps", configMap("x", "{}"))
                            .assertStatus(404, "NotFound", "namespaces \"no-such-ns\" not found");
            assertDetails(s, "no-such-ns", null, "namespaces");
        }

        @Test
        void createInANamespaceRemovedJustBeforeIsNotFound() {
            api.create(
                    "/api/v1/namespaces",
                    json(
                            "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'short-lived'}}"));
            api.create("/api/v1/namespaces/short-lived/configmaps", configMap("before", "{}"));
            api.delete("/api/v1/namespaces/short-lived").assertCode(200);
            // The namespace controller empties it and removes its finalizer; then it is gone.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> api.get("/api/v1/namespaces/short-lived").code() == 404);
            // On a cluster, a node that admitted "before" may trust the namespace for up to 2 s
            // more
            // (the per-node namespace cache, docs/operations.md): wait until no node would admit,
            // asking
            // each in turn with dry runs, which store nothing. One server refuses at once.
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () -> {
                                for (int i = 0; i < api.servers().size(); i++) {
                                    if (api.post(
                                                            "/api/v1/namespaces/short-lived/configmaps?dryRun=All",
                                                            configMap("after", "{}"))
                                                    .code()
                                            != 404) {
                                        return false;
                                    }
                                }
                                return true;
                            });
            api.post("/api/v1/namespaces/short-lived/configmaps", configMap("after", "{}"))
                    .assertStatus(404, "NotFound", "namespaces \"short-lived\" not found");
        }

        @Test
        void createWithBodyNamespaceOtherThanPathIsBadRequest() {
            api.post(
                            CMS,
                            json(
                                    "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x','namespace':'kube-system'}}"))
                    .assertStatus(
                            400,
                            "BadRequest",
                            "the namespace of the provided object does not match the namespace sent on the request");
        }

        @Test
        void createWithResourceVersionIsBadRequest() {
            api.post(
                            CMS,
                            json(
                                    "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x','resourceVersion':'5'}}"))
                    .assertStatus(
                            400,
                            "BadRequest",
                            "resourceVersion should not be set on objects to be created");
        }

        @Test
        void bodyOfAnotherKindIsBadRequest() {
            api.post(CMS, json("{'apiVersion':'v1','kind':'Secret','metadata':{'name':'x'}}"))
                    .assertStatusMessageStartsWith(
                            400,
                            "BadRequest",
                            "Secret in version \"v1\" cannot be handled as a ConfigMap: ");
        }

        @Test
        void bodyOfAnotherApiVersionIsBadRequest() {
            ObjectNode s =
                    api.post(
                                    CMS,
                                    json(
                                            "{'apiVersion':'apps/v1','kind':'ConfigMap','metadata':{'name':'x'}}"))
                            .assertFailure(400, "BadRequest");
            assertTrue(
                    s.path("message").asText().contains("apps/v1"),
                    () -> "message names the version: " + s);
        }

        @Test
        void malformedJsonIsBadRequest() {
            api.post(
                            CMS,
                            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"")
                    .assertStatusMessageStartsWith(
                            400,
                            "BadRequest",
                            "the object provided is unrecognized (must be of type ConfigMap): ");
        }

        @Test
        void yamlBodyIsAccepted() {
            String name = unique("yaml");
            Response r =
                    api.call("POST", CMS)
                            .body(
                                    "application/yaml",
                                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                                            + name
                                            + "\ndata:\n  k: v\n")
                            .send()
                            .assertCode(201);
            assertEquals(
                    "application/json",
                    r.mediaType(),
                    "the response follows Accept, not the request body");
            assertEquals("v", r.json().path("data").path("k").asText());
        }

        @Test
        void bodyWithoutContentTypeIsReadAsJson() {
            String name = unique("nocontenttype");
            Response r =
                    api.call("POST", CMS)
                            .rawBody(configMap(name, "{'k':'v'}"))
                            .send()
                            .assertCode(201);
            assertEquals(name, r.json().path("metadata").path("name").asText());
        }
    }

    @Nested
    class Read {
        @Test
        void getAnswersTheStoredObject() {
            ObjectNode created = createConfigMap(unique("cm"));
            String name = created.path("metadata").path("name").asText();
            ObjectNode got = api.get(CMS + "/" + name).assertCode(200).json();
            assertEquals(created, got);
        }

        @Test
        void getOfMissingObjectIsNotFound() {
            ObjectNode s =
                    api.get(CMS + "/absent")
                            .assertStatus(404, "NotFound", "configmaps \"absent\" not found");
            assertDetails(s, "absent", null, "configmaps");
        }

        @Test
        void getOfMissingClusterScopedObjectNamesItsGroup() {
            ObjectNode s =
                    api.get(CLUSTER_ROLES + "/absent")
                            .assertStatus(
                                    404,
                                    "NotFound",
                                    "clusterroles.rbac.authorization.k8s.io \"absent\" not found");
            assertDetails(s, "absent", "rbac.authorization.k8s.io", "clusterroles");
        }

        @Test
        void listOfOneNamespaceIsSortedAndVersioned() {
            String ns = newNamespace();
            String path = "/api/v1/namespaces/" + ns + "/configmaps";
            List<Long> versions = new ArrayList<>();
            for (String n : List.of("b", "c", "a")) {
                versions.add(rv(api.create(path, configMap(n, "{}"))));
            }
            ObjectNode list = api.get(path).assertCode(200).json();
            assertEquals("ConfigMapList", list.path("kind").asText());
            assertEquals("v1", list.path("apiVersion").asText());
            assertEquals(List.of("a", "b", "c"), itemNames(list));
            long listVersion = rv(list);
            for (JsonNode item : list.path("items")) {
                assertTrue(
                        listVersion >= rv(item), "list resourceVersion is not older than any item");
            }
            assertTrue(
                    listVersion
                            >= versions.stream().mapToLong(Long::longValue).max().orElseThrow());
        }

        @Test
        void listOfAllNamespacesIncludesEveryNamespaceSortedByNamespaceThenName() {
            String ns1 = newNamespace();
            String ns2 = newNamespace();
            api.create("/api/v1/namespaces/" + ns2 + "/configmaps", configMap("z", "{}"));
            api.create("/api/v1/namespaces/" + ns1 + "/configmaps", configMap("y", "{}"));
            ObjectNode list = api.get("/api/v1/configmaps").assertCode(200).json();
            assertEquals("ConfigMapList", list.path("kind").asText());
            List<String> keys = new ArrayList<>();
            long listVersion = rv(list);
            for (JsonNode item : list.path("items")) {
                keys.add(
                        item.path("metadata").path("namespace").asText()
                                + "/"
                                + item.path("metadata").path("name").asText());
                assertTrue(listVersion >= rv(item));
            }
            assertTrue(keys.contains(ns1 + "/y") && keys.contains(ns2 + "/z"), keys::toString);
            assertEquals(
                    keys.stream().sorted().toList(), keys, "items are in namespace/name order");
        }

        @Test
        void listOfClusterScopedKindHasItsListKind() {
            String name = unique("role");
            api.create(
                    CLUSTER_ROLES,
                    json(
                            "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                    + "'metadata':{'name':'"
                                    + name
                                    + "'}}"));
            ObjectNode list = api.get(CLUSTER_ROLES).assertCode(200).json();
            assertEquals("ClusterRoleList", list.path("kind").asText());
            assertEquals("rbac.authorization.k8s.io/v1", list.path("apiVersion").asText());
            assertTrue(itemNames(list).contains(name));
        }

        @Test
        void yamlIsServedOnAcceptYaml() {
            String name = unique("cm");
            createConfigMap(name);
            Response r = api.get(CMS + "/" + name, "application/yaml").assertCode(200);
            assertEquals("application/yaml", r.mediaType());
            ObjectNode o = r.yaml();
            assertEquals("ConfigMap", o.path("kind").asText());
            assertEquals(name, o.path("metadata").path("name").asText());
        }

        @Test
        void statusErrorIsServedAsYamlOnAcceptYaml() {
            Response r = api.get(CMS + "/absent", "application/yaml").assertCode(404);
            assertEquals("application/yaml", r.mediaType());
            assertEquals("Status", r.yaml().path("kind").asText());
        }

        @Test
        void prettyIndentsLikeGo() {
            String name = unique("cm");
            createConfigMap(name);
            Response r = api.get(CMS + "/" + name + "?pretty=true").assertCode(200);
            String body = r.text();
            assertTrue(body.startsWith("{\n  \""), () -> "two-space indented object: " + body);
            assertTrue(
                    body.contains("\n  \"kind\": \"ConfigMap\""),
                    () -> "Go's `\"key\": value` style: " + body);
            assertTrue(
                    body.contains("\n    \"name\": \"" + name + "\""),
                    () -> "nested indentation: " + body);
            assertEquals(api.get(CMS + "/" + name).json(), r.json());
        }
    }

    @Nested
    class Update {
        @Test
        void putAnswers200WithHigherResourceVersion() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            o.withObject("data").put("a", "2");
            ObjectNode updated = api.put(CMS + "/" + name, Json.string(o)).assertCode(200).json();
            assertEquals("2", updated.path("data").path("a").asText());
            assertTrue(rv(updated) > rv(o), "resourceVersion increases");
            assertEquals(o.path("metadata").path("uid"), updated.path("metadata").path("uid"));
            assertEquals(
                    o.path("metadata").path("creationTimestamp"),
                    updated.path("metadata").path("creationTimestamp"));
            assertEquals(updated, api.get(CMS + "/" + name).json());
        }

        @Test
        void putWithoutResourceVersionIsUnconditional() {
            String name = unique("cm");
            createConfigMap(name);
            ObjectNode updated =
                    api.put(CMS + "/" + name, configMap(name, "{'b':'2'}")).assertCode(200).json();
            assertEquals(json("{'b':'2'}"), Json.string(updated.path("data")));
        }

        @Test
        void putWithStaleResourceVersionIsConflict() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            ObjectNode first = o.deepCopy();
            first.withObject("data").put("a", "first");
            api.put(CMS + "/" + name, Json.string(first)).assertCode(200);
            o.withObject("data").put("a", "second");
            ObjectNode s =
                    api.put(CMS + "/" + name, Json.string(o))
                            .assertStatus(
                                    409,
                                    "Conflict",
                                    "Operation cannot be fulfilled on configmaps \""
                                            + name
                                            + "\": "
                                            + STALE);
            assertDetails(s, name, null, "configmaps");
            assertEquals("first", api.get(CMS + "/" + name).json().path("data").path("a").asText());
        }

        @Test
        void conflictOnClusterScopedKindNamesItsGroup() {
            String name = unique("role");
            ObjectNode o =
                    api.create(
                            CLUSTER_ROLES,
                            json(
                                    "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                            + "'metadata':{'name':'"
                                            + name
                                            + "'},'rules':[]}"));
            ObjectNode newer = o.deepCopy();
            newer.withObject("metadata").withObject("labels").put("v", "1");
            ObjectNode updated =
                    api.put(CLUSTER_ROLES + "/" + name, Json.string(newer)).assertCode(200).json();
            assertTrue(rv(updated) > rv(o));
            ObjectNode s =
                    api.put(CLUSTER_ROLES + "/" + name, Json.string(o))
                            .assertStatus(
                                    409,
                                    "Conflict",
                                    "Operation cannot be fulfilled on clusterroles.rbac.authorization.k8s.io \""
                                            + name
                                            + "\": "
                                            + STALE);
            assertDetails(s, name, "rbac.authorization.k8s.io", "clusterroles");
        }

        @Test
        void putOfMissingConfigMapIsNotFound() {
            ObjectNode s =
                    api.put(CMS + "/never-created", configMap("never-created", "{}"))
                            .assertStatus(
                                    404, "NotFound", "configmaps \"never-created\" not found");
            assertDetails(s, "never-created", null, "configmaps");
        }

        @Test
        void putOfMissingLeaseCreatesIt() {
            String name = unique("lease");
            Response r =
                    api.put(
                                    "/apis/coordination.k8s.io/v1/namespaces/default/leases/"
                                            + name,
                                    json(
                                            "{'apiVersion':'coordination.k8s.io/v1','kind':'Lease','metadata':{'name':'"
                                                    + name
                                                    + "'},"
                                                    + "'spec':{'holderIdentity':'me'}}"))
                            .assertCode(201);
            assertFalse(r.json().path("metadata").path("uid").asText().isEmpty());
            api.get("/apis/coordination.k8s.io/v1/namespaces/default/leases/" + name)
                    .assertCode(200);
        }

        @Test
        void putOfMissingServiceCreatesIt() {
            String name = unique("svc");
            Response r =
                    api.put(
                                    "/api/v1/namespaces/default/services/" + name,
                                    json(
                                            "{'apiVersion':'v1','kind':'Service','metadata':{'name':'"
                                                    + name
                                                    + "'},"
                                                    + "'spec':{'ports':[{'port':80}]}}"))
                            .assertCode(201);
            assertEquals(name, r.json().path("metadata").path("name").asText());
        }

        @Test
        void putWithBodyNameOtherThanUrlIsBadRequest() {
            String name = unique("cm");
            createConfigMap(name);
            api.put(CMS + "/" + name, configMap("other", "{}"))
                    .assertStatus(
                            400,
                            "BadRequest",
                            "the name of the object (other) does not match the name on the URL ("
                                    + name
                                    + ")");
        }

        @Test
        void putWithBodyNamespaceOtherThanPathIsBadRequest() {
            String name = unique("cm");
            createConfigMap(name);
            api.put(
                            CMS + "/" + name,
                            json(
                                    "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                            + name
                                            + "','namespace':'kube-system'}}"))
                    .assertStatus(
                            400,
                            "BadRequest",
                            "the namespace of the object (kube-system) does not match the namespace on the request (default)");
        }

        @Test
        void putOfAnotherKindIsBadRequest() {
            String name = unique("cm");
            createConfigMap(name);
            api.put(
                            CMS + "/" + name,
                            json(
                                    "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'"
                                            + name
                                            + "'}}"))
                    .assertStatusMessageStartsWith(
                            400,
                            "BadRequest",
                            "Secret in version \"v1\" cannot be handled as a ConfigMap: ");
        }

        @Test
        void noOpUpdateKeepsResourceVersion() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            ObjectNode same = api.put(CMS + "/" + name, Json.string(o)).assertCode(200).json();
            assertEquals(
                    o.path("metadata").path("resourceVersion"),
                    same.path("metadata").path("resourceVersion"));
            assertEquals(o, same);
        }

        @Test
        void clientCannotChangeSystemFields() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            ObjectNode changed = o.deepCopy();
            changed.withObject("metadata").put("creationTimestamp", "2000-01-01T00:00:00Z");
            changed.withObject("data").put("a", "2");
            ObjectNode updated =
                    api.put(CMS + "/" + name, Json.string(changed)).assertCode(200).json();
            assertEquals(
                    o.path("metadata").path("creationTimestamp"),
                    updated.path("metadata").path("creationTimestamp"));
        }
    }

    @Nested
    class Patch {
        @Test
        void mergePatchAddsAndRemovesKeys() {
            ObjectNode o = api.create(CMS, configMap(unique("cm"), "{'a':'1','b':'2'}"));
            String name = o.path("metadata").path("name").asText();
            ObjectNode patched =
                    api.patch(
                                    CMS + "/" + name,
                                    "application/merge-patch+json",
                                    json("{'data':{'a':null,'c':'3'}}"))
                            .assertCode(200)
                            .json();
            assertEquals(TestApiServer.obj("{'b':'2','c':'3'}"), patched.path("data"));
            assertTrue(rv(patched) > rv(o));
        }

        @Test
        void jsonPatchAppliesOperationsInOrder() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            ObjectNode patched =
                    api.patch(
                                    CMS + "/" + name,
                                    "application/json-patch+json",
                                    json(
                                            "[{'op':'test','path':'/data/a','value':'1'},{'op':'add','path':'/data/b','value':'2'},"
                                                    + "{'op':'remove','path':'/data/a'}]"))
                            .assertCode(200)
                            .json();
            assertEquals(TestApiServer.obj("{'b':'2'}"), patched.path("data"));
            assertTrue(rv(patched) > rv(o));
        }

        @Test
        void clusterScopedObjectCanBePatched() {
            String name = unique("role");
            api.create(
                    CLUSTER_ROLES,
                    json(
                            "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                    + "'metadata':{'name':'"
                                    + name
                                    + "'},'rules':[]}"));
            ObjectNode patched =
                    api.patch(
                                    CLUSTER_ROLES + "/" + name,
                                    "application/merge-patch+json",
                                    json("{'metadata':{'labels':{'p':'1'}}}"))
                            .assertCode(200)
                            .json();
            assertEquals("1", patched.path("metadata").path("labels").path("p").asText());
        }

        @Test
        void failedJsonPatchTestIsUnprocessable() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            api.patch(
                            CMS + "/" + name,
                            "application/json-patch+json",
                            json(
                                    "[{'op':'test','path':'/data/a','value':'other'},{'op':'add','path':'/data/b','value':'2'}]"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "the server rejected our request due to an error in our request");
            assertEquals(o, api.get(CMS + "/" + name).json(), "nothing is written");
        }

        @Test
        void patchOfMissingObjectIsNotFound() {
            api.patch(CMS + "/absent", "application/merge-patch+json", "{}")
                    .assertStatus(404, "NotFound", "configmaps \"absent\" not found");
        }

        @Test
        void patchChangingTheNameIsBadRequest() {
            String name = unique("cm");
            createConfigMap(name);
            api.patch(
                            CMS + "/" + name,
                            "application/merge-patch+json",
                            json("{'metadata':{'name':'renamed'}}"))
                    .assertStatus(
                            400,
                            "BadRequest",
                            "the name of the object (renamed) does not match the name on the URL ("
                                    + name
                                    + ")");
        }

        @Test
        void patchChangingTheNamespaceIsBadRequest() {
            String name = unique("cm");
            createConfigMap(name);
            api.patch(
                            CMS + "/" + name,
                            "application/merge-patch+json",
                            json("{'metadata':{'namespace':'kube-system'}}"))
                    .assertStatus(
                            400,
                            "BadRequest",
                            "the namespace of the provided object does not match the namespace sent on the request");
        }

        @Test
        void strategicMergePatchMergesContainersByName() {
            String name = unique("dep");
            String deployments = "/apis/apps/v1/namespaces/default/deployments";
            api.create(
                    deployments,
                    json(
                            "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                                    + name
                                    + "'},'spec':{'selector':{'matchLabels':{'app':'w'}},'template':{'metadata':{'labels':{'app':'w'}},"
                                    + "'spec':{'containers':[{'name':'app','image':'app:1'},{'name':'side','image':'side:1'}]}}}}"));
            ObjectNode patched =
                    api.patch(
                                    deployments + "/" + name,
                                    "application/strategic-merge-patch+json",
                                    json(
                                            "{'spec':{'template':{'spec':{'containers':[{'name':'app','image':'app:2'}]}}}}"))
                            .assertCode(200)
                            .json();
            JsonNode containers = patched.at("/spec/template/spec/containers");
            assertEquals(2, containers.size(), "merged by name, not replaced");
            assertEquals("app:2", containers.path(0).path("image").asText());
            assertEquals("side:1", containers.path(1).path("image").asText());
            api.patch(
                            deployments + "/" + name,
                            "application/strategic-merge-patch+json",
                            json("{'metadata':{'resourceVersion':'1'},'spec':{'replicas':3}}"))
                    .assertStatusMessageStartsWith(
                            409, "Conflict", "Operation cannot be fulfilled on deployments");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"application/json", "text/plain"})
        void unsupportedPatchTypeIsUnsupportedMediaType(String contentType) {
            String name = unique("cm");
            createConfigMap(name);
            api.patch(CMS + "/" + name, contentType, json("{'data':{'a':'2'}}"))
                    .assertStatusMessageStartsWith(
                            415,
                            "UnsupportedMediaType",
                            "the body of the request was in an unknown format - accepted media types include: ");
        }
    }

    @Nested
    class Delete {
        @Test
        void invalidDeleteOptionsAre422Or400AndDeleteNothing() {
            String name = unique("cm");
            createConfigMap(name);
            api.call("DELETE", CMS + "/" + name)
                    .json(json("{'propagationPolicy':'Sometimes'}"))
                    .send()
                    .assertStatus(
                            422,
                            "Invalid",
                            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: "
                                    + "Unsupported value: \"Sometimes\": supported values: \"Foreground\", \"Background\", "
                                    + "\"Orphan\", \"nil\"");
            api.delete(CMS + "/" + name + "?orphanDependents=true&propagationPolicy=Orphan")
                    .assertStatus(
                            422,
                            "Invalid",
                            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: "
                                    + "\"Orphan\": orphanDependents and deletionPropagation cannot be both set");
            api.delete(CMS + "/" + name + "?gracePeriodSeconds=soon")
                    .assertStatus(
                            400,
                            "BadRequest",
                            "strconv.ParseInt: parsing \"soon\": invalid syntax");
            api.get(CMS + "/" + name).assertCode(200);
            api.delete(CMS + "/" + name + "?propagationPolicy=Background&gracePeriodSeconds=0")
                    .assertCode(200);
        }

        @Test
        void deleteAnswersSuccessStatusAndRemovesTheObject() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            Response r = api.delete(CMS + "/" + name).assertCode(200);
            ObjectNode s = r.json();
            assertEquals("Status", s.path("kind").asText());
            assertEquals("Success", s.path("status").asText());
            assertDetails(s, name, null, "configmaps");
            assertEquals(
                    o.path("metadata").path("uid").asText(),
                    s.path("details").path("uid").asText());
            api.get(CMS + "/" + name)
                    .assertStatus(404, "NotFound", "configmaps \"" + name + "\" not found");
        }

        @Test
        void deleteOfClusterScopedObjectNamesItsGroup() {
            String name = unique("role");
            api.create(
                    CLUSTER_ROLES,
                    json(
                            "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                    + "'metadata':{'name':'"
                                    + name
                                    + "'}}"));
            ObjectNode s = api.delete(CLUSTER_ROLES + "/" + name).assertCode(200).json();
            assertEquals("Success", s.path("status").asText());
            assertDetails(s, name, "rbac.authorization.k8s.io", "clusterroles");
            api.get(CLUSTER_ROLES + "/" + name).assertCode(404);
        }

        @Test
        void deleteOfMissingObjectIsNotFound() {
            ObjectNode s =
                    api.delete(CMS + "/absent")
                            .assertStatus(404, "NotFound", "configmaps \"absent\" not found");
            assertDetails(s, "absent", null, "configmaps");
        }

        @Test
        void deleteWithStaleResourceVersionPreconditionIsConflict() {
            ObjectNode o = createConfigMap(unique("cm"));
            String name = o.path("metadata").path("name").asText();
            api.call("DELETE", CMS + "/" + name)
                    .json(
                            json(
                                    "{'kind':'DeleteOptions','apiVersion':'v1',"
                                            + "'preconditions':{'resourceVersion':'1'}}"))
                    .send()
                    .assertStatus(
                            409,
                            "Conflict",
                            "Operation cannot be fulfilled on ConfigMap \""
                                    + name
                                    + "\": the ResourceVersion in the "
                                    + "precondition (1) does not match the ResourceVersion in record ("
                                    + rv(o)
                                    + "). The object might have been modified");
            api.get(CMS + "/" + name).assertCode(200);
        }

        @Test
        void deleteCollectionRemovesOnlyLabelledObjects() {
            String ns = newNamespace();
            String path = "/api/v1/namespaces/" + ns + "/configmaps";
            for (String[] nl : new String[][] {{"a", "x"}, {"b", "y"}, {"c", "x"}}) {
                api.create(
                        path,
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                        + nl[0]
                                        + "','labels':{'app':'"
                                        + nl[1]
                                        + "'}}}"));
            }
            ObjectNode deleted = api.delete(path + "?labelSelector=app%3Dx").assertCode(200).json();
            assertEquals("ConfigMapList", deleted.path("kind").asText());
            assertEquals(List.of("a", "c"), itemNames(deleted));
            assertEquals(List.of("b"), itemNames(api.get(path).json()));
        }

        @Test
        void deleteCollectionOfClusterScopedKindHonoursLabelSelector() {
            String label = unique("sel");
            String kept = unique("role");
            String gone = unique("role");
            api.create(
                    CLUSTER_ROLES,
                    json(
                            "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                    + "'metadata':{'name':'"
                                    + gone
                                    + "','labels':{'t':'"
                                    + label
                                    + "'}}}"));
            api.create(
                    CLUSTER_ROLES,
                    json(
                            "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                    + "'metadata':{'name':'"
                                    + kept
                                    + "','labels':{'t':'other'}}}"));
            ObjectNode deleted =
                    api.delete(CLUSTER_ROLES + "?labelSelector=t%3D" + label)
                            .assertCode(200)
                            .json();
            assertEquals("ClusterRoleList", deleted.path("kind").asText());
            assertEquals(List.of(gone), itemNames(deleted));
            api.get(CLUSTER_ROLES + "/" + gone).assertCode(404);
            api.get(CLUSTER_ROLES + "/" + kept).assertCode(200);
        }

        @Test
        void nameIsReusableAfterDelete() {
            ObjectNode first = createConfigMap(unique("cm"));
            String name = first.path("metadata").path("name").asText();
            api.delete(CMS + "/" + name).assertCode(200);
            ObjectNode second = createConfigMap(name);
            assertNotEquals(
                    first.path("metadata").path("uid"), second.path("metadata").path("uid"));
        }
    }
}
