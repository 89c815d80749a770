package io.kubepekko.api.openapi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtoSchema;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.schema.FieldDefaults;
import io.kubepekko.api.schema.FieldEnums;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The served documents with the model-derived schemas: the shapes checked against Kubernetes' own
 * v1.35 documents ({@code api/openapi-spec/v3} in kubernetes/kubernetes) for representative types,
 * references, kinds and byte stability.
 */
class ModelSchemaSourceTest {
    private static final Registry REGISTRY = Registry.builtin();
    private static final OpenApiV3 OPENAPI = OpenApiV3.of(REGISTRY);
    private static final JsonNode APPS = parse(OPENAPI.groupVersion("apis/apps/v1").orElseThrow());
    private static final JsonNode CORE = parse(OPENAPI.groupVersion("api/v1").orElseThrow());
    private static final JsonNode NETWORKING =
            parse(OPENAPI.groupVersion("apis/networking.k8s.io/v1").orElseThrow());

    /**
     * The stored kinds, which have every operation; bindings (create only) are tested on their own.
     */
    static Stream<Arguments> kinds() {
        return REGISTRY.stored().stream()
                .map(t -> Arguments.of(Named.of(t.apiVersion() + " " + t.kind(), t)));
    }

    // --- merge markers, as kubectl explain and client-side tools read them

    @Test
    void deploymentContainersCarryTheirMergeMarkers() {
        JsonNode containers =
                field(APPS, "io.k8s.api.apps.v1.Deployment", "spec.template.spec.containers");

        assertEquals("array", containers.path("type").asText());
        assertEquals("name", containers.path("x-kubernetes-patch-merge-key").asText());
        assertEquals("merge", containers.path("x-kubernetes-patch-strategy").asText());
        assertEquals("map", containers.path("x-kubernetes-list-type").asText());
        assertEquals(
                Json.MAPPER.createArrayNode().add("name"),
                containers.path("x-kubernetes-list-map-keys"));
        assertEquals(
                "#/components/schemas/io.k8s.api.core.v1.Container",
                containers.path("items").path("allOf").path(0).path("$ref").asText());
        assertEquals(Json.MAPPER.createObjectNode(), containers.path("items").path("default"));
        assertTrue(
                containers
                        .path("description")
                        .asText()
                        .startsWith("List of containers belonging to the pod."));
    }

    @ParameterizedTest(name = "{0}.{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // type                                              | field path                |
                // merge key     | strategy          | list type | keys
                "io.k8s.api.core.v1.Pod                              | spec.volumes              | name          | merge,retainKeys  | map       | name",
                "io.k8s.api.core.v1.Pod                              | spec.containers.ports     | containerPort | merge             | map       | containerPort,protocol",
                "io.k8s.api.core.v1.Pod                              | spec.containers.env       | name          | merge             | map       | name",
                "io.k8s.api.core.v1.Pod                              | spec.topologySpreadConstraints | topologyKey | merge         | map       | topologyKey,whenUnsatisfiable",
                "io.k8s.api.core.v1.Pod                              | spec.tolerations          |               |                   | atomic    | ",
                "io.k8s.api.core.v1.Pod                              | status.hostIPs            | ip            | merge             | atomic    | ",
                "io.k8s.api.core.v1.Service                          | spec.ports                | port          | merge             | map       | port,protocol",
                "io.k8s.api.core.v1.Pod                              | metadata.ownerReferences  | uid           | merge             | map       | uid",
                "io.k8s.api.core.v1.Pod                              | metadata.finalizers       |               | merge             | set       | ",
                "io.k8s.api.core.v1.Pod                              | metadata.managedFields    |               |                   | atomic    | ",
            })
    void listMarkersFollowKubernetes(
            String type, String path, String key, String strategy, String listType, String keys) {
        JsonNode field = field(CORE, type, path);

        assertEquals(key == null ? "" : key, field.path("x-kubernetes-patch-merge-key").asText());
        assertEquals(
                strategy == null ? "" : strategy,
                field.path("x-kubernetes-patch-strategy").asText());
        assertEquals(listType, field.path("x-kubernetes-list-type").asText());
        List<String> actual = new ArrayList<>();
        field.path("x-kubernetes-list-map-keys").forEach(k -> actual.add(k.asText()));
        assertEquals(keys == null ? List.of() : List.of(keys.split(",")), actual);
    }

    @Test
    void mapAndStructMarkersFollowKubernetes() {
        assertEquals(
                "atomic",
                field(CORE, "io.k8s.api.core.v1.Pod", "spec.nodeSelector")
                        .path("x-kubernetes-map-type")
                        .asText());
        assertEquals(
                "atomic",
                component(APPS, "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector")
                        .path("x-kubernetes-map-type")
                        .asText());
        assertEquals(
                "atomic",
                component(CORE, "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference")
                        .path("x-kubernetes-map-type")
                        .asText());
        assertEquals(
                "retainKeys",
                field(APPS, "io.k8s.api.apps.v1.Deployment", "spec.strategy")
                        .path("x-kubernetes-patch-strategy")
                        .asText());
    }

    // --- types, formats, defaults, required

    @Test
    void servicePortHasKubernetesTypesDefaultsAndRequired() {
        JsonNode port = component(CORE, "io.k8s.api.core.v1.ServicePort");

        JsonNode number = port.path("properties").path("port");
        assertEquals("integer", number.path("type").asText());
        assertEquals("int32", number.path("format").asText());
        assertEquals(0, number.path("default").asInt(-1));
        assertEquals("TCP", port.path("properties").path("protocol").path("default").asText());
        assertEquals(
                "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString",
                port.path("properties")
                        .path("targetPort")
                        .path("allOf")
                        .path(0)
                        .path("$ref")
                        .asText());
        assertEquals(Json.MAPPER.createArrayNode().add("port"), port.path("required"));
    }

    @Test
    void structFieldsHeldByValueDefaultToAnEmptyObjectAndPointersDoNot() {
        assertTrue(field(APPS, "io.k8s.api.apps.v1.Deployment", "spec").path("default").isObject());
        assertTrue(
                field(APPS, "io.k8s.api.apps.v1.Deployment", "spec.template")
                        .path("default")
                        .isObject());
        assertTrue(
                field(
                                APPS,
                                "io.k8s.api.apps.v1.Deployment",
                                "spec.template.spec.containers.resources")
                        .path("default")
                        .isObject());
        assertTrue(
                field(APPS, "io.k8s.api.apps.v1.Deployment", "spec.selector")
                        .path("default")
                        .isMissingNode());
        assertTrue(
                field(APPS, "io.k8s.api.apps.v1.Deployment", "spec.template.spec.securityContext")
                        .path("default")
                        .isMissingNode());
    }

    /** A line naming a type or field that does not exist would silently do nothing. */
    @Test
    void everyListedFieldDefaultIsPublishedWhereItIsListed() {
        Map<String, JsonNode> components = new HashMap<>();
        for (String gv : OPENAPI.groupVersionPaths()) {
            parse(OPENAPI.groupVersion(gv).orElseThrow())
                    .path("components")
                    .path("schemas")
                    .properties()
                    .iterator()
                    .forEachRemaining(e -> components.put(e.getKey(), e.getValue()));
        }
        FieldDefaults.builtin()
                .entries()
                .forEach(
                        (key, value) -> {
                            String[] typeAndField = key.split(" ");
                            if (typeAndField[0].equals("*")) {
                                return;
                            }
                            JsonNode component = components.get(ComponentNames.of(typeAndField[0]));
                            assertTrue(component != null, "no component for " + key);
                            assertEquals(
                                    value,
                                    component
                                            .path("properties")
                                            .path(typeAndField[1])
                                            .path("default"),
                                    key);
                        });
    }

    // --- enums (field-enums.txt), as a live kube-apiserver publishes them

    @ParameterizedTest(name = "{0}.{1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // type                          | field path                            | where   |
                // values
                "io.k8s.api.core.v1.Pod          | spec.containers.imagePullPolicy       | field   | Always,IfNotPresent,Never",
                "io.k8s.api.core.v1.Pod          | spec.ephemeralContainers.imagePullPolicy | field | Always,IfNotPresent,Never",
                "io.k8s.api.core.v1.Service      | spec.type                             | field   | ClusterIP,ExternalName,LoadBalancer,NodePort",
                "io.k8s.api.core.v1.Service      | spec.ports.protocol                   | field   | SCTP,TCP,UDP",
                "io.k8s.api.core.v1.Pod          | spec.containers.livenessProbe.httpGet.scheme | field | HTTP,HTTPS",
                "io.k8s.api.core.v1.PersistentVolumeClaim | spec.accessModes             | items   | ReadOnlyMany,ReadWriteMany,ReadWriteOnce,ReadWriteOncePod",
                "io.k8s.api.core.v1.PersistentVolumeClaim | status.allocatedResourceStatuses | values | ControllerResizeInProgress,ControllerResizeInfeasible,NodeResizeInProgress,NodeResizeInfeasible,NodeResizePending",
                "io.k8s.api.networking.v1.NetworkPolicy | spec.ingress.ports.protocol    | field   | SCTP,TCP,UDP",
            })
    void enumFieldsPublishTheirValuesInKubernetesOrder(
            String type, String path, String where, String values) {
        JsonNode doc = type.contains(".networking.") ? NETWORKING : CORE;
        JsonNode field = field(doc, type, path);

        assertEquals(List.of(values.split(",")), texts(enumOf(field, where)));
    }

    @Test
    void anEmptyStringValueIsPublishedFirst() {
        JsonNode families = field(CORE, "io.k8s.api.core.v1.Service", "spec.ipFamilies");
        assertEquals(List.of("", "IPv4", "IPv6"), texts(families.path("items").path("enum")));
        assertEquals("string", families.path("items").path("type").asText());
    }

    @Test
    void fieldsWhoseGoTypeIsNoEnumPublishNone() {
        // ContainerRestartPolicy and PodConditionType have well-known values but no +enum marker.
        assertTrue(
                field(CORE, "io.k8s.api.core.v1.Pod", "spec.containers.restartPolicy")
                        .path("enum")
                        .isMissingNode());
        assertTrue(
                field(CORE, "io.k8s.api.core.v1.Pod", "status.conditions.type")
                        .path("enum")
                        .isMissingNode());
        assertTrue(field(CORE, "io.k8s.api.core.v1.Secret", "type").path("enum").isMissingNode());
    }

    /**
     * A line naming a type or field that does not exist, or holds no strings, would silently do
     * nothing.
     */
    @Test
    void everyListedEnumIsPublishedWhereItIsListed() {
        Map<String, JsonNode> components = new HashMap<>();
        for (String gv : OPENAPI.groupVersionPaths()) {
            parse(OPENAPI.groupVersion(gv).orElseThrow())
                    .path("components")
                    .path("schemas")
                    .properties()
                    .iterator()
                    .forEachRemaining(e -> components.put(e.getKey(), e.getValue()));
        }
        assertFalse(FieldEnums.builtin().entries().isEmpty());
        FieldEnums.builtin()
                .entries()
                .forEach(
                        (key, values) -> {
                            String[] typeAndField = key.split(" ");
                            JsonNode component = components.get(ComponentNames.of(typeAndField[0]));
                            assertTrue(component != null, "no component for " + key);
                            JsonNode property = component.path("properties").path(typeAndField[1]);
                            assertFalse(property.isMissingNode(), "no field " + key);
                            JsonNode published =
                                    property.has("enum")
                                            ? property.get("enum")
                                            : property.path("items").has("enum")
                                                    ? property.get("items").get("enum")
                                                    : property.path("additionalProperties")
                                                            .path("enum");
                            assertEquals(values, texts(published), key);
                        });
    }

    /**
     * kube-openapi sorts an enum type's values; a hand-edited line out of order would not match a
     * live server.
     */
    @Test
    void everyListedEnumIsInKubernetesOrderWithoutDuplicates() {
        FieldEnums.builtin()
                .entries()
                .forEach(
                        (key, values) -> {
                            List<String> sorted = values.stream().sorted().distinct().toList();
                            assertEquals(sorted, values, key);
                        });
    }

    @Test
    void requiredScalarsDefaultToTheirZeroValueInDeclarationOrder() {
        JsonNode status = component(CORE, "io.k8s.api.core.v1.ContainerStatus");

        assertEquals(
                false, status.path("properties").path("ready").path("default").asBoolean(true));
        assertEquals("", status.path("properties").path("image").path("default").asText("x"));
        assertEquals(0, status.path("properties").path("restartCount").path("default").asInt(-1));
        assertTrue(
                status.path("properties").path("started").path("default").isMissingNode(),
                "a pointer");
        assertEquals(
                List.of("name", "ready", "restartCount", "image", "imageID"),
                texts(status.path("required")));
        assertEquals(
                List.of("selector", "template"),
                texts(component(APPS, "io.k8s.api.apps.v1.DeploymentSpec").path("required")));
    }

    @Test
    void listItemsAndMapValuesCarryTheirZeroValue() {
        JsonNode labels = field(CORE, "io.k8s.api.core.v1.Pod", "metadata.labels");
        assertEquals("string", labels.path("additionalProperties").path("type").asText());
        assertEquals("", labels.path("additionalProperties").path("default").asText("x"));
        JsonNode args = field(CORE, "io.k8s.api.core.v1.Pod", "spec.containers.args");
        assertEquals("", args.path("items").path("default").asText("x"));
        JsonNode limits = field(CORE, "io.k8s.api.core.v1.Pod", "spec.containers.resources.limits");
        assertEquals(
                "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity",
                limits.path("additionalProperties").path("$ref").asText(),
                "a bare $ref: no siblings");
        JsonNode binary = field(CORE, "io.k8s.api.core.v1.ConfigMap", "binaryData");
        assertEquals("byte", binary.path("additionalProperties").path("format").asText());
    }

    @Test
    void wellKnownTypesHaveKubernetesV3Forms() {
        JsonNode intOrString = component(APPS, "io.k8s.apimachinery.pkg.util.intstr.IntOrString");
        assertEquals("int-or-string", intOrString.path("format").asText());
        assertEquals(List.of("integer", "string"), types(intOrString.path("oneOf")));
        JsonNode quantity = component(CORE, "io.k8s.apimachinery.pkg.api.resource.Quantity");
        assertEquals(List.of("string", "number"), types(quantity.path("oneOf")));
        JsonNode time = component(CORE, "io.k8s.apimachinery.pkg.apis.meta.v1.Time");
        assertEquals("string", time.path("type").asText());
        assertEquals("date-time", time.path("format").asText());
        assertEquals(
                "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
                field(CORE, "io.k8s.api.core.v1.Event", "eventTime")
                        .path("allOf")
                        .path(0)
                        .path("$ref")
                        .asText());
    }

    // --- kinds, names, references

    @ParameterizedTest
    @MethodSource("kinds")
    void everyKindAndItsListHaveAComponentWithTheirGvkList(ResourceType t) {
        JsonNode doc = document(t);
        JsonNode schema = component(doc, SchemaNames.of(t.gvk()));
        JsonNode list = component(doc, SchemaNames.of(t.gvk(), t.listKind()));

        assertEquals(gvks(t.gvk()), schema.path("x-kubernetes-group-version-kind"));
        assertEquals(
                gvks(new GroupVersionKind(t.group(), t.version(), t.listKind())),
                list.path("x-kubernetes-group-version-kind"));
        assertFalse(
                schema.path("properties").has("spec")
                        && schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(),
                "a built-in kind is described fully, not by the minimal schema");
        assertEquals(
                "#/components/schemas/" + SchemaNames.of(t.gvk()),
                list.path("properties")
                        .path("items")
                        .path("items")
                        .path("allOf")
                        .path(0)
                        .path("$ref")
                        .asText());
    }

    @Test
    void nestedTypesAreNamedAsKubernetesNamesThem() {
        assertEquals(
                "#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec",
                field(APPS, "io.k8s.api.apps.v1.Deployment", "spec.template")
                        .path("allOf")
                        .path(0)
                        .path("$ref")
                        .asText());
        assertTrue(
                component(APPS, "io.k8s.api.core.v1.PodSpec").path("properties").has("containers"));
        assertTrue(
                component(APPS, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
                        .path("properties")
                        .has("ownerReferences"),
                "the shared ObjectMeta is the full one");
        assertTrue(
                component(APPS, "io.k8s.api.core.v1.PersistentVolumeClaim")
                        .has("x-kubernetes-group-version-kind"),
                "a kind met inside another group's kind (volumeClaimTemplates) is still marked as a kind");
        assertFalse(
                component(CORE, "io.k8s.api.core.v1.ObjectReference")
                        .has("x-kubernetes-group-version-kind"),
                "references have apiVersion and kind but are no kinds");
    }

    @Test
    void everyReferenceInEveryDocumentResolvesWithinIt() {
        for (String gv : OPENAPI.groupVersionPaths()) {
            JsonNode doc = parse(OPENAPI.groupVersion(gv).orElseThrow());
            List<JsonNode> refs = doc.findValues("$ref");
            assertFalse(refs.isEmpty());
            for (JsonNode ref : refs) {
                assertTrue(ref.asText().startsWith(Schemas.REF_PREFIX), gv + " " + ref);
                assertTrue(
                        doc.path("components")
                                .path("schemas")
                                .has(ref.asText().substring(Schemas.REF_PREFIX.length())),
                        gv + " " + ref);
            }
        }
    }

    @Test
    void unknownKindsFallBackToTheMinimalSchema() {
        GroupVersionKind cronTab = new GroupVersionKind("stable.example.com", "v1", "CronTab");
        assertEquals(
                MinimalSchemaSource.INSTANCE.schema(cronTab),
                ModelSchemaSource.builtin().schema(cronTab));
        assertTrue(ModelSchemaSource.builtin().definitions(cronTab).isEmpty());
    }

    // --- stability: the hash in the root and the ETag depend on the bytes

    @Test
    void aFreshBuildInAnotherOrderIsByteIdentical() {
        ModelComponents fresh =
                new ModelComponents(
                        ProtoSchema.builtin(),
                        MergeMetadata.builtin(),
                        FieldDefaults.builtin(),
                        FieldEnums.builtin());
        List<ResourceType> reversed = new ArrayList<>(REGISTRY.all());
        Collections.reverse(reversed);
        // Build every kind in the opposite order first, so components are met in another order.
        reversed.forEach(t -> fresh.kind(t.gvk()));
        OpenApiV3 again = OpenApiV3.of(REGISTRY, ModelSchemaSource.over(fresh));

        assertEquals(OPENAPI.groupVersionPaths(), again.groupVersionPaths());
        for (String gv : OPENAPI.groupVersionPaths()) {
            assertArrayEquals(
                    OPENAPI.groupVersion(gv).orElseThrow().json(),
                    again.groupVersion(gv).orElseThrow().json(),
                    gv);
        }
        assertEquals(OPENAPI.root().etag(), again.root().etag());
    }

    // --- helpers

    private static JsonNode document(ResourceType t) {
        return parse(
                OPENAPI.groupVersion(OpenApiV3.groupVersionPath(t.group(), t.version()))
                        .orElseThrow());
    }

    private static JsonNode component(JsonNode doc, String name) {
        JsonNode c = doc.path("components").path("schemas").path(name);
        assertFalse(c.isMissingNode(), "no component " + name);
        return c;
    }

    /**
     * The schema of a dotted field path under a component, following {@code $ref} (bare or in
     * {@code allOf}) and stepping through array items and map values as kubectl explain does.
     */
    static JsonNode field(JsonNode doc, String type, String path) {
        JsonNode schema = component(doc, type);
        JsonNode field = null;
        for (String name : path.split("\\.")) {
            JsonNode holder = resolve(doc, field == null ? schema : elementOf(field));
            field = holder.path("properties").path(name);
            assertFalse(field.isMissingNode(), "no field " + name + " in " + path);
        }
        return field;
    }

    private static JsonNode elementOf(JsonNode field) {
        if (field.has("items")) {
            return field.get("items");
        }
        return field.has("additionalProperties") ? field.get("additionalProperties") : field;
    }

    private static JsonNode resolve(JsonNode doc, JsonNode schema) {
        JsonNode ref =
                schema.has("$ref") ? schema.get("$ref") : schema.path("allOf").path(0).get("$ref");
        return ref == null
                ? schema
                : component(doc, ref.asText().substring(Schemas.REF_PREFIX.length()));
    }

    private static JsonNode gvks(GroupVersionKind gvk) {
        return Json.MAPPER
                .createArrayNode()
                .add(
                        Json.MAPPER
                                .createObjectNode()
                                .put("group", gvk.group())
                                .put("kind", gvk.kind())
                                .put("version", gvk.version()));
    }

    private static JsonNode enumOf(JsonNode field, String where) {
        return switch (where) {
            case "items" -> field.path("items").path("enum");
            case "values" -> field.path("additionalProperties").path("enum");
            default -> field.path("enum");
        };
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }

    private static List<String> types(JsonNode alternatives) {
        List<String> out = new ArrayList<>();
        alternatives.forEach(e -> out.add(e.path("type").asText()));
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
