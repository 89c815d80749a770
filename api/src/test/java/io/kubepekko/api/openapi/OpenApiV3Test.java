package io.kubepekko.api.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.table.TablePrinter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class OpenApiV3Test {
    private static final Registry REGISTRY = Registry.builtin();
    private static final OpenApiV3 OPENAPI = OpenApiV3.of(REGISTRY);
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch");

    /**
     * The stored kinds, which have every operation; bindings (create only) are tested on their own.
     */
    static Stream<Arguments> kinds() {
        return REGISTRY.stored().stream()
                .map(t -> Arguments.of(Named.of(t.apiVersion() + " " + t.kind(), t)));
    }

    // --- what kubectl and helm check before skipping client-side validation

    @ParameterizedTest
    @MethodSource("kinds")
    void itemPathPatchCarriesGvkObjectAndFieldValidation(ResourceType t) {
        JsonNode patch = document(t).path("paths").path(itemPath(t)).path("patch");

        assertEquals(gvkJson(t.gvk()), patch.get("x-kubernetes-group-version-kind"));
        assertTrue(
                hasQueryParameter(patch, "fieldValidation"), "fieldValidation on " + itemPath(t));
    }

    /**
     * kubectl's verifier stops at the first patch operation (in map order, which is random) whose
     * GVK matches, and answers "unsupported" if that one lacks the parameter: every such operation,
     * the status subresource included, must carry it.
     */
    @ParameterizedTest
    @MethodSource("kinds")
    void everyPatchOperationOfTheKindCarriesFieldValidation(ResourceType t) {
        int matching = 0;
        for (Map.Entry<String, JsonNode> path : fields(document(t).path("paths"))) {
            JsonNode patch = path.getValue().get("patch");
            if (patch != null
                    && gvkJson(t.gvk()).equals(patch.get("x-kubernetes-group-version-kind"))) {
                matching++;
                assertTrue(hasQueryParameter(patch, "fieldValidation"), path.getKey());
            }
        }
        assertEquals(t.hasStatus() ? 2 : 1, matching);
    }

    @Test
    void rootListsEveryGroupVersionWithTheHashOfItsDocument() throws Exception {
        JsonNode root = parse(OPENAPI.root());
        Set<String> expected = new TreeSet<>();
        REGISTRY.groups()
                .forEach(
                        g ->
                                REGISTRY.versions(g)
                                        .forEach(
                                                v ->
                                                        expected.add(
                                                                g.isEmpty()
                                                                        ? "api/" + v
                                                                        : "apis/" + g + "/" + v)));

        assertEquals(expected, names(root.path("paths")));
        assertEquals(List.copyOf(expected), OPENAPI.groupVersionPaths());
        for (String gv : expected) {
            Document doc = OPENAPI.groupVersion(gv).orElseThrow();
            String sha512 =
                    HexFormat.of()
                            .withUpperCase()
                            .formatHex(MessageDigest.getInstance("SHA-512").digest(doc.json()));
            assertEquals(sha512, doc.hash());
            assertEquals(
                    "/openapi/v3/" + gv + "?hash=" + sha512,
                    root.path("paths").path(gv).path("serverRelativeURL").asText());
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "api/v1",
                "apis/apps/v1",
                "apis/batch/v1",
                "apis/rbac.authorization.k8s.io/v1"
            })
    void groupVersionDocumentHasOpenApiHeader(String gv) {
        JsonNode doc = parse(OPENAPI.groupVersion(gv).orElseThrow());

        assertEquals("3.0.0", doc.path("openapi").asText());
        assertEquals("Kubernetes", doc.path("info").path("title").asText());
        assertEquals("v1.35.0", doc.path("info").path("version").asText());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "apis/apps/v2",
                "apis/nope.example.com/v1",
                "api/v2",
                "api",
                "apis/apps",
                "",
                "/api/v1",
                "api/v1/"
            })
    void unknownGroupVersionIsEmpty(String path) {
        assertTrue(OPENAPI.groupVersion(path).isEmpty());
    }

    // --- strategic merge patch stays on kubectl's compiled-in metadata

    @Test
    void noOperationAcceptsStrategicMergePatch() {
        for (String gv : OPENAPI.groupVersionPaths()) {
            for (JsonNode op : operations(parse(OPENAPI.groupVersion(gv).orElseThrow()))) {
                assertFalse(
                        names(op.path("requestBody").path("content"))
                                .contains("application/strategic-merge-patch+json"),
                        op.path("operationId").asText());
            }
        }
    }

    @Test
    void patchOperationsAcceptApplyMergeAndJsonPatch() {
        ResourceType pods = REGISTRY.find("", "v1", "pods").orElseThrow();
        JsonNode patch = document(pods).path("paths").path(itemPath(pods)).path("patch");

        assertEquals(
                Set.of(
                        "application/apply-patch+yaml",
                        "application/json-patch+json",
                        "application/merge-patch+json"),
                names(patch.path("requestBody").path("content")));
        assertTrue(hasQueryParameter(patch, "force"));
    }

    // --- paths per scope and subresource

    @ParameterizedTest
    @MethodSource("kinds")
    void clusterScopedKindsHaveNoNamespaceParameter(ResourceType t) {
        if (t.namespaced()) {
            return;
        }
        List<Map.Entry<String, JsonNode>> paths = pathsOf(t);
        assertTrue(paths.size() >= 4, "collection, item, and two watch paths at least");
        for (Map.Entry<String, JsonNode> path : paths) {
            assertFalse(path.getKey().contains("{namespace}"), path.getKey());
            assertFalse(
                    parameterNames(path.getValue().path("parameters")).contains("namespace"),
                    path.getKey());
            for (String m : METHODS) {
                assertFalse(
                        parameterNames(path.getValue().path(m).path("parameters"))
                                .contains("namespace"));
            }
        }
        assertTrue(
                document(t)
                        .path("paths")
                        .has(t.gvk().pathPrefix() + "/" + t.resource() + "/{name}"));
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void namespacedKindsServeNamespacedAndAllNamespacesPaths(ResourceType t) {
        if (!t.namespaced()) {
            return;
        }
        JsonNode paths = document(t).path("paths");
        String prefix = t.gvk().pathPrefix();
        String collection = prefix + "/namespaces/{namespace}/" + t.resource();

        assertEquals(
                Set.of("namespace", "pretty"),
                parameterNames(paths.path(collection).path("parameters")));
        assertEquals(
                Set.of("name", "namespace", "pretty"),
                parameterNames(paths.path(collection + "/{name}").path("parameters")));
        JsonNode allNamespaces = paths.path(prefix + "/" + t.resource());
        assertEquals("list", allNamespaces.path("get").path("x-kubernetes-action").asText());
        assertFalse(parameterNames(allNamespaces.path("parameters")).contains("namespace"));
    }

    /** A pod's eviction is a POST of a policy/v1 Eviction on its /eviction path, as kube's. */
    @Test
    void aPodsEvictionIsPostedAsAPolicyV1Eviction() {
        ResourceType pods = REGISTRY.find("", "v1", "pods").orElseThrow();
        JsonNode doc = document(pods);
        JsonNode eviction =
                doc.path("paths").path("/api/v1/namespaces/{namespace}/pods/{name}/eviction");
        assertEquals(List.of("post", "parameters"), fieldNames(eviction));
        JsonNode post = eviction.path("post");
        assertEquals("createCoreV1NamespacedPodEviction", post.path("operationId").asText());
        assertEquals(
                gvkJson(new GroupVersionKind("policy", "v1", "Eviction")),
                post.path("x-kubernetes-group-version-kind"));
        assertEquals(
                "#/components/schemas/io.k8s.api.policy.v1.Eviction",
                post.path("requestBody")
                        .path("content")
                        .path("application/json")
                        .path("schema")
                        .path("$ref")
                        .asText());
        JsonNode schemas = doc.path("components").path("schemas");
        assertTrue(
                schemas.path("io.k8s.api.policy.v1.Eviction")
                        .path("properties")
                        .has("deleteOptions"));
    }

    /**
     * bindings are only created (kube's LegacyBindingREST): one POST on the collection, no item
     * path and no list type; a pod's binding is a POST on its /binding path.
     */
    @Test
    void bindingsAreOnlyPostedToTheCollectionAndToAPodsBinding() {
        ResourceType bindings = REGISTRY.find("", "v1", "bindings").orElseThrow();
        JsonNode doc = document(bindings);
        JsonNode paths = doc.path("paths");
        JsonNode collection = paths.path("/api/v1/namespaces/{namespace}/bindings");
        assertEquals(List.of("post", "parameters"), fieldNames(collection));
        assertEquals(
                "createCoreV1NamespacedBinding",
                collection.path("post").path("operationId").asText());
        assertEquals(
                gvkJson(bindings.gvk()),
                collection.path("post").path("x-kubernetes-group-version-kind"));
        assertFalse(paths.has("/api/v1/namespaces/{namespace}/bindings/{name}"));
        assertFalse(paths.has("/api/v1/bindings"));
        assertFalse(paths.has("/api/v1/watch/namespaces/{namespace}/bindings"));
        JsonNode schemas = doc.path("components").path("schemas");
        assertTrue(schemas.has("io.k8s.api.core.v1.Binding"));
        assertTrue(schemas.path("io.k8s.api.core.v1.Binding").path("properties").has("target"));
        assertFalse(schemas.has("io.k8s.api.core.v1.BindingList"));

        JsonNode podBinding = paths.path("/api/v1/namespaces/{namespace}/pods/{name}/binding");
        assertEquals(List.of("post", "parameters"), fieldNames(podBinding));
        assertEquals(
                "createCoreV1NamespacedPodBinding",
                podBinding.path("post").path("operationId").asText());
        assertEquals(
                gvkJson(bindings.gvk()),
                podBinding.path("post").path("x-kubernetes-group-version-kind"));
        assertEquals(
                "#/components/schemas/io.k8s.api.core.v1.Binding",
                podBinding
                        .path("post")
                        .path("requestBody")
                        .path("content")
                        .path("application/json")
                        .path("schema")
                        .path("$ref")
                        .asText());
        assertTrue(hasQueryParameter(podBinding.path("post"), "dryRun"));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @ParameterizedTest
    @MethodSource("kinds")
    void statusAndScalePathsExistExactlyWhereTheRegistrySays(ResourceType t) {
        JsonNode paths = document(t).path("paths");
        JsonNode status = paths.path(itemPath(t) + "/status");
        JsonNode scale = paths.path(itemPath(t) + "/scale");

        assertEquals(t.hasStatus(), !status.isMissingNode());
        assertEquals(t.hasScale(), !scale.isMissingNode());
        if (t.hasStatus()) {
            assertEquals(Set.of("get", "put", "patch", "parameters"), names(status));
            assertEquals(
                    gvkJson(t.gvk()), status.path("put").get("x-kubernetes-group-version-kind"));
        }
        if (t.hasScale()) {
            assertEquals(
                    gvkJson(new GroupVersionKind("autoscaling", "v1", "Scale")),
                    scale.path("patch").get("x-kubernetes-group-version-kind"));
            assertEquals(
                    "#/components/schemas/io.k8s.api.autoscaling.v1.Scale",
                    scale.path("get")
                            .path("responses")
                            .path("200")
                            .path("content")
                            .path("application/json")
                            .path("schema")
                            .path("$ref")
                            .asText());
        }
    }

    @Test
    void operationsFollowTheVerbsOfTheKind() {
        ResourceType namespaces = REGISTRY.find("", "v1", "namespaces").orElseThrow();
        JsonNode collection = document(namespaces).path("paths").path("/api/v1/namespaces");

        assertFalse(namespaces.supports("deletecollection"));
        assertEquals(Set.of("get", "post", "parameters"), names(collection));
    }

    @ParameterizedTest(name = "{0} {1} → {2}")
    @CsvSource({
        "get,    /api/v1/namespaces/{namespace}/pods/{name},                          readCoreV1NamespacedPod,             get",
        "get,    /api/v1/namespaces/{namespace}/pods,                                 listCoreV1NamespacedPod,             list",
        "get,    /api/v1/pods,                                                        listCoreV1PodForAllNamespaces,       list",
        "post,   /api/v1/namespaces/{namespace}/pods,                                 createCoreV1NamespacedPod,           create",
        "put,    /api/v1/namespaces/{namespace}/pods/{name},                          replaceCoreV1NamespacedPod,          update",
        "patch,  /api/v1/namespaces/{namespace}/pods/{name},                          patchCoreV1NamespacedPod,            patch",
        "delete, /api/v1/namespaces/{namespace}/pods/{name},                          deleteCoreV1NamespacedPod,           delete",
        "delete, /api/v1/namespaces/{namespace}/pods,                                 deleteCoreV1CollectionNamespacedPod, deletecollection",
        "patch,  /api/v1/namespaces/{namespace}/pods/{name}/status,                   patchCoreV1NamespacedPodStatus,      patch",
        "get,    /api/v1/watch/namespaces/{namespace}/pods,                           watchCoreV1NamespacedPodList,        watchlist",
        "get,    /api/v1/watch/namespaces/{namespace}/pods/{name},                    watchCoreV1NamespacedPod,            watch",
        "get,    /api/v1/watch/pods,                                                  watchCoreV1PodListForAllNamespaces,  watchlist",
        "delete, /api/v1/namespaces/{name},                                           deleteCoreV1Namespace,               delete",
        "delete, /api/v1/nodes,                                                       deleteCoreV1CollectionNode,          deletecollection",
        "get,    /apis/apps/v1/namespaces/{namespace}/deployments,                    listAppsV1NamespacedDeployment,      list",
        "patch,  /apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale,       patchAppsV1NamespacedDeploymentScale, patch",
        "get,    /apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/scale,      readAppsV1NamespacedStatefulSetScale, get",
        "get,    /apis/rbac.authorization.k8s.io/v1/clusterroles/{name},              readRbacAuthorizationV1ClusterRole,  get",
        "post,   /apis/networking.k8s.io/v1/namespaces/{namespace}/ingresses,         createNetworkingV1NamespacedIngress, create",
    })
    void operationIdsAndActionsFollowKubernetes(
            String method, String path, String operationId, String action) {
        JsonNode op =
                OPENAPI.groupVersion(groupVersionOf(path))
                        .map(OpenApiV3Test::parse)
                        .orElseThrow()
                        .path("paths")
                        .path(path)
                        .path(method);

        assertEquals(operationId, op.path("operationId").asText());
        assertEquals(action, op.path("x-kubernetes-action").asText());
    }

    @Test
    void operationIdsAreUniqueAcrossDocuments() {
        Set<String> seen = new HashSet<>();
        for (String gv : OPENAPI.groupVersionPaths()) {
            for (JsonNode op : operations(parse(OPENAPI.groupVersion(gv).orElseThrow()))) {
                assertTrue(
                        seen.add(op.path("operationId").asText()), op.path("operationId").asText());
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "get,   /api/v1/namespaces/{namespace}/pods,        'allowWatchBookmarks,continue,fieldSelector,labelSelector,limit,resourceVersion,resourceVersionMatch,sendInitialEvents,timeoutSeconds,watch'",
        "post,  /api/v1/namespaces/{namespace}/pods,        'dryRun,fieldManager,fieldValidation'",
        "put,   /api/v1/namespaces/{namespace}/pods/{name}, 'dryRun,fieldManager,fieldValidation'",
        "patch, /api/v1/namespaces/{namespace}/pods/{name}, 'dryRun,fieldManager,fieldValidation,force'",
        "delete,/api/v1/namespaces/{namespace}/pods/{name}, 'dryRun,gracePeriodSeconds,propagationPolicy'",
        "delete,/api/v1/namespaces/{namespace}/pods,        'continue,dryRun,fieldSelector,gracePeriodSeconds,labelSelector,limit,propagationPolicy,resourceVersion,resourceVersionMatch,sendInitialEvents,timeoutSeconds'",
        "get,   /api/v1/namespaces/{namespace}/pods/{name}, ''",
    })
    void queryParametersAreListedSortedOnTheOperation(String method, String path, String expected) {
        JsonNode params =
                OPENAPI.groupVersion("api/v1")
                        .map(OpenApiV3Test::parse)
                        .orElseThrow()
                        .path("paths")
                        .path(path)
                        .path(method)
                        .path("parameters");
        List<String> names = new ArrayList<>();
        params.forEach(
                p -> {
                    assertEquals("query", p.path("in").asText());
                    names.add(p.path("name").asText());
                });

        assertEquals(expected.isEmpty() ? List.of() : List.of(expected.split(",")), names);
    }

    // --- component schemas

    @ParameterizedTest
    @MethodSource("kinds")
    void everyKindHasASchemaWithGvkListAndTopLevelProperties(ResourceType t) {
        JsonNode schema =
                document(t).path("components").path("schemas").path(SchemaNames.of(t.gvk()));

        assertEquals("object", schema.path("type").asText());
        assertFalse(schema.path("description").asText().isEmpty());
        assertEquals(
                Json.MAPPER.createArrayNode().add(gvkJson(t.gvk())),
                schema.get("x-kubernetes-group-version-kind"));
        assertTrue(
                names(schema.path("properties"))
                        .containsAll(Set.of("apiVersion", "kind", "metadata")));
        assertEquals(
                "#/components/schemas/" + SchemaNames.OBJECT_META,
                schema.path("properties")
                        .path("metadata")
                        .path("allOf")
                        .path(0)
                        .path("$ref")
                        .asText());
        JsonNode list =
                document(t)
                        .path("components")
                        .path("schemas")
                        .path(SchemaNames.of(t.gvk(), t.listKind()));
        assertEquals(
                t.listKind(),
                list.path("x-kubernetes-group-version-kind").path(0).path("kind").asText());
    }

    @ParameterizedTest(name = "{0} {1}/{2} → {3}")
    @CsvSource({
        "Pod,                '',                        v1, io.k8s.api.core.v1.Pod",
        "Deployment,         apps,                      v1, io.k8s.api.apps.v1.Deployment",
        "ClusterRole,        rbac.authorization.k8s.io, v1, io.k8s.api.rbac.v1.ClusterRole",
        "Ingress,            networking.k8s.io,         v1, io.k8s.api.networking.v1.Ingress",
        "Lease,              coordination.k8s.io,       v1, io.k8s.api.coordination.v1.Lease",
        "HorizontalPodAutoscaler, autoscaling,          v2, io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
        "CustomResourceDefinition, apiextensions.k8s.io, v1, io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
        "CronTab,            stable.example.com,        v1, com.example.stable.v1.CronTab",
    })
    void schemaNamesFollowKubernetes(String kind, String group, String version, String expected) {
        assertEquals(expected, SchemaNames.of(new GroupVersionKind(group, version, kind)));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "io.k8s.apimachinery.pkg.apis.meta.v1.Status",
                "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
                "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
                "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
                "io.k8s.apimachinery.pkg.apis.meta.v1.Patch",
                "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
                "io.k8s.api.autoscaling.v1.Scale"
            })
    void appsDocumentCarriesTheSharedSchemas(String name) {
        JsonNode schema =
                OPENAPI.groupVersion("apis/apps/v1")
                        .map(OpenApiV3Test::parse)
                        .orElseThrow()
                        .path("components")
                        .path("schemas")
                        .path(name);

        assertEquals("object", schema.path("type").asText());
    }

    @Test
    void scaleSchemaOnlyWhereAKindHasScale() {
        JsonNode core = OPENAPI.groupVersion("api/v1").map(OpenApiV3Test::parse).orElseThrow();

        assertFalse(core.path("components").path("schemas").has(SchemaNames.SCALE));
    }

    @Test
    void everyReferenceResolvesWithinItsDocument() {
        for (String gv : OPENAPI.groupVersionPaths()) {
            JsonNode doc = parse(OPENAPI.groupVersion(gv).orElseThrow());
            for (JsonNode ref : doc.findValues("$ref")) {
                String name = ref.asText().substring("#/components/schemas/".length());
                assertTrue(doc.path("components").path("schemas").has(name), gv + " " + ref);
            }
        }
    }

    @Test
    void schemaSourceSuppliesKindSchemasAndTheirDefinitions() {
        SchemaSource rich =
                new SchemaSource() {
                    @Override
                    public ObjectNode schema(GroupVersionKind gvk) {
                        ObjectNode s = MinimalSchemaSource.INSTANCE.schema(gvk);
                        if (gvk.kind().equals("Pod")) {
                            s.withObjectProperty("properties")
                                    .set(
                                            "spec",
                                            Schemas.ref("io.k8s.api.core.v1.PodSpec", "Pod spec."));
                            s.remove("description");
                        }
                        return s;
                    }

                    @Override
                    public Map<String, ObjectNode> definitions(GroupVersionKind gvk) {
                        return gvk.kind().equals("Pod")
                                ? Map.of(
                                        "io.k8s.api.core.v1.PodSpec",
                                        Schemas.typed("object", "What a pod runs."))
                                : Map.of();
                    }
                };
        JsonNode schemas =
                parse(OpenApiV3.of(REGISTRY, rich).groupVersion("api/v1").orElseThrow())
                        .path("components")
                        .path("schemas");

        assertEquals(
                "What a pod runs.",
                schemas.path("io.k8s.api.core.v1.PodSpec").path("description").asText());
        JsonNode pod = schemas.path("io.k8s.api.core.v1.Pod");
        assertEquals(
                "#/components/schemas/io.k8s.api.core.v1.PodSpec",
                pod.path("properties").path("spec").path("allOf").path(0).path("$ref").asText());
        assertEquals("Pod", pod.path("description").asText(), "a missing description is filled in");
        assertEquals(
                "Pod", pod.path("x-kubernetes-group-version-kind").path(0).path("kind").asText());
    }

    @Test
    void customResourceGroupsAreNamedByTheirReversedDomain() {
        ResourceType cronTab =
                ResourceType.builder("stable.example.com", "v1", "CronTab", "crontabs").build();
        OpenApiV3 openapi =
                OpenApiV3.of(
                        new Registry(List.of(new KindDefinition(cronTab, TablePrinter.DEFAULT))));
        JsonNode doc = parse(openapi.groupVersion("apis/stable.example.com/v1").orElseThrow());

        assertEquals(
                "listStableExampleComV1NamespacedCronTab",
                doc.path("paths")
                        .path("/apis/stable.example.com/v1/namespaces/{namespace}/crontabs")
                        .path("get")
                        .path("operationId")
                        .asText());
        assertTrue(doc.path("components").path("schemas").has("com.example.stable.v1.CronTab"));
    }

    // --- caching

    @Test
    void documentsAndEtagsAreStableAcrossBuilds() {
        OpenApiV3 again = OpenApiV3.of(Registry.builtin());

        assertEquals(OPENAPI.root(), again.root());
        assertEquals(OPENAPI.root().etag(), again.root().etag());
        for (String gv : OPENAPI.groupVersionPaths()) {
            Document a = OPENAPI.groupVersion(gv).orElseThrow();
            Document b = again.groupVersion(gv).orElseThrow();
            assertEquals(a.etag(), b.etag());
            assertEquals('"' + a.hash() + '"', a.etag());
        }
        assertNotEquals(
                OPENAPI.groupVersion("api/v1").orElseThrow().etag(),
                OPENAPI.groupVersion("apis/apps/v1").orElseThrow().etag());
    }

    @Test
    void kubernetesVersionChangesTheHash() {
        OpenApiV3 other = OpenApiV3.of(REGISTRY, SchemaSource.minimal(), "v1.36.0");

        assertNotEquals(
                OPENAPI.groupVersion("api/v1").orElseThrow().hash(),
                other.groupVersion("api/v1").orElseThrow().hash());
        assertNotEquals(OPENAPI.root().hash(), other.root().hash());
    }

    @ParameterizedTest(name = "If-None-Match: {0} → {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "SELF        | true",
                "W/SELF      | true",
                "'\"x\", SELF' | true",
                "*           | true",
                "'\"x\"'     | false",
                "NONE        | false",
            })
    void ifNoneMatchComparesWeakly(String header, boolean matches) {
        Document root = OPENAPI.root();
        String value = header.equals("NONE") ? null : header.replace("SELF", root.etag());

        assertEquals(matches, root.matchesIfNoneMatch(value));
    }

    // --- helpers

    private static JsonNode document(ResourceType t) {
        return parse(
                OPENAPI.groupVersion(OpenApiV3.groupVersionPath(t.group(), t.version()))
                        .orElseThrow());
    }

    private static String itemPath(ResourceType t) {
        return t.gvk().pathPrefix()
                + (t.namespaced() ? "/namespaces/{namespace}/" : "/")
                + t.resource()
                + "/{name}";
    }

    private static String groupVersionOf(String path) {
        String[] parts = path.substring(1).split("/");
        return parts[0].equals("api") ? "api/" + parts[1] : "apis/" + parts[1] + "/" + parts[2];
    }

    /** The path items serving a kind: those with an operation whose GVK is the kind's. */
    private static List<Map.Entry<String, JsonNode>> pathsOf(ResourceType t) {
        JsonNode gvk = gvkJson(t.gvk());
        return fields(document(t).path("paths")).stream()
                .filter(
                        e ->
                                METHODS.stream()
                                        .anyMatch(
                                                m ->
                                                        gvk.equals(
                                                                e.getValue()
                                                                        .path(m)
                                                                        .get(
                                                                                "x-kubernetes-group-version-kind"))))
                .toList();
    }

    private static JsonNode gvkJson(GroupVersionKind gvk) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("group", gvk.group());
        o.put("version", gvk.version());
        o.put("kind", gvk.kind());
        return o;
    }

    private static boolean hasQueryParameter(JsonNode operation, String name) {
        for (JsonNode p : operation.path("parameters")) {
            if (p.path("name").asText().equals(name) && p.path("in").asText().equals("query")) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> parameterNames(JsonNode parameters) {
        Set<String> out = new TreeSet<>();
        parameters.forEach(p -> out.add(p.path("name").asText()));
        return out;
    }

    private static List<JsonNode> operations(JsonNode doc) {
        List<JsonNode> out = new ArrayList<>();
        doc.path("paths")
                .forEach(
                        item ->
                                METHODS.forEach(
                                        m -> {
                                            if (item.has(m)) {
                                                out.add(item.get(m));
                                            }
                                        }));
        return out;
    }

    private static List<Map.Entry<String, JsonNode>> fields(JsonNode node) {
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        node.properties().iterator().forEachRemaining(out::add);
        return out;
    }

    private static Set<String> names(JsonNode node) {
        Set<String> out = new TreeSet<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static JsonNode parse(Document doc) {
        try {
            return Json.MAPPER.readTree(doc.json());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
