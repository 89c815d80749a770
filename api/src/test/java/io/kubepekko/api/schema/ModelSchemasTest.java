package io.kubepekko.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.BuiltinKinds;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.registry.ResourceType;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ModelSchemasTest {

    private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");

    static Stream<Arguments> builtinKinds() {
        return BuiltinKinds.all().stream()
                .map(KindDefinition::type)
                .map(rt -> Arguments.of(rt.gvk().apiVersion() + " " + rt.kind(), rt));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtinKinds")
    void everyBuiltinKindHasASchemaWithTypeMetaAndMetadata(String name, ResourceType type) {
        SchemaNode schema =
                ModelSchemas.forKind(type.gvk())
                        .orElseThrow(() -> new AssertionError("no schema for " + name));
        assertEquals(SchemaNode.Type.OBJECT, schema.type());
        assertEquals(SchemaNode.Type.STRING, at(schema, "apiVersion").type());
        assertEquals(SchemaNode.Type.STRING, at(schema, "kind").type());
        assertEquals("v1.ObjectMeta", at(schema, "metadata").goType());
        if (type.hasStatus()) {
            assertEquals(SchemaNode.Type.OBJECT, at(schema, "status").type());
        }
    }

    static Stream<Arguments> extraKinds() {
        return Stream.of(
                Arguments.of(
                        new GroupVersionKind("meta.k8s.io", "v1", "DeleteOptions"),
                        "propagationPolicy"),
                Arguments.of(new GroupVersionKind("", "v1", "DeleteOptions"), "gracePeriodSeconds"),
                Arguments.of(new GroupVersionKind("autoscaling", "v1", "Scale"), "spec"),
                Arguments.of(
                        new GroupVersionKind("events.k8s.io", "v1", "Event"),
                        "reportingController"),
                Arguments.of(
                        new GroupVersionKind(
                                "apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
                        "spec"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extraKinds")
    void resolvesKindsOutsideTheRegistry(GroupVersionKind gvk, String property) {
        SchemaNode schema = ModelSchemas.forKind(gvk).orElseThrow();
        assertTrue(
                schema.properties().containsKey(property),
                () -> schema.properties().keySet().toString());
    }

    @Test
    void coreEventIsTheCoreModelNotTheEventsGroupOne() {
        SchemaNode event =
                ModelSchemas.forKind(new GroupVersionKind("", "v1", "Event")).orElseThrow();
        assertEquals("v1.Event", event.goType());
        assertEquals("v1.ObjectReference", at(event, "involvedObject").goType());
    }

    static Stream<Arguments> fieldTypes() {
        GroupVersionKind deployment = new GroupVersionKind("apps", "v1", "Deployment");
        GroupVersionKind service = new GroupVersionKind("", "v1", "Service");
        GroupVersionKind secret = new GroupVersionKind("", "v1", "Secret");
        GroupVersionKind job = new GroupVersionKind("batch", "v1", "Job");
        return Stream.of(
                Arguments.of(POD, "spec.containers", SchemaNode.Type.ARRAY, "[]v1.Container"),
                Arguments.of(POD, "spec.containers[].name", SchemaNode.Type.STRING, "string"),
                Arguments.of(
                        POD,
                        "spec.containers[].ports[].containerPort",
                        SchemaNode.Type.INTEGER,
                        "int32"),
                Arguments.of(
                        POD,
                        "spec.containers[].resources.limits",
                        SchemaNode.Type.MAP,
                        "map[string]resource.Quantity"),
                Arguments.of(
                        POD,
                        "spec.containers[].resources.limits[]",
                        SchemaNode.Type.QUANTITY,
                        "resource.Quantity"),
                Arguments.of(
                        POD,
                        "spec.containers[].livenessProbe.httpGet.port",
                        SchemaNode.Type.INT_OR_STRING,
                        "intstr.IntOrString"),
                Arguments.of(POD, "spec.hostNetwork", SchemaNode.Type.BOOLEAN, "bool"),
                Arguments.of(POD, "spec.activeDeadlineSeconds", SchemaNode.Type.INTEGER, "int64"),
                Arguments.of(POD, "metadata.labels", SchemaNode.Type.MAP, "map[string]string"),
                Arguments.of(
                        POD, "metadata.creationTimestamp", SchemaNode.Type.DATE_TIME, "v1.Time"),
                Arguments.of(
                        POD,
                        "metadata.managedFields[].fieldsV1",
                        SchemaNode.Type.ANY,
                        "interface {}"),
                Arguments.of(deployment, "spec.replicas", SchemaNode.Type.INTEGER, "int32"),
                Arguments.of(
                        deployment, "spec.template.spec", SchemaNode.Type.OBJECT, "v1.PodSpec"),
                Arguments.of(
                        deployment,
                        "spec.strategy.rollingUpdate.maxSurge",
                        SchemaNode.Type.INT_OR_STRING,
                        "intstr.IntOrString"),
                Arguments.of(
                        service,
                        "spec.ports[].targetPort",
                        SchemaNode.Type.INT_OR_STRING,
                        "intstr.IntOrString"),
                Arguments.of(secret, "data", SchemaNode.Type.MAP, "map[string][]uint8"),
                Arguments.of(secret, "data[]", SchemaNode.Type.BYTES, "[]uint8"),
                Arguments.of(secret, "stringData[]", SchemaNode.Type.STRING, "string"),
                Arguments.of(
                        job,
                        "spec.template.spec.containers[].resources.requests[]",
                        SchemaNode.Type.QUANTITY,
                        "resource.Quantity"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fieldTypes")
    void mapsJavaFieldTypesToStructuralTypes(
            GroupVersionKind gvk, String path, SchemaNode.Type type, String goType) {
        SchemaNode node = at(ModelSchemas.forKind(gvk).orElseThrow(), path);
        assertEquals(type, node.type());
        assertEquals(goType, node.goType());
    }

    @Test
    void keepsRequiredFieldsAndDescriptions() {
        SchemaNode pod = ModelSchemas.forKind(POD).orElseThrow();
        assertTrue(at(pod, "spec").required().contains("containers"));
        assertTrue(at(pod, "spec.containers[]").required().contains("name"));
        // Fields typed by another model carry no description in the client; their type's is kept
        // apart.
        assertNull(at(pod, "spec").description());
        assertEquals("PodSpec is a description of a pod.", at(pod, "spec").typeDescription());
        assertTrue(
                at(pod, "spec.containers[].image")
                        .description()
                        .startsWith("Container image name."),
                at(pod, "spec.containers[].image").description());
        assertNotNull(pod.description());
    }

    @Test
    void sharesObjectTypesAndTerminatesOnRecursiveModels() {
        SchemaNode crd =
                ModelSchemas.forKind(
                                new GroupVersionKind(
                                        "apiextensions.k8s.io", "v1", "CustomResourceDefinition"))
                        .orElseThrow();
        SchemaNode props = at(crd, "spec.versions[].schema.openAPIV3Schema");
        assertEquals("v1.JSONSchemaProps", props.goType());
        SchemaNode nested = at(props, "properties[].properties[].not.properties[]");
        assertSame(props.properties(), nested.properties());
        assertEquals(SchemaNode.Type.ANY, at(props, "default").type());
    }

    @Test
    void unknownKindHasNoSchema() {
        assertTrue(
                ModelSchemas.forKind(new GroupVersionKind("example.com", "v1", "Widget"))
                        .isEmpty());
    }

    @Test
    void cachesSchemas() {
        assertSame(
                ModelSchemas.forKind(POD).orElseThrow(), ModelSchemas.forKind(POD).orElseThrow());
    }

    /** Walks a dotted path; {@code []} steps into array items or map values. */
    static SchemaNode at(SchemaNode root, String path) {
        SchemaNode node = root;
        for (String part : path.split("\\.")) {
            boolean items = part.endsWith("[]");
            String name = items ? part.substring(0, part.length() - 2) : part;
            if (!name.isEmpty()) {
                SchemaNode parent = node;
                node =
                        node.property(name)
                                .orElseThrow(
                                        () ->
                                                new AssertionError(
                                                        "no "
                                                                + name
                                                                + " in "
                                                                + parent
                                                                + " "
                                                                + parent.properties().keySet()));
            }
            if (items) {
                node = node.items();
            }
        }
        return node;
    }
}
