package io.kubepekko.api.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.BuiltinKinds;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DiscoveryTest {

    private static final Discovery DISCOVERY = Discovery.of(Registry.builtin());
    private static final String V2_TYPE =
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

    private static JsonNode tree(DiscoveryDocument doc) {
        return Json.parseTrusted(doc.bytes());
    }

    private static JsonNode entry(JsonNode list, String field, String name) {
        for (JsonNode e : list) {
            if (e.path(field).asText().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no " + field + " " + name);
    }

    private static JsonNode group(JsonNode items, String name) {
        for (JsonNode item : items) {
            if (item.path("metadata").path("name").asText().equals(name)) {
                return item;
            }
        }
        throw new AssertionError("no group " + name);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // ---- legacy /api and /apis

    @Test
    void legacyApiListsCoreVersionAndServerAddress() {
        DiscoveryDocument doc = DISCOVERY.legacyApi("10.0.0.1:6443");
        assertEquals(
                json(
                        "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":"
                                + "[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"10.0.0.1:6443\"}]}"),
                tree(doc));
        assertEquals("application/json", doc.contentType());
    }

    @Test
    void legacyGroupsListNamedGroupsWithPreferredVersion() {
        JsonNode list = tree(DISCOVERY.legacyGroups());
        assertEquals("APIGroupList", list.get("kind").asText());
        assertEquals("v1", list.get("apiVersion").asText());
        List<String> names = new ArrayList<>();
        list.get("groups").forEach(g -> names.add(g.get("name").asText()));
        assertEquals(
                List.of(
                        "apps",
                        "events.k8s.io",
                        "authentication.k8s.io",
                        "authorization.k8s.io",
                        "autoscaling",
                        "batch",
                        "networking.k8s.io",
                        "policy",
                        "rbac.authorization.k8s.io",
                        "storage.k8s.io",
                        "admissionregistration.k8s.io",
                        "scheduling.k8s.io",
                        "coordination.k8s.io"),
                names);
        assertEquals(
                json(
                        "{\"name\":\"apps\",\"versions\":[{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}],"
                                + "\"preferredVersion\":{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}}"),
                entry(list.get("groups"), "name", "apps"));
    }

    // ---- APIResourceList

    @Test
    void coreResourceListHasResourcesAndSubresourcesSortedByName() {
        JsonNode list = tree(DISCOVERY.resourceList("", "v1").orElseThrow());
        assertEquals("APIResourceList", list.get("kind").asText());
        assertEquals("v1", list.get("groupVersion").asText());
        List<String> names = new ArrayList<>();
        list.get("resources").forEach(r -> names.add(r.get("name").asText()));
        assertEquals(names.stream().sorted().toList(), names);
        assertTrue(
                names.containsAll(
                        List.of(
                                "bindings",
                                "pods",
                                "pods/binding",
                                "pods/log",
                                "pods/status",
                                "namespaces/status",
                                "services/status")));
    }

    @Test
    void coreResourceEntryCarriesKubectlFields() {
        JsonNode pods =
                entry(
                        tree(DISCOVERY.resourceList("", "v1").orElseThrow()).get("resources"),
                        "name",
                        "pods");
        assertEquals(
                json(
                        "{\"name\":\"pods\",\"singularName\":\"pod\",\"namespaced\":true,\"kind\":\"Pod\","
                                + "\"verbs\":[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"],"
                                + "\"shortNames\":[\"po\"],\"categories\":[\"all\"],\"storageVersionHash\":\"xPOwRZ+Yhw8=\"}"),
                pods);
    }

    @ParameterizedTest(name = "{0} has storageVersionHash {1} as kube-apiserver computes it")
    @CsvSource({
        "configmaps, qFsyl6wFWjQ=",
        "pods, xPOwRZ+Yhw8=",
        "services, 0/CO1lhkEBI=",
        "namespaces, Q3oi5N2YM8M="
    })
    void storageVersionHashMatchesKubeApiserver(String resource, String hash) {
        JsonNode r =
                entry(
                        tree(DISCOVERY.resourceList("", "v1").orElseThrow()).get("resources"),
                        "name",
                        resource);
        assertEquals(hash, r.get("storageVersionHash").asText());
    }

    @Test
    void statusAndLogSubresourceEntriesUseTheOwnersKind() {
        JsonNode resources = tree(DISCOVERY.resourceList("", "v1").orElseThrow()).get("resources");
        assertEquals(
                json(
                        "{\"name\":\"pods/status\",\"singularName\":\"\",\"namespaced\":true,\"kind\":\"Pod\","
                                + "\"verbs\":[\"get\",\"patch\",\"update\"]}"),
                entry(resources, "name", "pods/status"));
        assertEquals(
                json(
                        "{\"name\":\"pods/log\",\"singularName\":\"\",\"namespaced\":true,\"kind\":\"Pod\","
                                + "\"verbs\":[\"get\"]}"),
                entry(resources, "name", "pods/log"));
        assertEquals(
                json(
                        "{\"name\":\"namespaces/status\",\"singularName\":\"\",\"namespaced\":false,"
                                + "\"kind\":\"Namespace\",\"verbs\":[\"get\",\"patch\",\"update\"]}"),
                entry(resources, "name", "namespaces/status"));
    }

    /**
     * As kube-apiserver lists its LegacyBindingREST and pods/binding: create only, no storage
     * version.
     */
    @Test
    void bindingsAreACreateOnlyResourceAndAPodSubresource() {
        JsonNode resources = tree(DISCOVERY.resourceList("", "v1").orElseThrow()).get("resources");
        assertEquals("bindings", resources.get(0).get("name").asText());
        assertEquals(
                json(
                        "{\"name\":\"bindings\",\"singularName\":\"binding\",\"namespaced\":true,"
                                + "\"kind\":\"Binding\",\"verbs\":[\"create\"]}"),
                entry(resources, "name", "bindings"));
        assertEquals(
                json(
                        "{\"name\":\"pods/binding\",\"singularName\":\"\",\"namespaced\":true,"
                                + "\"kind\":\"Binding\",\"verbs\":[\"create\"]}"),
                entry(resources, "name", "pods/binding"));
        assertEquals(
                json(
                        "{\"name\":\"pods/eviction\",\"singularName\":\"\",\"namespaced\":true,"
                                + "\"group\":\"policy\",\"version\":\"v1\",\"kind\":\"Eviction\","
                                + "\"verbs\":[\"create\"]}"),
                entry(resources, "name", "pods/eviction"));
        JsonNode aggregated =
                tree(DISCOVERY.aggregatedApi("v2"))
                        .get("items")
                        .get(0)
                        .get("versions")
                        .get(0)
                        .get("resources");
        assertEquals(
                json(
                        "{\"resource\":\"bindings\",\"responseKind\":{\"group\":\"\",\"version\":\"v1\","
                                + "\"kind\":\"Binding\"},\"scope\":\"Namespaced\",\"singularResource\":\"binding\","
                                + "\"verbs\":[\"create\"]}"),
                entry(aggregated, "resource", "bindings"));
    }

    @Test
    void namespacesAreListedWithoutDeleteCollection() {
        JsonNode ns =
                entry(
                        tree(DISCOVERY.resourceList("", "v1").orElseThrow()).get("resources"),
                        "name",
                        "namespaces");
        assertEquals(
                List.of("create", "delete", "get", "list", "patch", "update", "watch"),
                texts(ns.get("verbs")));
        assertFalse(ns.get("namespaced").asBoolean());
    }

    @Test
    void scaleSubresourceEntryNamesAutoscalingV1Scale() {
        JsonNode list = tree(DISCOVERY.resourceList("apps", "v1").orElseThrow());
        assertEquals("apps/v1", list.get("groupVersion").asText());
        assertEquals(
                json(
                        "{\"name\":\"deployments/scale\",\"singularName\":\"\",\"namespaced\":true,"
                                + "\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\",\"verbs\":[\"get\",\"patch\",\"update\"]}"),
                entry(list.get("resources"), "name", "deployments/scale"));
        JsonNode status = entry(list.get("resources"), "name", "deployments/status");
        assertFalse(status.has("group"), "same group version as the list: omitted");
        assertEquals("Deployment", status.get("kind").asText());
    }

    @ParameterizedTest(name = "{0}/{1} is not served")
    @CsvSource({"'', v2", "apps, v1beta1", "extensions, v1beta1", "example.com, v1", "apps, ''"})
    void unknownGroupVersionHasNoResourceList(String group, String version) {
        assertEquals(Optional.empty(), DISCOVERY.resourceList(group, version));
    }

    // ---- aggregated

    @Test
    void aggregatedApiHoldsOnlyTheCoreGroupNamedEmpty() {
        JsonNode list = tree(DISCOVERY.aggregatedApi("v2"));
        assertEquals("APIGroupDiscoveryList", list.get("kind").asText());
        assertEquals("apidiscovery.k8s.io/v2", list.get("apiVersion").asText());
        assertEquals(json("{}"), list.get("metadata"));
        assertEquals(1, list.get("items").size());
        JsonNode core = list.get("items").get(0);
        assertEquals(json("{\"name\":\"\"}"), core.get("metadata"));
        JsonNode v1 = core.get("versions").get(0);
        assertEquals("v1", v1.get("version").asText());
        assertEquals("Current", v1.get("freshness").asText());
    }

    @Test
    void aggregatedResourceCarriesResponseKindScopeAndNames() {
        JsonNode resources =
                tree(DISCOVERY.aggregatedApi("v2"))
                        .get("items")
                        .get(0)
                        .get("versions")
                        .get(0)
                        .get("resources");
        assertEquals(
                json(
                        "{\"resource\":\"configmaps\",\"responseKind\":{\"group\":\"\",\"version\":\"v1\","
                                + "\"kind\":\"ConfigMap\"},\"scope\":\"Namespaced\",\"singularResource\":\"configmap\","
                                + "\"verbs\":[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"],"
                                + "\"shortNames\":[\"cm\"]}"),
                entry(resources, "resource", "configmaps"));
        assertEquals("Cluster", entry(resources, "resource", "namespaces").get("scope").asText());
    }

    @Test
    void aggregatedPodListsBindingEvictionLogAndStatusSubresources() {
        JsonNode resources =
                tree(DISCOVERY.aggregatedApi("v2"))
                        .get("items")
                        .get(0)
                        .get("versions")
                        .get(0)
                        .get("resources");
        JsonNode pods = entry(resources, "resource", "pods");
        assertEquals(List.of("all"), texts(pods.get("categories")));
        assertEquals(
                json(
                        "[{\"subresource\":\"binding\",\"responseKind\":{\"group\":\"\",\"version\":\"v1\","
                                + "\"kind\":\"Binding\"},\"verbs\":[\"create\"]},"
                                + "{\"subresource\":\"eviction\",\"responseKind\":{\"group\":\"policy\","
                                + "\"version\":\"v1\",\"kind\":\"Eviction\"},\"verbs\":[\"create\"]},"
                                + "{\"subresource\":\"log\",\"responseKind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
                                + "\"verbs\":[\"get\"]},{\"subresource\":\"status\",\"responseKind\":{\"group\":\"\",\"version\":\"v1\","
                                + "\"kind\":\"Pod\"},\"verbs\":[\"get\",\"patch\",\"update\"]}]"),
                pods.get("subresources"));
        assertFalse(entry(resources, "resource", "configmaps").has("subresources"));
    }

    @Test
    void aggregatedApisListsNamedGroupsInOrderWithoutCore() {
        JsonNode items = tree(DISCOVERY.aggregatedApis("v2")).get("items");
        List<String> names = new ArrayList<>();
        items.forEach(i -> names.add(i.get("metadata").get("name").asText()));
        assertEquals(
                List.of(
                        "apps",
                        "events.k8s.io",
                        "authentication.k8s.io",
                        "authorization.k8s.io",
                        "autoscaling",
                        "batch",
                        "networking.k8s.io",
                        "policy",
                        "rbac.authorization.k8s.io",
                        "storage.k8s.io",
                        "admissionregistration.k8s.io",
                        "scheduling.k8s.io",
                        "coordination.k8s.io"),
                names);
    }

    @Test
    void aggregatedDeploymentScaleRespondsWithAutoscalingScale() {
        JsonNode apps = group(tree(DISCOVERY.aggregatedApis("v2")).get("items"), "apps");
        JsonNode deployments =
                entry(apps.get("versions").get(0).get("resources"), "resource", "deployments");
        assertEquals(
                json("{\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"Deployment\"}"),
                deployments.get("responseKind"));
        assertEquals(List.of("deploy"), texts(deployments.get("shortNames")));
        assertEquals(
                json(
                        "{\"subresource\":\"scale\",\"responseKind\":{\"group\":\"autoscaling\",\"version\":\"v1\","
                                + "\"kind\":\"Scale\"},\"verbs\":[\"get\",\"patch\",\"update\"]}"),
                entry(deployments.get("subresources"), "subresource", "scale"));
    }

    @Test
    void clusterScopedNamedGroupResourceHasClusterScope() {
        JsonNode rbac =
                group(
                        tree(DISCOVERY.aggregatedApis("v2")).get("items"),
                        "rbac.authorization.k8s.io");
        JsonNode resources = rbac.get("versions").get(0).get("resources");
        assertEquals("Cluster", entry(resources, "resource", "clusterroles").get("scope").asText());
        assertEquals("Namespaced", entry(resources, "resource", "roles").get("scope").asText());
    }

    @Test
    void v2beta1HasTheV2ShapeUnderItsOwnApiVersion() {
        for (boolean core : new boolean[] {true, false}) {
            ObjectNode beta =
                    (ObjectNode)
                            tree(
                                    core
                                            ? DISCOVERY.aggregatedApi("v2beta1")
                                            : DISCOVERY.aggregatedApis("v2beta1"));
            JsonNode v2 =
                    tree(core ? DISCOVERY.aggregatedApi("v2") : DISCOVERY.aggregatedApis("v2"));
            assertEquals("apidiscovery.k8s.io/v2beta1", beta.get("apiVersion").asText());
            beta.put("apiVersion", "apidiscovery.k8s.io/v2");
            assertEquals(v2, beta);
        }
    }

    @Test
    void aggregatedDocumentsAnswerWithTheirExactContentType() {
        assertEquals(V2_TYPE, DISCOVERY.aggregatedApi("v2").contentType());
        assertEquals(V2_TYPE, DISCOVERY.aggregatedApis(DiscoveryFormat.V2).contentType());
        assertEquals(
                "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
                DISCOVERY.aggregatedApis("v2beta1").contentType());
        assertEquals("application/json", DISCOVERY.legacyGroups().contentType());
    }

    @Test
    void negotiatedEntryPointsPickTheMatchingDocument() {
        assertSame(
                DISCOVERY.aggregatedApis(DiscoveryFormat.V2BETA1),
                DISCOVERY.apis(DiscoveryFormat.V2BETA1));
        assertSame(DISCOVERY.legacyGroups(), DISCOVERY.apis(DiscoveryFormat.LEGACY));
        assertSame(
                DISCOVERY.aggregatedApi(DiscoveryFormat.V2),
                DISCOVERY.api(DiscoveryFormat.V2, "h:1"));
        assertEquals(DISCOVERY.legacyApi("h:1"), DISCOVERY.api(DiscoveryFormat.LEGACY, "h:1"));
    }

    @ParameterizedTest(name = "aggregated version \"{0}\" is rejected")
    @ValueSource(strings = {"v1", "v3", ""})
    void unknownAggregatedVersionIsAProgrammingError(String version) {
        assertThrows(IllegalArgumentException.class, () -> DISCOVERY.aggregatedApis(version));
        assertThrows(
                IllegalArgumentException.class,
                () -> DISCOVERY.aggregatedApi(DiscoveryFormat.LEGACY));
    }

    @Test
    void everyBuiltinSubresourceHasADiscoveryEntry() {
        for (KindDefinition d : BuiltinKinds.all()) {
            ResourceType t = d.type();
            for (String sub : t.subresources()) {
                assertEquals(sub, SubresourceInfo.of(t, sub).name());
            }
        }
        ResourceType pods = Registry.builtin().find("", "v1", "pods").orElseThrow();
        assertThrows(IllegalArgumentException.class, () -> SubresourceInfo.of(pods, "bogus"));
        assertEquals("PodProxyOptions", SubresourceInfo.of(pods, "proxy").responseKind().kind());
        assertEquals("policy", SubresourceInfo.of(pods, "eviction").responseKind().group());
    }

    // ---- bytes and ETags

    @Test
    void bodiesAreCompactJson() {
        String body = new String(DISCOVERY.aggregatedApis("v2").bytes(), StandardCharsets.UTF_8);
        assertFalse(body.contains("\n"));
        assertFalse(body.contains("\": "));
        assertEquals(
                body.getBytes(StandardCharsets.UTF_8).length,
                DISCOVERY.aggregatedApis("v2").length());
    }

    @Test
    void etagIsAQuotedHexHashOfTheBytes() {
        assertTrue(
                DISCOVERY.legacyGroups().etag().matches("\"[0-9a-f]{64}\""),
                DISCOVERY.legacyGroups().etag());
    }

    @Test
    void documentsAreRenderedOncePerRegistry() {
        Registry registry = Registry.builtin();
        Discovery first = Discovery.of(registry);
        assertSame(first, Discovery.of(registry));
        assertSame(first.aggregatedApis("v2"), first.aggregatedApis("v2"));
    }

    @Test
    void equalContentGivesEqualEtagsAcrossRegistries() {
        Discovery other = Discovery.of(new Registry(BuiltinKinds.all()));
        assertEquals(DISCOVERY.aggregatedApis("v2").etag(), other.aggregatedApis("v2").etag());
        assertEquals(
                DISCOVERY.resourceList("", "v1").orElseThrow().etag(),
                other.resourceList("", "v1").orElseThrow().etag());
        assertEquals(DISCOVERY.legacyApi("a:1").etag(), DISCOVERY.legacyApi("a:1").etag());
    }

    @Test
    void changedContentChangesTheEtag() {
        List<KindDefinition> fewer =
                BuiltinKinds.all().stream()
                        .filter(d -> !d.type().resource().equals("leases"))
                        .toList();
        Discovery smaller = Discovery.of(new Registry(fewer));
        assertNotEquals(DISCOVERY.aggregatedApis("v2").etag(), smaller.aggregatedApis("v2").etag());
        assertNotEquals(DISCOVERY.legacyGroups().etag(), smaller.legacyGroups().etag());
        assertEquals(Optional.empty(), smaller.resourceList("coordination.k8s.io", "v1"));
        // The core group did not change, so its documents keep their tags.
        assertEquals(DISCOVERY.aggregatedApi("v2").etag(), smaller.aggregatedApi("v2").etag());
        assertNotEquals(DISCOVERY.legacyApi("a:1").etag(), DISCOVERY.legacyApi("b:1").etag());
        assertNotEquals(
                DISCOVERY.aggregatedApis("v2").etag(), DISCOVERY.aggregatedApis("v2beta1").etag());
    }

    static Stream<Arguments> ifNoneMatch() {
        String etag = DISCOVERY.legacyGroups().etag();
        return Stream.of(
                Arguments.of("exact tag", etag, true),
                Arguments.of("weak form of the tag", "W/" + etag, true),
                Arguments.of("wildcard", "*", true),
                Arguments.of("tag in a list", "\"abc\", " + etag, true),
                Arguments.of("other tag", "\"abc\"", false),
                Arguments.of("unquoted tag", etag.replace("\"", ""), false),
                Arguments.of("absent header", null, false));
    }

    @ParameterizedTest(name = "If-None-Match with {0} matches: {2}")
    @MethodSource("ifNoneMatch")
    void ifNoneMatchComparesTags(String name, String header, boolean matches) {
        assertEquals(matches, DISCOVERY.legacyGroups().matches(header));
    }

    // ---- negotiation

    static Stream<Arguments> acceptHeaders() {
        String v2 = V2_TYPE;
        String v2beta1 =
                "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
        return Stream.of(
                Arguments.of(
                        "kubectl 1.35 (v2, v2beta1, json)",
                        v2 + "," + v2beta1 + ",application/json",
                        DiscoveryFormat.V2),
                Arguments.of(
                        "v2beta1 listed first",
                        v2beta1 + "," + v2 + ",application/json",
                        DiscoveryFormat.V2BETA1),
                Arguments.of("only v2beta1", v2beta1, DiscoveryFormat.V2BETA1),
                Arguments.of(
                        "json first wins over v2",
                        "application/json," + v2,
                        DiscoveryFormat.LEGACY),
                Arguments.of(
                        "parameters in another order with spaces",
                        "application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.k8s.io",
                        DiscoveryFormat.V2),
                Arguments.of(
                        "quoted parameter values",
                        "application/json;g=\"apidiscovery.k8s.io\";v=\"v2\";as=\"APIGroupDiscoveryList\"",
                        DiscoveryFormat.V2),
                Arguments.of(
                        "uppercase media type",
                        "Application/JSON;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
                        DiscoveryFormat.V2),
                Arguments.of("plain json", "application/json", DiscoveryFormat.LEGACY),
                Arguments.of(
                        "json with charset",
                        "application/json;charset=utf-8",
                        DiscoveryFormat.LEGACY),
                Arguments.of("json and anything", "application/json, */*", DiscoveryFormat.LEGACY),
                Arguments.of("anything", "*/*", DiscoveryFormat.LEGACY),
                Arguments.of("any application type", "application/*", DiscoveryFormat.LEGACY),
                Arguments.of("no header", null, DiscoveryFormat.LEGACY),
                Arguments.of("blank header", "  ", DiscoveryFormat.LEGACY),
                Arguments.of(
                        "protobuf then json",
                        "application/vnd.kubernetes.protobuf,application/json",
                        DiscoveryFormat.LEGACY),
                Arguments.of(
                        "v2 refused with q=0",
                        v2 + ";q=0,application/json",
                        DiscoveryFormat.LEGACY),
                Arguments.of(
                        "unknown aggregated version skipped",
                        "application/json;g=apidiscovery.k8s.io;v=v3;"
                                + "as=APIGroupDiscoveryList,"
                                + v2beta1,
                        DiscoveryFormat.V2BETA1),
                Arguments.of(
                        "Table conversion skipped",
                        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
                        DiscoveryFormat.LEGACY));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("acceptHeaders")
    void negotiationHonoursListOrder(String name, String accept, DiscoveryFormat expected) {
        assertEquals(Optional.of(expected), DiscoveryFormat.negotiate(accept));
    }

    @ParameterizedTest(name = "nothing servable in \"{0}\"")
    @ValueSource(
            strings = {
                "application/vnd.kubernetes.protobuf",
                "application/yaml",
                "text/html",
                "application/json;as=Table;v=v1;g=meta.k8s.io",
                "application/json;q=0",
                "application/json;g=apidiscovery.k8s.io;v=v2",
                ";;;",
                ",",
                ";"
            })
    void negotiationFindsNothingForUnservableAccept(String accept) {
        assertEquals(Optional.empty(), DiscoveryFormat.negotiate(accept));
    }

    @Test
    void formatsKnowTheirContentTypeAndApiVersion() {
        assertEquals(V2_TYPE, DiscoveryFormat.V2.contentType());
        assertEquals(
                Optional.of("apidiscovery.k8s.io/v2beta1"), DiscoveryFormat.V2BETA1.apiVersion());
        assertEquals(Optional.empty(), DiscoveryFormat.LEGACY.apiVersion());
        assertFalse(DiscoveryFormat.LEGACY.aggregated());
    }
}
