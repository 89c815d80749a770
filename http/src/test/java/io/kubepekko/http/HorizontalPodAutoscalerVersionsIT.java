package io.kubepekko.http;

import static io.kubepekko.http.DiscoveryDocuments.aggregatedGroup;
import static io.kubepekko.http.DiscoveryDocuments.resource;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * HorizontalPodAutoscalers served as autoscaling/v2 (storage) and autoscaling/v1 over it: created
 * in one version and read, listed, watched, patched and applied in the other, v1's annotations
 * carrying what it cannot hold and never reaching v2, kube's validation, discovery with v2
 * preferred, OpenAPI for both versions, kube's Table columns and protobuf in both versions.
 */
class HorizontalPodAutoscalerVersionsIT {

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    private static final String METRICS = "autoscaling.alpha.kubernetes.io/metrics";
    private static final GroupVersionKind HPA_V1 =
            new GroupVersionKind("autoscaling", "v1", "HorizontalPodAutoscaler");
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String newNamespace() {
        String ns = "hpa-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String v2(String ns) {
        return "/apis/autoscaling/v2/namespaces/" + ns + "/horizontalpodautoscalers";
    }

    private static String v1(String ns) {
        return "/apis/autoscaling/v1/namespaces/" + ns + "/horizontalpodautoscalers";
    }

    private static String newV2(String name) {
        return json(
                "{'apiVersion':'autoscaling/v2','kind':'HorizontalPodAutoscaler','metadata':{'name':'"
                        + name
                        + "'},'spec':{'scaleTargetRef':{'apiVersion':'apps/v1','kind':'Deployment',"
                        + "'name':'web'},'maxReplicas':5,'metrics':["
                        + "{'type':'Resource','resource':{'name':'memory','target':{'type':'AverageValue',"
                        + "'averageValue':'1Gi'}}},"
                        + "{'type':'Resource','resource':{'name':'cpu','target':{'type':'Utilization',"
                        + "'averageUtilization':60}}}]}}");
    }

    private static String newV1(String name) {
        return json(
                "{'apiVersion':'autoscaling/v1','kind':'HorizontalPodAutoscaler','metadata':{'name':'"
                        + name
                        + "'},'spec':{'scaleTargetRef':{'apiVersion':'apps/v1','kind':'Deployment',"
                        + "'name':'web'},'maxReplicas':4,'targetCPUUtilizationPercentage':70}}");
    }

    @Test
    void aV2ObjectReadsThroughV1WithKubesAnnotationsAndBack() {
        String ns = newNamespace();
        ObjectNode created = api.create(v2(ns), newV2("h1"));
        assertEquals(1, created.at("/spec/minReplicas").asInt());
        assertFalse(created.at("/metadata").has("generation"));
        assertEquals(0, created.at("/status/desiredReplicas").asInt());

        ObjectNode asV1 = api.get(v1(ns) + "/h1").assertCode(200).json();
        assertEquals("autoscaling/v1", asV1.get("apiVersion").asText());
        assertEquals(60, asV1.at("/spec/targetCPUUtilizationPercentage").asInt());
        assertFalse(asV1.get("spec").has("metrics"));
        assertEquals(
                "[{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"targetAverageValue\":\"1Gi\"}}]",
                asV1.at("/metadata/annotations").get(METRICS).asText());
        assertEquals(created.at("/metadata/resourceVersion"), asV1.at("/metadata/resourceVersion"));

        ObjectNode again = api.get(v2(ns) + "/h1").assertCode(200).json();
        assertEquals(created, again);
        assertFalse(again.get("metadata").has("annotations"));

        ObjectNode list = api.get(v1(ns)).assertCode(200).json();
        assertEquals("HorizontalPodAutoscalerList", list.get("kind").asText());
        assertEquals("autoscaling/v1", list.get("apiVersion").asText());
        assertEquals(asV1, list.at("/items/0"));
    }

    @Test
    void aV1UpdateOfWhatItReadKeepsTheV2Metrics() {
        String ns = newNamespace();
        api.create(v2(ns), newV2("h2"));
        ObjectNode asV1 = api.get(v1(ns) + "/h2").assertCode(200).json();
        ((ObjectNode) asV1.get("spec")).put("targetCPUUtilizationPercentage", 40);
        ObjectNode updated = api.put(v1(ns) + "/h2", asV1.toString()).assertCode(200).json();
        assertEquals(40, updated.at("/spec/targetCPUUtilizationPercentage").asInt());
        ObjectNode stored = api.get(v2(ns) + "/h2").assertCode(200).json();
        JsonNode metrics = stored.at("/spec/metrics");
        assertEquals(2, metrics.size(), metrics::toString);
        assertEquals("memory", metrics.at("/0/resource/name").asText());
        assertEquals(40, metrics.at("/1/resource/target/averageUtilization").asInt());
        assertFalse(stored.get("metadata").has("annotations"), stored::toString);
    }

    @Test
    void aV1ObjectIsStoredAsV2AndPatchedThroughV1() {
        String ns = newNamespace();
        ObjectNode created = api.create(v1(ns), newV1("h3"));
        assertEquals("autoscaling/v1", created.get("apiVersion").asText());
        assertEquals(70, created.at("/spec/targetCPUUtilizationPercentage").asInt());
        assertEquals(1, created.at("/spec/minReplicas").asInt());
        ObjectNode stored = api.get(v2(ns) + "/h3").assertCode(200).json();
        assertEquals("cpu", stored.at("/spec/metrics/0/resource/name").asText(), stored::toString);
        assertEquals(70, stored.at("/spec/metrics/0/resource/target/averageUtilization").asInt());

        for (String type :
                List.of("application/merge-patch+json", "application/strategic-merge-patch+json")) {
            api.patch(v1(ns) + "/h3", type, json("{'spec':{'maxReplicas':7}}")).assertCode(200);
        }
        api.patch(
                        v1(ns) + "/h3",
                        "application/json-patch+json",
                        json("[{'op':'replace','path':'/spec/minReplicas','value':2}]"))
                .assertCode(200);
        ObjectNode patched = api.get(v2(ns) + "/h3").assertCode(200).json();
        assertEquals(7, patched.at("/spec/maxReplicas").asInt());
        assertEquals(2, patched.at("/spec/minReplicas").asInt());
        assertEquals(70, patched.at("/spec/metrics/0/resource/target/averageUtilization").asInt());
    }

    @Test
    void aStatusWrittenInV2IsAV1StatusWithItsRestInAnnotationsAndBack() {
        String ns = newNamespace();
        api.create(v2(ns), newV2("s1"));
        ObjectNode current = api.get(v2(ns) + "/s1").assertCode(200).json();
        current.set(
                "status",
                TestApiServer.obj(
                        "{'currentReplicas':2,'desiredReplicas':3,'currentMetrics':[{'type':'Resource',"
                                + "'resource':{'name':'cpu','current':{'averageValue':'250m',"
                                + "'averageUtilization':45}}}],'conditions':[{'type':'AbleToScale',"
                                + "'status':'True','lastTransitionTime':'2026-11-29T22:00:00Z',"
                                + "'reason':'ReadyForNewScale'}]}"));
        api.put(v2(ns) + "/s1/status", current.toString()).assertCode(200);

        ObjectNode asV1 = api.get(v1(ns) + "/s1").assertCode(200).json();
        assertEquals(45, asV1.at("/status/currentCPUUtilizationPercentage").asInt());
        assertEquals(2, asV1.at("/status/currentReplicas").asInt());
        assertTrue(
                asV1.at("/metadata/annotations").has("autoscaling.alpha.kubernetes.io/conditions"),
                asV1::toString);
        // A v1 status write of what it read keeps what only the annotations carried.
        ((ObjectNode) asV1.get("status")).put("desiredReplicas", 4);
        api.put(v1(ns) + "/s1/status", asV1.toString()).assertCode(200);
        ObjectNode stored = api.get(v2(ns) + "/s1").assertCode(200).json();
        assertEquals(4, stored.at("/status/desiredReplicas").asInt());
        assertEquals("ReadyForNewScale", stored.at("/status/conditions/0/reason").asText());
        assertEquals(
                "250m",
                stored.at("/status/currentMetrics/0/resource/current/averageValue").asText());
        assertFalse(stored.get("metadata").has("annotations"), stored::toString);
    }

    @Test
    void fieldSelectorsAreTheMetadataOnesInBothVersions() {
        String ns = newNamespace();
        api.create(v2(ns), newV2("f1"));
        api.create(v1(ns), newV1("f2"));
        ObjectNode selected =
                api.get(v1(ns) + "?fieldSelector=metadata.name%3Df1").assertCode(200).json();
        assertEquals(List.of("f1"), TestApiServer.itemNames(selected));
        // autoscaling registers no field label conversion: kube's default answer, in both.
        for (String path : List.of(v1(ns), v2(ns))) {
            api.get(path + "?fieldSelector=spec.maxReplicas%3D5")
                    .assertStatus(
                            400,
                            "BadRequest",
                            "\"spec.maxReplicas\" is not a known field selector: only"
                                    + " \"metadata.name\", \"metadata.namespace\"");
        }
    }

    @Test
    void serverSideApplyThroughV1RecordsItsManagerInV1() {
        String ns = newNamespace();
        ObjectNode applied =
                api.call("PATCH", v1(ns) + "/h4?fieldManager=applier")
                        .body("application/apply-patch+yaml", newV1("h4"))
                        .send()
                        .assertCode(201)
                        .json();
        JsonNode entry = applied.at("/metadata/managedFields/0");
        assertEquals("Apply", entry.get("operation").asText());
        assertEquals("autoscaling/v1", entry.get("apiVersion").asText());
        assertTrue(
                entry.at("/fieldsV1/f:spec/f:targetCPUUtilizationPercentage").isObject(),
                entry::toString);
        // The v2 view lists the same manager, still in its version.
        ObjectNode stored = api.get(v2(ns) + "/h4").assertCode(200).json();
        assertEquals("autoscaling/v1", stored.at("/metadata/managedFields/0/apiVersion").asText());
        // A v2 apply of the same field by another manager conflicts with it.
        api.call("PATCH", v2(ns) + "/h4?fieldManager=other")
                .body(
                        "application/apply-patch+yaml",
                        json(
                                "{'apiVersion':'autoscaling/v2','kind':'HorizontalPodAutoscaler',"
                                        + "'metadata':{'name':'h4'},'spec':{'maxReplicas':9}}"))
                .send()
                .assertStatusMessageStartsWith(409, "Conflict", "Apply failed with 1 conflict");
    }

    @Test
    void aWatchInOneVersionSeesWritesThroughTheOther() {
        String ns = newNamespace();
        try (WatchClient inV1 = WatchClient.open(api.url(), v1(ns) + "?watch=true");
                WatchClient inV2 = WatchClient.open(api.url(), v2(ns) + "?watch=true")) {
            assertEquals(200, inV1.code());
            assertEquals(200, inV2.code());
            api.create(v2(ns), newV2("w1"));
            api.create(v1(ns), newV1("w2"));
            ObjectNode first = inV1.next();
            assertEquals("autoscaling/v1", first.at("/object/apiVersion").asText());
            assertEquals(60, first.at("/object/spec/targetCPUUtilizationPercentage").asInt());
            assertEquals("w2", inV1.next().at("/object/metadata/name").asText());
            assertEquals("w1", inV2.next().at("/object/metadata/name").asText());
            ObjectNode second = inV2.next();
            assertEquals("autoscaling/v2", second.at("/object/apiVersion").asText());
            assertEquals(
                    70,
                    second.at("/object/spec/metrics/0/resource/target/averageUtilization").asInt());
        }
    }

    @Test
    void writesAreValidatedAsKubeDoesAndRefusalsNameTheVersionsResource() {
        String ns = newNamespace();
        ObjectNode status =
                api.post(
                                v2(ns),
                                json(
                                        "{'metadata':{'name':'bad'},'spec':{'scaleTargetRef':{'kind':'Deployment',"
                                                + "'name':'web'},'minReplicas':3,'maxReplicas':2}}"))
                        .assertFailure(422, "Invalid");
        assertEquals(
                "HorizontalPodAutoscaler.autoscaling \"bad\" is invalid: [spec.maxReplicas: Invalid"
                        + " value: 2: must be greater than or equal to `minReplicas`,"
                        + " spec.scaleTargetRef.apiVersion: Invalid value: \"\": apiVersion must"
                        + " specify API group]",
                status.get("message").asText());
        api.get(v1(ns) + "/nope")
                .assertStatus(
                        404, "NotFound", "horizontalpodautoscalers.autoscaling \"nope\" not found");
    }

    @Test
    void discoveryPrefersV2ThenV1() {
        ObjectNode groups = api.get("/apis", "application/json").assertCode(200).json();
        JsonNode autoscaling = null;
        List<String> order = new ArrayList<>();
        for (JsonNode g : groups.get("groups")) {
            order.add(g.get("name").asText());
            if (g.get("name").asText().equals("autoscaling")) {
                autoscaling = g;
            }
        }
        assertEquals(
                order.indexOf("authorization.k8s.io") + 1,
                order.indexOf("autoscaling"),
                order::toString);
        assertEquals("autoscaling/v2", autoscaling.at("/preferredVersion/groupVersion").asText());
        assertEquals("autoscaling/v2", autoscaling.at("/versions/0/groupVersion").asText());
        assertEquals("autoscaling/v1", autoscaling.at("/versions/1/groupVersion").asText());
        for (String version : List.of("v1", "v2")) {
            JsonNode hpa =
                    resource(
                            api.get("/apis/autoscaling/" + version).assertCode(200).json(),
                            "horizontalpodautoscalers");
            assertEquals("[\"hpa\"]", hpa.get("shortNames").toString());
            assertEquals("[\"all\"]", hpa.get("categories").toString());
            resource(
                    api.get("/apis/autoscaling/" + version).assertCode(200).json(),
                    "horizontalpodautoscalers/status");
        }
        JsonNode group = aggregatedGroup(api, "autoscaling");
        assertEquals("v2", group.at("/versions/0/version").asText());
        assertEquals("v1", group.at("/versions/1/version").asText());
    }

    @Test
    void openApiV3DescribesBothVersions() {
        for (String version : List.of("v1", "v2")) {
            ObjectNode doc =
                    api.get("/openapi/v3/apis/autoscaling/" + version).assertCode(200).json();
            JsonNode hpa =
                    doc.at(
                            "/components/schemas/io.k8s.api.autoscaling."
                                    + version
                                    + ".HorizontalPodAutoscaler");
            assertTrue(hpa.isObject(), () -> doc.get("components").toString());
            assertTrue(
                    doc.at("/paths")
                            .has(
                                    "/apis/autoscaling/"
                                            + version
                                            + "/namespaces/{namespace}/horizontalpodautoscalers"),
                    () -> doc.get("paths").toString());
        }
        ObjectNode v1 = api.get("/openapi/v3/apis/autoscaling/v1").assertCode(200).json();
        assertTrue(
                v1.at(
                                "/components/schemas/io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerSpec"
                                        + "/properties/targetCPUUtilizationPercentage")
                        .isObject());
    }

    @Test
    void tablesHaveKubesColumnsInBothVersions() {
        String ns = newNamespace();
        api.create(v2(ns), newV2("t1"));
        String table = "application/json;as=Table;g=meta.k8s.io;v=v1";
        ObjectNode inV2 = api.get(v2(ns), table).assertCode(200).json();
        ObjectNode inV1 = api.get(v1(ns), table).assertCode(200).json();
        assertEquals(inV2.get("columnDefinitions"), inV1.get("columnDefinitions"));
        List<String> columns = new ArrayList<>();
        inV2.get("columnDefinitions").forEach(c -> columns.add(c.get("name").asText()));
        assertEquals(
                List.of("Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"),
                columns);
        assertEquals(inV2.at("/rows/0/cells"), inV1.at("/rows/0/cells"));
        assertEquals(
                "memory: <unknown>/1Gi, cpu: <unknown>/60%", inV2.at("/rows/0/cells/2").asText());
        assertEquals("Deployment/web", inV2.at("/rows/0/cells/1").asText());
    }

    @Test
    void protobufCarriesBothVersions() {
        String ns = newNamespace();
        byte[] body =
                ProtobufBodies.builtin()
                        .encode(
                                Json.parseTrusted(newV1("p1").getBytes(StandardCharsets.UTF_8)),
                                HPA_V1);
        api.call("POST", v1(ns))
                .header("Content-Type", PROTOBUF)
                .header("Accept", PROTOBUF)
                .bytes(body)
                .send()
                .assertCode(201);
        Response got = api.get(v1(ns) + "/p1", PROTOBUF).assertCode(200);
        ObjectNode decoded = ProtobufBodies.builtin().decode(got.body(), HPA_V1);
        assertEquals(70, decoded.at("/spec/targetCPUUtilizationPercentage").asInt());
        Response inV2 = api.get(v2(ns) + "/p1", PROTOBUF).assertCode(200);
        ObjectNode v2 =
                ProtobufBodies.builtin()
                        .decode(
                                inV2.body(),
                                new GroupVersionKind(
                                        "autoscaling", "v2", "HorizontalPodAutoscaler"));
        assertEquals(70, v2.at("/spec/metrics/0/resource/target/averageUtilization").asInt());
    }
}
