package io.kubepekko.api.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BodyDecoderTest {

    private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");
    private static final GroupVersionKind DEPLOYMENT =
            new GroupVersionKind("apps", "v1", "Deployment");
    private static final GroupVersionKind SERVICE = new GroupVersionKind("", "v1", "Service");
    private static final GroupVersionKind SECRET = new GroupVersionKind("", "v1", "Secret");
    private static final GroupVersionKind CONFIG_MAP = new GroupVersionKind("", "v1", "ConfigMap");
    private static final String JSON = "application/json";
    private static final String YAML = "application/yaml";

    private static final String POD_WITH_UNKNOWN_CONTAINER_FIELD =
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
             "spec":{"containers":[{"name":"c","image":"nginx","foo":1}]}}""";

    // ---- unknown fields under each mode ----

    @Test
    void strictRejectsUnknownNestedContainerField() {
        ApiStatus status =
                failure(POD, POD_WITH_UNKNOWN_CONTAINER_FIELD, JSON, FieldValidation.STRICT);
        assertEquals(400, status.code());
        assertEquals("BadRequest", status.reason());
        assertEquals(
                "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: "
                        + "unknown field \"spec.containers[0].foo\"",
                status.message());
    }

    @Test
    void warnDropsUnknownNestedContainerFieldWithOneWarning() {
        DecodedBody body =
                decode(POD, POD_WITH_UNKNOWN_CONTAINER_FIELD, JSON, FieldValidation.WARN);
        assertFalse(body.object().at("/spec/containers/0").has("foo"));
        assertEquals("nginx", body.object().at("/spec/containers/0/image").asText());
        assertEquals(List.of("spec.containers[0].foo"), body.unknownFields());
        assertEquals(List.of("unknown field \"spec.containers[0].foo\""), body.warnings());
    }

    @Test
    void ignoreDropsUnknownNestedContainerFieldSilently() {
        DecodedBody body =
                decode(POD, POD_WITH_UNKNOWN_CONTAINER_FIELD, JSON, FieldValidation.IGNORE);
        assertFalse(body.object().at("/spec/containers/0").has("foo"));
        assertEquals(List.of("spec.containers[0].foo"), body.unknownFields());
        assertEquals(List.of(), body.warnings());
    }

    @Test
    void strictListsEveryUnknownFieldInDocumentOrderOnce() {
        String body =
                """
                {"metadata":{"name":"p","bogus":1},"spec":{"containers":[{"name":"c"},{"name":"d","x":1,"x":2}]},
                 "extra":{"deep":true}}""";
        assertEquals(
                "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: "
                        + "unknown field \"metadata.bogus\", unknown field \"spec.containers[1].x\", unknown field \"extra\"",
                failure(POD, body, JSON, FieldValidation.STRICT).message());
    }

    @Test
    void keepsTypeMetaStatusAndKnownFields() {
        String body =
                """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},
                 "spec":{"containers":[{"name":"c"}]},"status":{"phase":"Running"}}""";
        DecodedBody decoded = decode(POD, body, JSON, FieldValidation.STRICT);
        assertEquals(Json.parseTrusted(body.getBytes(StandardCharsets.UTF_8)), decoded.object());
        assertEquals(List.of(), decoded.unknownFields());
    }

    @Test
    void managedFieldsV1IsKeptVerbatim() {
        String body =
                """
                {"metadata":{"name":"p","managedFields":[{"manager":"m","fieldsType":"FieldsV1",
                  "fieldsV1":{"f:metadata":{"f:labels":{"f:app":{}}}}}]}}""";
        DecodedBody decoded = decode(POD, body, JSON, FieldValidation.STRICT);
        assertTrue(
                decoded.object()
                        .at("/metadata/managedFields/0/fieldsV1/f:metadata/f:labels")
                        .has("f:app"));
    }

    @Test
    void emptyMapsAndListsOfOmitemptyFieldsAreLeftOutAsGoEncodesThem() {
        String body =
                """
                {"metadata":{"name":"c","annotations":{},"labels":{},"finalizers":[]},"data":{}}""";
        DecodedBody decoded = decode(CONFIG_MAP, body, JSON, FieldValidation.STRICT);
        assertEquals(
                Json.parseTrusted(
                        "{\"metadata\":{\"name\":\"c\"}}".getBytes(StandardCharsets.UTF_8)),
                decoded.object());
        ObjectNode pruned =
                BodyDecoder.forKind(CONFIG_MAP)
                        .prune(
                                Json.parseTrusted(body.getBytes(StandardCharsets.UTF_8)),
                                FieldValidation.STRICT)
                        .object();
        assertEquals(decoded.object(), pruned, "a patch result is stored as the same encoding");
    }

    @Test
    void emptyListsOfFieldsWithoutOmitemptyStay() {
        // PodSpec.containers has no omitempty: Go writes an empty list as [].
        DecodedBody decoded =
                decode(POD, "{\"spec\":{\"containers\":[]}}", JSON, FieldValidation.STRICT);
        assertTrue(decoded.object().at("/spec/containers").isArray());
    }

    @Test
    void anAppliedConfigurationKeepsItsEmptyListsForTheMerge() {
        ObjectNode config =
                Json.parseTrusted(
                        """
                {"spec":{"template":{"spec":{"tolerations":[],"nodeSelector":{}}}}}"""
                                .getBytes(StandardCharsets.UTF_8));
        DecodedBody decoded =
                BodyDecoder.forKind(DEPLOYMENT)
                        .pruneAppliedConfiguration(config, FieldValidation.STRICT);
        assertEquals(config, decoded.object());
    }

    // ---- duplicates ----

    @Test
    void strictReportsDuplicateFieldsWithTheirPaths() {
        String body =
                """
                {"kind":"Pod","kind":"Pod","metadata":{"name":"a","name":"b","labels":{"app":"x","app":"y"}}}""";
        assertEquals(
                "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: "
                        + "duplicate field \"kind\", duplicate field \"metadata.name\", duplicate field \"metadata.labels.app\"",
                failure(POD, body, JSON, FieldValidation.STRICT).message());
    }

    @Test
    void warnKeepsTheLastDuplicateAndMergesRepeatedObjects() {
        String body =
                """
                {"metadata":{"name":"a","labels":{"x":"1"}},"metadata":{"name":"b","labels":{"y":"2"}}}""";
        DecodedBody decoded = decode(POD, body, JSON, FieldValidation.WARN);
        assertEquals("b", decoded.object().at("/metadata/name").asText());
        assertEquals(
                Json.parseTrusted("{\"x\":\"1\",\"y\":\"2\"}".getBytes(StandardCharsets.UTF_8)),
                decoded.object().at("/metadata/labels"));
        // Each occurrence is checked on its own, as in Go: the fields inside are not duplicates.
        assertEquals(List.of("metadata"), decoded.duplicateFields());
        assertEquals(List.of("duplicate field \"metadata\""), decoded.warnings());
    }

    @Test
    void yamlDuplicateKeysAreReportedAsTheYamlConverterDoes() {
        String body =
                """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: a
                  name: b
                data:
                  k: v
                  bogus2: x
                bogus: 1
                """;
        ApiStatus status = failure(CONFIG_MAP, body, YAML, FieldValidation.STRICT);
        assertEquals(
                "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: "
                        + "yaml: unmarshal errors:\n  line 5: key \"name\" already set in map, unknown field \"bogus\"",
                status.message());
        DecodedBody warned = decode(CONFIG_MAP, body, YAML, FieldValidation.WARN);
        assertEquals(
                List.of("line 5: key \"name\" already set in map", "unknown field \"bogus\""),
                warned.warnings());
        assertEquals("b", warned.object().at("/metadata/name").asText());
        assertEquals(List.of("metadata.name"), warned.duplicateFields());
    }

    // ---- wrong types ----

    static Stream<Arguments> wrongTypes() {
        return Stream.of(
                Arguments.of(
                        "string for a list",
                        POD,
                        "{\"spec\":{\"containers\":\"x\"}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct "
                                + "field PodSpec.spec.containers of type []v1.Container"),
                Arguments.of(
                        "string for an object",
                        POD,
                        "{\"spec\":\"x\"}",
                        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct "
                                + "field Pod.spec of type v1.PodSpec"),
                Arguments.of(
                        "number for a map value",
                        POD,
                        "{\"metadata\":{\"labels\":{\"a\":1}}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go struct "
                                + "field ObjectMeta.metadata.labels of type string"),
                Arguments.of(
                        "string for an int32 in a list item",
                        POD,
                        "{\"spec\":{\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":\"80\"}]}]}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal string into Go struct "
                                + "field ContainerPort.spec.containers.ports.containerPort of type int32"),
                Arguments.of(
                        "fraction for an int32",
                        DEPLOYMENT,
                        "{\"spec\":{\"replicas\":1.5}}",
                        "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 "
                                + "into Go struct field DeploymentSpec.spec.replicas of type int32"),
                Arguments.of(
                        "int32 overflow",
                        DEPLOYMENT,
                        "{\"spec\":{\"replicas\":3000000000}}",
                        "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number "
                                + "3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32"),
                Arguments.of(
                        "object for a bool",
                        POD,
                        "{\"spec\":{\"hostNetwork\":{}}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal object into Go struct "
                                + "field PodSpec.spec.hostNetwork of type bool"),
                Arguments.of(
                        "body kind and version name the type",
                        DEPLOYMENT,
                        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{\"replicas\":\"3\"}}",
                        "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string "
                                + "into Go struct field DeploymentSpec.spec.replicas of type int32"),
                Arguments.of(
                        "bool for an int-or-string",
                        SERVICE,
                        "{\"spec\":{\"ports\":[{\"targetPort\":true}]}}",
                        "Service in version \"v1\" cannot be handled as a Service: json: cannot unmarshal bool into Go "
                                + "struct field ServicePort.spec.ports.targetPort of type int32"),
                Arguments.of(
                        "bad base64",
                        SECRET,
                        "{\"data\":{\"k\":\"abc!\"}}",
                        "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3"),
                Arguments.of(
                        "bad quantity",
                        POD,
                        "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"abc\"}}}]}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression "
                                + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                Arguments.of(
                        "bad quantity suffix",
                        POD,
                        "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"1mm\"}}}]}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: unable to parse quantity's suffix"),
                Arguments.of(
                        "bad timestamp",
                        POD,
                        "{\"metadata\":{\"creationTimestamp\":\"yesterday\"}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: parsing time \"yesterday\" as "
                                + "\"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\""),
                Arguments.of(
                        "timestamp out of range",
                        POD,
                        "{\"metadata\":{\"creationTimestamp\":\"2024-13-01T00:00:00Z\"}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: parsing time \"2024-13-01T00:00:00Z\": "
                                + "month out of range"),
                Arguments.of(
                        "number for a timestamp",
                        POD,
                        "{\"metadata\":{\"creationTimestamp\":5}}",
                        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go struct "
                                + "field ObjectMeta.metadata.creationTimestamp of type string"),
                Arguments.of(
                        "first wrong type wins over later ones and unknown fields",
                        POD,
                        "{\"bogus\":1,\"metadata\":{\"name\":5},\"spec\":\"x\"}",
                        "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go struct "
                                + "field ObjectMeta.metadata.name of type string"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongTypes")
    void rejectsValuesOfTheWrongTypeInEveryMode(
            String name, GroupVersionKind kind, String body, String message) {
        for (FieldValidation mode : FieldValidation.values()) {
            ApiStatus status = failure(kind, body, JSON, mode);
            assertEquals(400, status.code());
            assertEquals(message, status.message());
        }
    }

    // ---- malformed bodies ----

    static Stream<Arguments> malformedJson() {
        return Stream.of(
                Arguments.of(
                        "bad key",
                        "{\"metadata\": {bad}}",
                        "invalid character 'b' looking for beginning of object key string at line 1, column 15 "
                                + "({\"metadata\": {bad}})"),
                Arguments.of(
                        "truncated",
                        "{\"metadata\":",
                        "unexpected end of JSON input at line 1, column 13 ({\"metadata\":)"),
                Arguments.of(
                        "empty", "", "unexpected end of JSON input at line 1, column 1 (<empty>)"),
                Arguments.of(
                        "second line",
                        "{\n  \"a\": tru }",
                        "invalid character ' ' in literal true (expecting 'e') at line 2, column 11 ({\n  \"a\": tru })"),
                Arguments.of(
                        "trailing value",
                        "{}{}",
                        "invalid character '{' after top-level value at line 1, column 3 ({}{})"),
                Arguments.of(
                        "long body is summarised",
                        "{\"metadata\":{\"name\":\"aaaaaaaaaaaaaaaaaaaaaaaa\",}}",
                        "invalid character '}' looking for beginning of object key string at line 1, column 48 "
                                + "({\"metadata\":{\"name\":\"aaaaaaaaa ...)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedJson")
    void rejectsMalformedJsonNamingThePosition(String name, String body, String detail) {
        ApiStatus status = failure(POD, body, JSON, FieldValidation.IGNORE);
        assertEquals(400, status.code());
        assertEquals(
                "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; "
                        + "json parse error: "
                        + detail,
                status.message());
    }

    @Test
    void rejectsDeeplyNestedJsonWithoutOverflowingTheStack() {
        String body =
                "{\"metadata\":{\"annotations\":"
                        + "[".repeat(100_000)
                        + "]".repeat(100_000)
                        + "}}";
        ApiStatus status = failure(POD, body, JSON, FieldValidation.STRICT);
        assertEquals(400, status.code());
        assertTrue(
                status.message()
                        .contains("invalid character '[' exceeded max depth at line 1, column "),
                status.message());
        String yaml =
                "metadata:\n  annotations: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n";
        assertEquals(400, failure(POD, yaml, YAML, FieldValidation.STRICT).code());
    }

    @Test
    void rejectsMalformedYamlNamingTheLine() {
        ApiStatus status =
                failure(POD, "metadata:\n  name: a\n  labels: [\n", YAML, FieldValidation.STRICT);
        assertEquals(400, status.code());
        assertTrue(
                status.message()
                        .startsWith(
                                "the object provided is unrecognized (must be of type Pod): error converting YAML to JSON: yaml: line "),
                status.message());
    }

    static Stream<Arguments> notObjects() {
        String typeMeta =
                "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
                        + "Kind string \"json:\\\"kind,omitempty\\\"\" }";
        return Stream.of(
                Arguments.of(
                        "json array",
                        "[1]",
                        JSON,
                        "json: cannot unmarshal array into Go value of type "
                                + typeMeta
                                + " (5b315d)"),
                Arguments.of(
                        "json string",
                        "\"x\"",
                        JSON,
                        "json: cannot unmarshal string into Go value of type "
                                + typeMeta
                                + " (227822)"),
                Arguments.of(
                        "yaml list",
                        "- a\n",
                        YAML,
                        "json: cannot unmarshal array into Go value of type "
                                + typeMeta
                                + " (2d20610a)"),
                Arguments.of(
                        "kind not a string",
                        "{\"kind\":5}",
                        JSON,
                        "json: cannot unmarshal number into Go struct field .kind of type string ({\"kind\":5})"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notObjects")
    void rejectsBodiesThatAreNotObjects(String name, String body, String mediaType, String detail) {
        ApiStatus status = failure(POD, body, mediaType, FieldValidation.WARN);
        assertEquals(400, status.code());
        assertEquals(
                "the object provided is unrecognized (must be of type Pod): couldn't get version/kind; "
                        + "json parse error: "
                        + detail,
                status.message());
    }

    // ---- YAML ----

    @Test
    void decodesYamlLikeJson() {
        String body =
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                  creationTimestamp: 2024-01-02T03:04:05Z
                spec:
                  containers:
                  - name: c
                    image: nginx
                    ports:
                    - containerPort: 80.0
                    bogus: true
                """;
        DecodedBody decoded = decode(POD, body, YAML, FieldValidation.WARN);
        assertEquals(
                80, decoded.object().at("/spec/containers/0/ports/0/containerPort").intValue());
        assertTrue(decoded.object().at("/spec/containers/0/ports/0/containerPort").isInt());
        assertEquals(
                "2024-01-02T03:04:05Z",
                decoded.object().at("/metadata/creationTimestamp").asText());
        assertEquals(List.of("unknown field \"spec.containers[0].bogus\""), decoded.warnings());
    }

    @Test
    void yamlUsesTheFirstDocumentOnly() {
        DecodedBody decoded =
                decode(
                        CONFIG_MAP,
                        "metadata:\n  name: first\n---\nmetadata:\n  name: second\n",
                        YAML,
                        FieldValidation.STRICT);
        assertEquals("first", decoded.object().at("/metadata/name").asText());
    }

    @Test
    void yamlNumberForAStringIsAWrongType() {
        assertEquals(
                "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number "
                        + "into Go struct field ConfigMap.data of type string",
                failure(CONFIG_MAP, "data:\n  a: 1\n", YAML, FieldValidation.STRICT).message());
    }

    static Stream<Arguments> yamlSpecifics() {
        String handled = "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: ";
        String unrecognized =
                "the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: ";
        return Stream.of(
                Arguments.of(
                        "binary scalar becomes its text",
                        "data:\n  a: !!binary aGVsbG8=\n",
                        "{\"data\":{\"a\":\"hello\"}}"),
                Arguments.of(
                        "directive and document marker",
                        "%YAML 1.1\n---\nmetadata: {name: a}\n",
                        "{\"metadata\":{\"name\":\"a\"}}"),
                Arguments.of(
                        "YAML 1.1 yes is a bool",
                        "data:\n  a: yes\n",
                        handled
                                + "json: cannot unmarshal bool into Go struct field ConfigMap.data of type string"),
                Arguments.of(
                        "binary where a map belongs",
                        "data: !!binary aGVsbG8=\n",
                        handled
                                + "json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string"),
                Arguments.of(
                        "alias",
                        "metadata: &m\n  name: a\ndata: {x: *m}\n",
                        unrecognized + "line 3: aliases are not supported"),
                Arguments.of(
                        "complex key",
                        "metadata:\n  ? [a, b]\n  : c\n",
                        unrecognized + "line 2: "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("yamlSpecifics")
    void yamlSpecificSyntaxDecodesOrAnswers400(String name, String body, String expected) {
        if (expected.startsWith("{")) {
            assertEquals(
                    Json.parseTrusted(expected.getBytes(StandardCharsets.UTF_8)),
                    decode(CONFIG_MAP, body, YAML, FieldValidation.STRICT).object());
        } else {
            ApiStatus status = failure(CONFIG_MAP, body, YAML, FieldValidation.STRICT);
            assertEquals(400, status.code());
            assertTrue(status.message().startsWith(expected), status.message());
        }
    }

    @Test
    void emptyYamlAndNullAreAnEmptyObject() {
        assertEquals(0, decode(CONFIG_MAP, "", YAML, FieldValidation.STRICT).object().size());
        assertEquals(0, decode(CONFIG_MAP, "null", JSON, FieldValidation.STRICT).object().size());
    }

    // ---- value forms ----

    @Test
    void secretDataIsBase64BytesAndStringDataIsText() {
        String body =
                "{\"data\":{\"a\":\"aGVs\\nbG8=\",\"b\":\"\"},\"stringData\":{\"c\":\"plain text!\"}}";
        DecodedBody decoded = decode(SECRET, body, JSON, FieldValidation.STRICT);
        assertEquals("aGVsbG8=", decoded.object().at("/data/a").asText());
        assertEquals("", decoded.object().at("/data/b").asText());
        assertEquals("plain text!", decoded.object().at("/stringData/c").asText());
    }

    @Test
    void secretDataRejectsAnUnpaddedValue() {
        assertEquals(
                "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 4",
                failure(SECRET, "{\"data\":{\"a\":\"aGVsbG8\"}}", JSON, FieldValidation.STRICT)
                        .message());
    }

    @Test
    void intOrStringAcceptsBothForms() {
        String body =
                "{\"spec\":{\"ports\":[{\"port\":80,\"targetPort\":8080},{\"port\":81,\"targetPort\":\"http\"}]}}";
        JsonNode ports =
                decode(SERVICE, body, JSON, FieldValidation.STRICT).object().at("/spec/ports");
        assertTrue(ports.get(0).get("targetPort").isInt());
        assertEquals("http", ports.get(1).get("targetPort").asText());
    }

    @Test
    void quantityAcceptsStringsAndNumbersAndStoresStrings() {
        String body =
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
                        + "{\"limits\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"requests\":{\"cpu\":2,\"memory\":1.5e3}}}]}}";
        JsonNode resources =
                decode(POD, body, JSON, FieldValidation.STRICT)
                        .object()
                        .at("/spec/containers/0/resources");
        assertEquals("500m", resources.at("/limits/cpu").textValue());
        assertEquals("1Gi", resources.at("/limits/memory").textValue());
        assertEquals("2", resources.at("/requests/cpu").textValue());
        assertEquals("1.5e3", resources.at("/requests/memory").textValue());
    }

    @Test
    void nullPropertiesAreDroppedAndNullMapValuesBecomeZero() {
        DecodedBody decoded =
                decode(
                        POD,
                        "{\"metadata\":{\"name\":null,\"labels\":{\"a\":null}},\"spec\":null}",
                        JSON,
                        FieldValidation.STRICT);
        assertFalse(decoded.object().has("spec"));
        assertFalse(decoded.object().get("metadata").has("name"));
        assertEquals("", decoded.object().at("/metadata/labels/a").textValue());
    }

    // ---- prune after a patch ----

    @Test
    void pruneRemovesAndReportsFieldsAPatchIntroduced() {
        BodyDecoder decoder = BodyDecoder.forKind(DEPLOYMENT);
        ObjectNode patched =
                Json.parseTrusted(
                        "{\"metadata\":{\"name\":\"d\"},\"spec\":{\"replicas\":2,\"replica\":3}}"
                                .getBytes(StandardCharsets.UTF_8));
        DecodedBody pruned = decoder.prune(patched, FieldValidation.WARN);
        assertFalse(pruned.object().get("spec").has("replica"));
        assertEquals(2, pruned.object().at("/spec/replicas").intValue());
        assertEquals(List.of("unknown field \"spec.replica\""), pruned.warnings());
        ApiException strict =
                assertThrows(
                        ApiException.class, () -> decoder.prune(patched, FieldValidation.STRICT));
        assertEquals(
                "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: "
                        + "unknown field \"spec.replica\"",
                strict.status().message());
    }

    // ---- media types ----

    @Test
    void acceptsJsonWithParametersAndNoMediaTypeAsJson() {
        String body = "{\"metadata\":{\"name\":\"p\"}}";
        assertEquals(
                "p",
                decode(POD, body, "application/json; charset=utf-8", FieldValidation.STRICT)
                        .object()
                        .at("/metadata/name")
                        .asText());
        assertEquals(
                "p",
                decode(POD, body, null, FieldValidation.STRICT)
                        .object()
                        .at("/metadata/name")
                        .asText());
    }

    @Test
    void rejectsOtherMediaTypesWith415() {
        assertEquals(415, failure(POD, "{}", "text/plain", FieldValidation.STRICT).code());
    }

    private static DecodedBody decode(
            GroupVersionKind kind, String body, String mediaType, FieldValidation mode) {
        return BodyDecoder.forKind(kind)
                .decode(body.getBytes(StandardCharsets.UTF_8), mediaType, mode);
    }

    private static ApiStatus failure(
            GroupVersionKind kind, String body, String mediaType, FieldValidation mode) {
        return assertThrows(ApiException.class, () -> decode(kind, body, mediaType, mode)).status();
    }
}
