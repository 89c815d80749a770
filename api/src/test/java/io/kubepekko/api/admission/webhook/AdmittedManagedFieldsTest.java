package io.kubepekko.api.admission.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The managedFields a write keeps after its mutating webhooks: theirs when valid, else the recorded
 * ones with kube's warning.
 */
class AdmittedManagedFieldsTest {

    private static JsonNode list(String json) {
        return Json.parseTrusted(
                        ("{'m':" + json + "}").replace('\'', '"').getBytes(StandardCharsets.UTF_8))
                .get("m");
    }

    private static final JsonNode RECORDED =
            list(
                    "[{'manager':'applier','operation':'Apply','apiVersion':'v1',"
                            + "'fieldsType':'FieldsV1','fieldsV1':{'f:data':{'f:k':{}}}}]");

    @Test
    void theWebhooksValidChangeIsKept() {
        JsonNode changed =
                list(
                        "[{'manager':'applier','operation':'Apply','apiVersion':'v1',"
                                + "'fieldsType':'FieldsV1','fieldsV1':{'f:data':{'f:k':{}}}},"
                                + "{'manager':'webhook','operation':'Update','apiVersion':'v1',"
                                + "'fieldsType':'FieldsV1','fieldsV1':{'f:metadata':{'f:labels':{'f:x':{}}}}}]");
        AdmittedManagedFields.Kept kept = AdmittedManagedFields.of(RECORDED, changed);
        assertSame(changed, kept.managedFields());
        assertTrue(kept.warning().isEmpty());
    }

    @Test
    void removedManagedFieldsStayRemoved() {
        AdmittedManagedFields.Kept kept = AdmittedManagedFields.of(RECORDED, null);
        assertNull(kept.managedFields());
        assertTrue(kept.warning().isEmpty());
    }

    static Stream<Arguments> invalid() {
        String prefix =
                ".metadata.managedFields was in an invalid state after admission; this could be"
                        + " caused by an outdated mutating admission controller; please fix your"
                        + " requests: ";
        return Stream.of(
                Arguments.of(
                        "an unknown operation",
                        "[{'manager':'m','operation':'Patch','apiVersion':'v1','fieldsType':'FieldsV1'}]",
                        prefix
                                + "metadata.managedFields[0].operation: Invalid value: \"Patch\":"
                                + " must be `Apply` or `Update`"),
                Arguments.of(
                        "two problems, aggregated",
                        "[{'manager':'m','operation':'Patch','apiVersion':'v1','fieldsType':'FieldsV2'}]",
                        prefix
                                + "[metadata.managedFields[0].operation: Invalid value: \"Patch\":"
                                + " must be `Apply` or `Update`, metadata.managedFields[0].fieldsType:"
                                + " Invalid value: \"FieldsV2\": must be `FieldsV1`]"),
                Arguments.of(
                        "no fieldsType",
                        "[{'manager':'m','operation':'Update','apiVersion':'v1'}]",
                        prefix + "missing fieldsType in managed fields entry 0"),
                Arguments.of(
                        "no apiVersion",
                        "[{'manager':'m','operation':'Update','fieldsType':'FieldsV1'}]",
                        prefix + "apiVersion must not be empty"),
                Arguments.of(
                        "an empty entry",
                        "[{}]",
                        prefix
                                + "metadata.managedFields[0].operation: Invalid value: \"\":"
                                + " must be `Apply` or `Update`"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidManagedFieldsAreResetWithKubesWarning(String name, String after, String warning) {
        AdmittedManagedFields.Kept kept = AdmittedManagedFields.of(RECORDED, list(after));
        assertSame(RECORDED, kept.managedFields());
        assertEquals(Optional.of(warning), kept.warning());
    }
}
