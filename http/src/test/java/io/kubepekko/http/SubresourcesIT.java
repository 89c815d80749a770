package io.kubepekko.http;

import static io.kubepekko.http.Response.assertDetails;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code status} and {@code scale} subresources of deployments: which writes may change which
 * part of the object, {@code metadata.generation}, and the {@code autoscaling/v1 Scale} view.
 */
class SubresourcesIT {

    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String deployment(String name, int replicas) {
        return json(
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                        + name
                        + "','labels':{'app':'web'}},"
                        + "'spec':{'replicas':"
                        + replicas
                        + ",'selector':{'matchLabels':{'app':'web'}},"
                        + "'template':{'metadata':{'labels':{'app':'web'}},"
                        + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}}}");
    }

    /** Creates a deployment with two replicas under a fresh name; returns the stored object. */
    private static ObjectNode createDeployment() {
        return api.create(DEPLOYMENTS, deployment("web-" + names.incrementAndGet(), 2));
    }

    private static String path(ObjectNode obj) {
        return DEPLOYMENTS + "/" + obj.path("metadata").path("name").asText();
    }

    private static long generation(JsonNode obj) {
        return obj.path("metadata").path("generation").asLong();
    }

    private static long rv(JsonNode obj) {
        return Long.parseLong(obj.path("metadata").path("resourceVersion").asText());
    }

    /** Writes a status through {@code /status} and returns the stored object. */
    private static ObjectNode writeStatus(ObjectNode obj, String statusJson) {
        ObjectNode withStatus = obj.deepCopy();
        withStatus.set("status", TestApiServer.obj(statusJson));
        return api.put(path(obj) + "/status", Json.string(withStatus)).assertCode(200).json();
    }

    @Nested
    class Status {
        @Test
        void createIgnoresStatusAndStartsGenerationAtOne() {
            ObjectNode body = TestApiServer.obj(deployment("web-created", 2));
            body.set("status", TestApiServer.obj("{'replicas':5,'readyReplicas':5}"));
            ObjectNode created = api.post(DEPLOYMENTS, Json.string(body)).assertCode(201).json();
            assertEquals(1, generation(created));
            assertTrue(
                    created.path("status").path("replicas").isMissingNode(),
                    () -> "status: " + created.path("status"));
        }

        @Test
        void statusWriteChangesOnlyStatus() {
            ObjectNode o = createDeployment();
            ObjectNode sent = o.deepCopy();
            sent.withObject("spec").put("replicas", 9);
            sent.withObject("metadata").withObject("labels").put("app", "changed");
            sent.set(
                    "status",
                    TestApiServer.obj("{'replicas':2,'readyReplicas':1,'observedGeneration':1}"));
            ObjectNode updated =
                    api.put(path(o) + "/status", Json.string(sent)).assertCode(200).json();
            assertEquals(
                    2,
                    updated.path("spec").path("replicas").asInt(),
                    "spec is not written through /status");
            assertEquals(
                    "web",
                    updated.path("metadata").path("labels").path("app").asText(),
                    "labels are not written through /status");
            assertEquals(1, updated.path("status").path("readyReplicas").asInt());
            assertEquals(1, generation(updated), "a status write does not bump generation");
            assertTrue(rv(updated) > rv(o));
            assertEquals(updated, api.get(path(o)).json());
        }

        @Test
        void statusPatchChangesOnlyStatus() {
            ObjectNode o = createDeployment();
            ObjectNode patched =
                    api.patch(
                                    path(o) + "/status",
                                    "application/merge-patch+json",
                                    json("{'spec':{'replicas':7},'status':{'replicas':2}}"))
                            .assertCode(200)
                            .json();
            assertEquals(2, patched.path("spec").path("replicas").asInt());
            assertEquals(2, patched.path("status").path("replicas").asInt());
            assertEquals(1, generation(patched));
        }

        @Test
        void mainResourceWriteLeavesStatusAlone() {
            ObjectNode withStatus =
                    writeStatus(createDeployment(), "{'replicas':2,'readyReplicas':2}");
            ObjectNode sent = withStatus.deepCopy();
            sent.withObject("spec").put("replicas", 4);
            sent.set("status", TestApiServer.obj("{'replicas':100}"));
            ObjectNode updated =
                    api.put(path(withStatus), Json.string(sent)).assertCode(200).json();
            assertEquals(4, updated.path("spec").path("replicas").asInt());
            assertEquals(
                    withStatus.path("status"),
                    updated.path("status"),
                    "status is not written through the main resource");
        }

        @Test
        void mainResourcePatchLeavesStatusAlone() {
            ObjectNode withStatus = writeStatus(createDeployment(), "{'replicas':2}");
            ObjectNode patched =
                    api.patch(
                                    path(withStatus),
                                    "application/merge-patch+json",
                                    json("{'status':{'replicas':50}}"))
                            .assertCode(200)
                            .json();
            assertEquals(withStatus.path("status"), patched.path("status"));
            assertEquals(
                    withStatus.path("metadata").path("resourceVersion"),
                    patched.path("metadata").path("resourceVersion"),
                    "a patch that only touches status is a no-op on the main resource");
        }

        @Test
        void statusOfMissingDeploymentIsNotFound() {
            ObjectNode s =
                    api.get(DEPLOYMENTS + "/absent/status")
                            .assertStatus(404, "NotFound", "deployments.apps \"absent\" not found");
            assertDetails(s, "absent", "apps", "deployments");
        }

        @Test
        void getStatusAnswersTheWholeObject() {
            ObjectNode o = createDeployment();
            assertEquals(o, api.get(path(o) + "/status").assertCode(200).json());
        }
    }

    @Nested
    class Generation {
        @Test
        void specChangeBumpsGeneration() {
            ObjectNode o = createDeployment();
            ObjectNode patched =
                    api.patch(
                                    path(o),
                                    "application/merge-patch+json",
                                    json(
                                            "{'spec':{'template':{'spec':{'containers':[{'name':'c','image':'nginx:1.28'}]}}}}"))
                            .assertCode(200)
                            .json();
            assertEquals(2, generation(patched));
            ObjectNode again =
                    api.patch(
                                    path(o),
                                    "application/merge-patch+json",
                                    json("{'spec':{'replicas':3}}"))
                            .assertCode(200)
                            .json();
            assertEquals(3, generation(again));
        }

        @Test
        void labelChangeDoesNotBumpGeneration() {
            ObjectNode o = createDeployment();
            ObjectNode patched =
                    api.patch(
                                    path(o),
                                    "application/merge-patch+json",
                                    json("{'metadata':{'labels':{'tier':'front'}}}"))
                            .assertCode(200)
                            .json();
            assertEquals(1, generation(patched));
            assertTrue(rv(patched) > rv(o));
        }

        /**
         * Deployments copy their annotations to their replica sets, so Kubernetes counts them as
         * spec.
         */
        @Test
        void annotationChangeBumpsDeploymentGeneration() {
            ObjectNode o = createDeployment();
            ObjectNode patched =
                    api.patch(
                                    path(o),
                                    "application/merge-patch+json",
                                    json("{'metadata':{'annotations':{'note':'x'}}}"))
                            .assertCode(200)
                            .json();
            assertEquals(2, generation(patched));
        }

        @Test
        void clientCannotSetGeneration() {
            ObjectNode o = createDeployment();
            ObjectNode sent = o.deepCopy();
            sent.withObject("metadata").put("generation", 42);
            sent.withObject("metadata").withObject("labels").put("x", "y");
            ObjectNode updated = api.put(path(o), Json.string(sent)).assertCode(200).json();
            assertEquals(1, generation(updated));
        }
    }

    @Nested
    class Scale {
        @Test
        void getScaleAnswersAutoscalingV1Scale() {
            ObjectNode o = createDeployment();
            ObjectNode scale = api.get(path(o) + "/scale").assertCode(200).json();
            assertEquals("Scale", scale.path("kind").asText());
            assertEquals("autoscaling/v1", scale.path("apiVersion").asText());
            JsonNode m = scale.path("metadata");
            assertEquals(o.path("metadata").path("name"), m.path("name"));
            assertEquals("default", m.path("namespace").asText());
            assertEquals(o.path("metadata").path("uid"), m.path("uid"));
            assertEquals(o.path("metadata").path("resourceVersion"), m.path("resourceVersion"));
            assertEquals(o.path("metadata").path("creationTimestamp"), m.path("creationTimestamp"));
            assertEquals(2, scale.path("spec").path("replicas").asInt());
            assertEquals("app=web", scale.path("status").path("selector").asText());
            assertEquals(0, scale.path("status").path("replicas").asInt());
        }

        @Test
        void putScaleWithResourceVersionAndNoContentTypeChangesReplicas() {
            ObjectNode o = createDeployment();
            ObjectNode scale = api.get(path(o) + "/scale").json();
            scale.withObject("spec").put("replicas", 5);
            Response r =
                    api.call("PUT", path(o) + "/scale")
                            .rawBody(Json.string(scale))
                            .send()
                            .assertCode(200);
            ObjectNode answered = r.json();
            assertEquals("Scale", answered.path("kind").asText());
            assertEquals(5, answered.path("spec").path("replicas").asInt());
            ObjectNode stored = api.get(path(o)).json();
            assertEquals(5, stored.path("spec").path("replicas").asInt());
            assertEquals(2, generation(stored), "a replica change is a spec change");
            assertEquals(
                    stored.path("metadata").path("resourceVersion"),
                    answered.path("metadata").path("resourceVersion"));
        }

        @Test
        void putScaleWithoutResourceVersionIsUnconditional() {
            ObjectNode o = createDeployment();
            String name = o.path("metadata").path("name").asText();
            ObjectNode answered =
                    api.put(
                                    path(o) + "/scale",
                                    json(
                                            "{'apiVersion':'autoscaling/v1','kind':'Scale',"
                                                    + "'metadata':{'name':'"
                                                    + name
                                                    + "','namespace':'default'},'spec':{'replicas':0}}"))
                            .assertCode(200)
                            .json();
            assertEquals(0, answered.path("spec").path("replicas").asInt());
            assertEquals(0, api.get(path(o)).json().path("spec").path("replicas").asInt());
        }

        @Test
        void putScaleWithStaleResourceVersionIsConflict() {
            ObjectNode o = createDeployment();
            String name = o.path("metadata").path("name").asText();
            ObjectNode scale = api.get(path(o) + "/scale").json();
            api.patch(
                            path(o),
                            "application/merge-patch+json",
                            json("{'metadata':{'labels':{'bump':'1'}}}"))
                    .assertCode(200);
            scale.withObject("spec").put("replicas", 7);
            ObjectNode s =
                    api.put(path(o) + "/scale", Json.string(scale))
                            .assertStatus(
                                    409,
                                    "Conflict",
                                    "Operation cannot be fulfilled on deployments.apps \""
                                            + name
                                            + "\": the object has been modified; "
                                            + "please apply your changes to the latest version and try again");
            assertDetails(s, name, "apps", "deployments");
            assertEquals(2, api.get(path(o)).json().path("spec").path("replicas").asInt());
        }

        @Test
        void mergePatchOfScaleChangesReplicas() {
            ObjectNode o = createDeployment();
            ObjectNode answered =
                    api.patch(
                                    path(o) + "/scale",
                                    "application/merge-patch+json",
                                    json("{'spec':{'replicas':3}}"))
                            .assertCode(200)
                            .json();
            assertEquals("Scale", answered.path("kind").asText());
            assertEquals(3, answered.path("spec").path("replicas").asInt());
            assertEquals(3, api.get(path(o)).json().path("spec").path("replicas").asInt());
        }

        @Test
        void jsonPatchOfScaleChangesReplicas() {
            ObjectNode o = createDeployment();
            ObjectNode answered =
                    api.patch(
                                    path(o) + "/scale",
                                    "application/json-patch+json",
                                    json("[{'op':'replace','path':'/spec/replicas','value':6}]"))
                            .assertCode(200)
                            .json();
            assertEquals(6, answered.path("spec").path("replicas").asInt());
        }

        @Test
        void negativeReplicasThroughPutAreInvalid() {
            ObjectNode o = createDeployment();
            String name = o.path("metadata").path("name").asText();
            ObjectNode scale = api.get(path(o) + "/scale").json();
            scale.withObject("spec").put("replicas", -1);
            assertNegativeReplicasRejected(api.put(path(o) + "/scale", Json.string(scale)), name);
            assertEquals(2, api.get(path(o)).json().path("spec").path("replicas").asInt());
        }

        @Test
        void negativeReplicasThroughPatchAreInvalid() {
            ObjectNode o = createDeployment();
            String name = o.path("metadata").path("name").asText();
            assertNegativeReplicasRejected(
                    api.patch(
                            path(o) + "/scale",
                            "application/merge-patch+json",
                            json("{'spec':{'replicas':-1}}")),
                    name);
        }

        private void assertNegativeReplicasRejected(Response r, String name) {
            ObjectNode s =
                    r.assertStatus(
                            422,
                            "Invalid",
                            "Scale.autoscaling \""
                                    + name
                                    + "\" is invalid: "
                                    + "spec.replicas: Invalid value: -1: must be greater than or equal to 0");
            assertDetails(s, name, "autoscaling", "Scale");
            JsonNode cause = s.path("details").path("causes").path(0);
            assertEquals("FieldValueInvalid", cause.path("reason").asText());
            assertEquals("spec.replicas", cause.path("field").asText());
            assertEquals(
                    "Invalid value: -1: must be greater than or equal to 0",
                    cause.path("message").asText());
        }

        @Test
        void scaleOfMissingDeploymentIsNotFound() {
            api.get(DEPLOYMENTS + "/absent/scale")
                    .assertStatus(404, "NotFound", "deployments.apps \"absent\" not found");
            api.put(
                            DEPLOYMENTS + "/absent/scale",
                            json(
                                    "{'apiVersion':'autoscaling/v1','kind':'Scale',"
                                            + "'metadata':{'name':'absent'},'spec':{'replicas':1}}"))
                    .assertStatus(404, "NotFound", "deployments.apps \"absent\" not found");
        }

        @Test
        void scaleOfKindWithoutScaleIsNotFound() {
            api.create(
                    "/api/v1/namespaces/default/configmaps",
                    json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'no-scale'}}"));
            api.get("/api/v1/namespaces/default/configmaps/no-scale/scale")
                    .assertStatus(
                            404, "NotFound", "the server could not find the requested resource");
        }
    }
}
