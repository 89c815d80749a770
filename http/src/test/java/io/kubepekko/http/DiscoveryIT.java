package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Named.named;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The documents clients read before anything else: {@code /version}, discovery in its aggregated
 * (v2, v2beta1) and legacy forms with the exact Content-Type clients parse, ETags, group-version
 * resource lists and OpenAPI v3.
 */
class DiscoveryIT {

    private static final String V2 =
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    private static final String V2BETA1 =
            "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";

    /** What kubectl 1.35 sends for /api and /apis. */
    private static final String KUBECTL = V2 + "," + V2BETA1 + ",application/json";

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static Map<String, String> aggregatedParams(String version) {
        return Map.of("g", "apidiscovery.k8s.io", "v", version, "as", "APIGroupDiscoveryList");
    }

    @Test
    void versionHasSemanticGitVersion() {
        Response r = api.get("/version", "application/json, */*").assertCode(200);
        assertEquals("application/json", r.mediaType());
        ObjectNode v = r.json();
        assertTrue(
                v.path("gitVersion").asText().matches("v\\d+\\.\\d+\\.\\d+([-+].*)?"),
                () -> "gitVersion: " + v);
        assertEquals("1", v.path("major").asText());
        assertTrue(v.path("minor").asText().matches("\\d+\\+?"), () -> "minor: " + v);
        assertTrue(
                v.path("gitVersion")
                        .asText()
                        .startsWith("v1." + v.path("minor").asText().replace("+", "") + "."));
        for (String f :
                List.of(
                        "gitCommit",
                        "gitTreeState",
                        "buildDate",
                        "goVersion",
                        "compiler",
                        "platform")) {
            assertTrue(v.hasNonNull(f), () -> "missing " + f + ": " + v);
        }
    }

    static Stream<Arguments> discoveryAccepts() {
        return Stream.of(
                Arguments.of(named("v2", V2), "v2"),
                Arguments.of(named("v2beta1", V2BETA1), "v2beta1"),
                Arguments.of(named("kubectl's list", KUBECTL), "v2"),
                Arguments.of(
                        named(
                                "v2 with parameters reordered",
                                "application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io"),
                        "v2"),
                Arguments.of(
                        named(
                                "v3 then v2beta1",
                                "application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,"
                                        + V2BETA1),
                        "v2beta1"),
                Arguments.of(named("legacy", "application/json"), null),
                Arguments.of(named("legacy with fallback", "application/json, */*"), null),
                Arguments.of(named("no Accept", ""), null));
    }

    @ParameterizedTest(name = "/api {0}")
    @MethodSource("discoveryAccepts")
    void apiIsServedInTheNegotiatedFormWithExactContentType(
            String accept, String aggregatedVersion) {
        Response r = discovery("/api", accept);
        ObjectNode body = r.json();
        if (aggregatedVersion == null) {
            assertEquals(
                    Map.of(), r.mediaTypeParams(), "legacy discovery is plain application/json");
            assertEquals("APIVersions", body.path("kind").asText());
            assertEquals("v1", body.path("versions").path(0).asText());
            assertTrue(body.path("serverAddressByClientCIDRs").isArray());
        } else {
            assertEquals(aggregatedParams(aggregatedVersion), r.mediaTypeParams());
            assertEquals("APIGroupDiscoveryList", body.path("kind").asText());
            assertEquals(
                    "apidiscovery.k8s.io/" + aggregatedVersion, body.path("apiVersion").asText());
            JsonNode configMaps =
                    resource(body, "", "v1", "configmaps")
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    "configmaps missing from /api: " + body));
            assertEquals("ConfigMap", configMaps.path("responseKind").path("kind").asText());
            assertEquals("v1", configMaps.path("responseKind").path("version").asText());
            assertEquals("", configMaps.path("responseKind").path("group").asText());
            assertEquals("Namespaced", configMaps.path("scope").asText());
            assertEquals(
                    "Cluster",
                    resource(body, "", "v1", "namespaces").orElseThrow().path("scope").asText());
        }
    }

    @ParameterizedTest(name = "/apis {0}")
    @MethodSource("discoveryAccepts")
    void apisIsServedInTheNegotiatedFormWithExactContentType(
            String accept, String aggregatedVersion) {
        Response r = discovery("/apis", accept);
        ObjectNode body = r.json();
        if (aggregatedVersion == null) {
            assertEquals(Map.of(), r.mediaTypeParams());
            assertEquals("APIGroupList", body.path("kind").asText());
            JsonNode apps =
                    group(body.path("groups"), "apps")
                            .orElseThrow(() -> new AssertionError("no apps: " + body));
            assertEquals("apps/v1", apps.path("preferredVersion").path("groupVersion").asText());
            assertTrue(
                    group(body.path("groups"), "").isEmpty(),
                    "the core group is served at /api, not /apis");
        } else {
            assertEquals(aggregatedParams(aggregatedVersion), r.mediaTypeParams());
            assertEquals(
                    "apidiscovery.k8s.io/" + aggregatedVersion, body.path("apiVersion").asText());
            JsonNode deployments =
                    resource(body, "apps", "v1", "deployments")
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    "deployments missing from /apis: " + body));
            JsonNode scale =
                    subresource(deployments, "scale")
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    "deployments/scale missing: " + deployments));
            assertEquals("autoscaling", scale.path("responseKind").path("group").asText());
            assertEquals("v1", scale.path("responseKind").path("version").asText());
            assertEquals("Scale", scale.path("responseKind").path("kind").asText());
            assertTrue(subresource(deployments, "status").isPresent());
        }
    }

    private static Response discovery(String path, String accept) {
        TestApiServer.Call call = api.call("GET", path);
        if (!accept.isEmpty()) {
            call.header("Accept", accept);
        }
        Response r = call.send().assertCode(200);
        assertEquals("application/json", r.mediaType());
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/api", "/apis"})
    void unservableAggregatedVersionAloneIsNotAcceptable(String path) {
        api.get(path, "application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList")
                .assertCode(406);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("etagDocuments")
    void matchingIfNoneMatchAnswersNotModified(String path, String accept) {
        Response first = etagCall(path, accept).send().assertCode(200);
        String etag =
                first.header("ETag").orElseThrow(() -> new AssertionError("no ETag on " + path));
        assertTrue(etag.matches("\"[^\"]+\""), () -> "a strong, quoted ETag: " + etag);
        Response again = etagCall(path, accept).header("If-None-Match", etag).send();
        again.assertCode(304);
        assertEquals(0, again.body().length, "304 has no body");
        assertEquals(etag, again.header("ETag").orElse(null));
        Response stale = etagCall(path, accept).header("If-None-Match", "\"stale\"").send();
        stale.assertCode(200);
        assertEquals(first.json(), stale.json());
    }

    /**
     * A GET of a document with an ETag. The legacy {@code /api} names the server answering it
     * ({@code serverAddressByClientCIDRs}, as each kube-apiserver advertises its own address), so
     * on a cluster its ETag differs per node: its requests all go to one node; every other document
     * is the same on every node, so its requests take turns and an ETag from one node is matched by
     * another.
     */
    private static TestApiServer.Call etagCall(String path, String accept) {
        TestApiServer.Call call = api.call("GET", path).header("Accept", accept);
        return path.equals("/api") && accept.equals("application/json")
                ? call.on(api.server())
                : call;
    }

    static Stream<Arguments> etagDocuments() {
        return Stream.of(
                Arguments.of("/api", V2),
                Arguments.of("/apis", V2),
                Arguments.of("/api", "application/json"),
                Arguments.of("/apis", "application/json"),
                Arguments.of("/api/v1", "application/json"),
                Arguments.of("/apis/apps/v1", "application/json"),
                Arguments.of("/openapi/v3", "application/json"),
                Arguments.of("/openapi/v3/api/v1", "application/json"));
    }

    @Test
    void aggregatedAndLegacyDocumentsHaveDifferentEtagsAndVaryOnAccept() {
        Response v2 = api.get("/apis", V2).assertCode(200);
        Response legacy = api.get("/apis", "application/json").assertCode(200);
        assertNotEquals(v2.header("ETag"), legacy.header("ETag"));
        assertEquals("Accept", v2.header("Vary").orElse(null));
        Response crossed =
                api.call("GET", "/apis")
                        .header("Accept", "application/json")
                        .header("If-None-Match", v2.header("ETag").orElseThrow())
                        .send();
        crossed.assertCode(200);
        assertEquals("APIGroupList", crossed.json().path("kind").asText());
    }

    @Test
    void coreResourceListNamesEveryResource() {
        ObjectNode list = api.get("/api/v1").assertCode(200).json();
        assertEquals("APIResourceList", list.path("kind").asText());
        assertEquals("v1", list.path("groupVersion").asText());
        JsonNode cm =
                entry(list, "configmaps")
                        .orElseThrow(() -> new AssertionError("no configmaps: " + list));
        assertEquals("ConfigMap", cm.path("kind").asText());
        assertEquals("configmap", cm.path("singularName").asText());
        assertTrue(cm.path("namespaced").asBoolean());
        assertEquals(
                List.of(
                        "create",
                        "delete",
                        "deletecollection",
                        "get",
                        "list",
                        "patch",
                        "update",
                        "watch"),
                sorted(cm.path("verbs")));
        assertEquals(List.of("cm"), sorted(cm.path("shortNames")));
        JsonNode ns = entry(list, "namespaces").orElseThrow();
        assertFalse(ns.path("namespaced").asBoolean());
        assertFalse(sorted(ns.path("verbs")).contains("deletecollection"));
    }

    @Test
    void appsResourceListIncludesSubresources() {
        ObjectNode list = api.get("/apis/apps/v1").assertCode(200).json();
        assertEquals("APIResourceList", list.path("kind").asText());
        assertEquals("apps/v1", list.path("groupVersion").asText());
        assertEquals("Deployment", entry(list, "deployments").orElseThrow().path("kind").asText());
        JsonNode scale =
                entry(list, "deployments/scale")
                        .orElseThrow(() -> new AssertionError("no scale: " + list));
        assertEquals("autoscaling", scale.path("group").asText());
        assertEquals("v1", scale.path("version").asText());
        assertEquals("Scale", scale.path("kind").asText());
        assertEquals(List.of("get", "patch", "update"), sorted(scale.path("verbs")));
        assertEquals(
                List.of("get", "patch", "update"),
                sorted(entry(list, "deployments/status").orElseThrow().path("verbs")));
    }

    @Test
    void groupDocumentNamesItsVersions() {
        ObjectNode g = api.get("/apis/apps").assertCode(200).json();
        assertEquals("APIGroup", g.path("kind").asText());
        assertEquals("apps", g.path("name").asText());
        assertEquals("apps/v1", g.path("preferredVersion").path("groupVersion").asText());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/api/v2",
                "/apis/apps/v2",
                "/apis/nope.example.com/v1",
                "/apis/nope.example.com"
            })
    void unknownGroupVersionIsNotFound(String path) {
        api.get(path).assertCode(404);
    }

    @Test
    void openApiRootLinksEveryGroupVersionByHash() {
        ObjectNode root = api.get("/openapi/v3").assertCode(200).json();
        JsonNode paths = root.path("paths");
        for (String gv : List.of("api/v1", "apis/apps/v1", "apis/rbac.authorization.k8s.io/v1")) {
            String url = paths.path(gv).path("serverRelativeURL").asText();
            assertTrue(url.startsWith("/openapi/v3/" + gv + "?hash="), () -> gv + " -> " + url);
        }
    }

    @Test
    void openApiGroupVersionDocumentDeclaresPatchableKinds() {
        String url =
                api.get("/openapi/v3")
                        .json()
                        .path("paths")
                        .path("api/v1")
                        .path("serverRelativeURL")
                        .asText();
        Response r = api.get(url, "application/json").assertCode(200);
        assertEquals("application/json", r.mediaType());
        ObjectNode doc = r.json();
        assertTrue(
                doc.path("openapi").asText().startsWith("3."),
                () -> "openapi version: " + doc.path("openapi"));
        boolean configMapPatch = false;
        for (JsonNode op : doc.path("paths")) {
            JsonNode gvk = op.path("patch").path("x-kubernetes-group-version-kind");
            if (gvk.path("kind").asText().equals("ConfigMap")
                    && gvk.path("version").asText().equals("v1")
                    && gvk.path("group").asText("x").isEmpty()) {
                configMapPatch = true;
            }
        }
        assertTrue(
                configMapPatch,
                "a patch operation carries the ConfigMap group-version-kind object");
        assertTrue(doc.path("components").path("schemas").size() > 0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
                "application/json"
            })
    void openApiV2IsNotServed(String accept) {
        api.get("/openapi/v2", accept).assertCode(404);
    }

    private static Optional<JsonNode> resource(
            JsonNode aggregated, String group, String version, String resource) {
        for (JsonNode g : aggregated.path("items")) {
            if (!g.path("metadata").path("name").asText("").equals(group)) {
                continue;
            }
            for (JsonNode v : g.path("versions")) {
                if (v.path("version").asText().equals(version)) {
                    for (JsonNode r : v.path("resources")) {
                        if (r.path("resource").asText().equals(resource)) {
                            return Optional.of(r);
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> subresource(JsonNode resource, String name) {
        for (JsonNode s : resource.path("subresources")) {
            if (s.path("subresource").asText().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> group(JsonNode groups, String name) {
        for (JsonNode g : groups) {
            if (g.path("name").asText().equals(name)) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> entry(JsonNode resourceList, String name) {
        for (JsonNode r : resourceList.path("resources")) {
            if (r.path("name").asText().equals(name)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    private static List<String> sorted(JsonNode strings) {
        List<String> out = new ArrayList<>();
        strings.forEach(s -> out.add(s.asText()));
        out.sort(null);
        return out;
    }
}
