package io.kubepekko.api.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ObjectMetaValidationTest {

    private static final Registry REGISTRY = Registry.builtin();
    private static final ResourceType CONFIGMAPS = type("", "configmaps");
    private static final ResourceType SERVICES = type("", "services");
    private static final ResourceType NAMESPACES = type("", "namespaces");
    private static final ResourceType CLUSTER_ROLES =
            type("rbac.authorization.k8s.io", "clusterroles");

    private static ResourceType type(String group, String resource) {
        return REGISTRY.find(group, "v1", resource).orElseThrow();
    }

    /** JSON with single quotes, for readable test data. */
    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static List<String> create(ResourceType type, String json) {
        return ObjectMetaValidation.validateCreate(type, obj(json)).stream()
                .map(FieldError::toString)
                .toList();
    }

    static Stream<Arguments> invalidCreates() {
        return Stream.of(
                Arguments.of(
                        "no name nor generateName",
                        CONFIGMAPS,
                        "{'metadata':{'namespace':'default'}}",
                        List.of("metadata.name: Required value: name or generateName is required")),
                Arguments.of(
                        "service name starting with a digit",
                        SERVICES,
                        "{'metadata':{'name':'1svc','namespace':'default'}}",
                        List.of(
                                "metadata.name: Invalid value: \"1svc\": a DNS-1035 label must consist of lower case "
                                        + "alphanumeric characters or '-', start with an alphabetic character, and end with an "
                                        + "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
                                        + "'[a-z]([-a-z0-9]*[a-z0-9])?')")),
                Arguments.of(
                        "namespace name with dots",
                        NAMESPACES,
                        "{'metadata':{'name':'team.a'}}",
                        List.of("metadata.name: Invalid value: \"team.a\": must not contain dots")),
                Arguments.of(
                        "namespaced kind without namespace",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm'}}",
                        List.of("metadata.namespace: Required value")),
                Arguments.of(
                        "cluster-scoped kind with namespace",
                        NAMESPACES,
                        "{'metadata':{'name':'ns','namespace':'default'}}",
                        List.of("metadata.namespace: Forbidden: not allowed on this type")),
                Arguments.of(
                        "generateName with upper case",
                        CONFIGMAPS,
                        "{'metadata':{'generateName':'Cm-','namespace':'default'}}",
                        List.of(
                                "metadata.generateName: Invalid value: \"Cm-\": a lowercase RFC 1123 subdomain must "
                                        + "consist of lower case alphanumeric characters, '-' or '.', and must start and end "
                                        + "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                                        + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
                Arguments.of(
                        "label key with two slashes",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default','labels':{'a/b/c':'x'}}}",
                        List.of(
                                "metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of "
                                        + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
                                        + "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                                        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix "
                                        + "and '/' (e.g. 'example.com/MyName')")),
                Arguments.of(
                        "label value too long",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default','labels':{'app':'"
                                + "v".repeat(64)
                                + "'}}}",
                        List.of(
                                "metadata.labels: Invalid value: \""
                                        + "v".repeat(64)
                                        + "\": must be no more than 63 bytes")),
                Arguments.of(
                        "annotations over 256 KiB",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default','annotations':{'big':'"
                                + "x".repeat(262144)
                                + "'}}}",
                        List.of(
                                "metadata.annotations: Too long: may not be more than 262144 bytes")),
                Arguments.of(
                        "unqualified custom finalizer",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default','finalizers':['kubernetes','hold']}}",
                        List.of(
                                "metadata.finalizers[1]: Invalid value: \"hold\": name is neither a standard finalizer "
                                        + "name nor is it fully qualified")),
                Arguments.of(
                        "orphan together with foreground deletion",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default','finalizers':['orphan','foregroundDeletion']}}",
                        List.of(
                                "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer "
                                        + "orphan and foregroundDeletion cannot be both set")),
                Arguments.of(
                        "owner reference without uid",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default','ownerReferences':"
                                + "[{'apiVersion':'apps/v1','kind':'Deployment','name':'web'}]}}",
                        List.of(
                                "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty")),
                Arguments.of(
                        "two controller owners",
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default','ownerReferences':["
                                + "{'apiVersion':'v1','kind':'A','name':'a','uid':'1','controller':true},"
                                + "{'apiVersion':'v1','kind':'B','name':'b','uid':'2','controller':true}]}}",
                        List.of(
                                "metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"A\","
                                        + "\"name\":\"a\",\"uid\":\"1\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"B\","
                                        + "\"name\":\"b\",\"uid\":\"2\",\"controller\":true}]: Only one reference can have "
                                        + "Controller set to true. Found \"true\" in references for A/a and B/b")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidCreates")
    void rejectsInvalidMetadataOnCreate(
            String name, ResourceType type, String json, List<String> expected) {
        assertEquals(expected, create(type, json));
    }

    @Test
    void acceptsGenerateNameWithoutName() {
        assertEquals(
                List.of(),
                create(CONFIGMAPS, "{'metadata':{'generateName':'cm-','namespace':'default'}}"));
    }

    @Test
    void acceptsTypicalObject() {
        assertEquals(
                List.of(),
                create(
                        CONFIGMAPS,
                        "{'metadata':{'name':'cm','namespace':'default',"
                                + "'labels':{'app.kubernetes.io/name':'web','tier':''},"
                                + "'annotations':{'Example.com/Note':'anything goes here'},'finalizers':['example.com/hold']}}"));
    }

    @Test
    void acceptsRbacNamesWithColons() {
        assertEquals(
                List.of(),
                create(CLUSTER_ROLES, "{'metadata':{'name':'system:aggregate-to-edit'}}"));
    }

    static Stream<Arguments> invalidUpdates() {
        String old =
                "{'metadata':{'name':'cm','namespace':'default','uid':'u1','creationTimestamp':'2024-01-01T00:00:00Z'}}";
        return Stream.of(
                Arguments.of(
                        "renamed",
                        old,
                        "{'metadata':{'name':'cm2','namespace':'default','uid':'u1','creationTimestamp':'2024-01-01T00:00:00Z'}}",
                        List.of("metadata.name: Invalid value: \"cm2\": field is immutable")),
                Arguments.of(
                        "uid changed",
                        old,
                        "{'metadata':{'name':'cm','namespace':'default','uid':'u2','creationTimestamp':'2024-01-01T00:00:00Z'}}",
                        List.of("metadata.uid: Invalid value: \"u2\": field is immutable")),
                Arguments.of(
                        "creationTimestamp changed",
                        old,
                        "{'metadata':{'name':'cm','namespace':'default','uid':'u1','creationTimestamp':'2025-01-01T00:00:00Z'}}",
                        List.of(
                                "metadata.creationTimestamp: Invalid value: \"2025-01-01T00:00:00Z\": field is immutable")),
                Arguments.of(
                        "finalizer added while deleting",
                        "{'metadata':{'name':'cm','namespace':'default','deletionTimestamp':'2024-01-02T00:00:00Z'}}",
                        "{'metadata':{'name':'cm','namespace':'default','deletionTimestamp':'2024-01-02T00:00:00Z',"
                                + "'finalizers':['example.com/late']}}",
                        List.of(
                                "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being "
                                        + "deleted, found new finalizers []string{\"example.com/late\"}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidUpdates")
    void rejectsChangesToImmutableMetadata(
            String name, String old, String now, List<String> expected) {
        List<String> errs =
                ObjectMetaValidation.validateUpdate(CONFIGMAPS, obj(now), obj(old)).stream()
                        .map(FieldError::toString)
                        .toList();
        assertEquals(expected, errs);
    }

    @Test
    void acceptsLabelChangesOnUpdate() {
        ObjectNode old = obj("{'metadata':{'name':'cm','namespace':'default','uid':'u1'}}");
        ObjectNode now =
                obj(
                        "{'metadata':{'name':'cm','namespace':'default','uid':'u1','labels':{'a':'b'}}}");
        assertEquals(List.of(), ObjectMetaValidation.validateUpdate(CONFIGMAPS, now, old));
    }
}
