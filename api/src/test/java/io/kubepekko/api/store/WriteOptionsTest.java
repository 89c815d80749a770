package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.status.StatusCause;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The options of a write as kube-apiserver validates them (k8s.io/apimachinery
 * pkg/apis/meta/v1/validation: ValidateCreateOptions, ValidatePatchOptions, ValidateFieldManager).
 */
class WriteOptionsTest {

    static Stream<Arguments> invalidFieldManagers() {
        String longest = "m".repeat(128);
        return Stream.of(
                Arguments.of(
                        "129 bytes",
                        longest + "x",
                        "CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: "
                                + "Too long: may not be more than 128 bytes"),
                Arguments.of(
                        "65 two-byte characters are 130 bytes",
                        "é".repeat(65),
                        "CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: may not be more than 128 bytes"),
                Arguments.of(
                        "a control character",
                        "a\u0007b",
                        "CreateOptions.meta.k8s.io \"\" is invalid: "
                                + "fieldManager: Invalid value: \"a\\ab\": invalid character U+0007 (at position 1)"),
                Arguments.of(
                        "a no-break space after a two-byte character counts bytes",
                        "é\u00a0",
                        "CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Invalid value: \"é\\u00a0\": "
                                + "invalid character U+00A0 (at position 2)"),
                Arguments.of(
                        "one error per character, and the length",
                        longest + "\n\t",
                        "CreateOptions.meta.k8s.io \"\" is invalid: [fieldManager: Too long: may not be more than 128 "
                                + "bytes, fieldManager: Invalid value: \""
                                + longest
                                + "\\n\\t\": invalid character "
                                + "U+000A (at position 128), fieldManager: Invalid value: \""
                                + longest
                                + "\\n\\t\": "
                                + "invalid character U+0009 (at position 129)]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidFieldManagers")
    void anInvalidFieldManagerIs422(String name, String fieldManager, String message) {
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () ->
                                        WriteOptions.parse(
                                                "CreateOptions",
                                                List.of(),
                                                fieldManager,
                                                List.of(),
                                                null))
                        .status();
        assertEquals(422, s.code());
        assertEquals("Invalid", s.reason());
        assertEquals(message, s.message());
        assertEquals("meta.k8s.io", s.details().group());
        assertEquals("CreateOptions", s.details().kind());
        assertTrue(s.details().causes().stream().allMatch(c -> c.field().equals("fieldManager")));
    }

    @Test
    void everyProblemOfAPatchsOptionsIsOne422InKubesOrder() {
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () ->
                                        WriteOptions.parse(
                                                "PatchOptions",
                                                List.of(
                                                        FieldError.forbidden(
                                                                "force",
                                                                "may not be specified for non-apply patch")),
                                                "m\u0000",
                                                List.of("Some"),
                                                "strict"))
                        .status();
        assertEquals(
                List.of("force", "fieldManager", "dryRun", "fieldValidation"),
                s.details().causes().stream().map(StatusCause::field).toList());
        assertEquals(
                "PatchOptions.meta.k8s.io \"\" is invalid: [force: Forbidden: may not be specified for non-apply "
                        + "patch, fieldManager: Invalid value: \"m\\x00\": invalid character U+0000 (at position 1), dryRun: "
                        + "Unsupported value: [\"Some\"]: supported values: \"All\", fieldValidation: Unsupported value: "
                        + "\"strict\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"]",
                s.message());
    }

    @Test
    void validOptionsParse() {
        WriteOptions o =
                WriteOptions.parse(
                        "UpdateOptions", List.of(), "m".repeat(128), List.of("All"), "Strict");
        assertTrue(o.dryRun());
        assertEquals("m".repeat(128), o.fieldManager());
        assertEquals(FieldValidation.STRICT, o.fieldValidation());
        WriteOptions defaults = WriteOptions.parse("UpdateOptions", List.of(), "", List.of(), "");
        assertFalse(defaults.dryRun());
        assertNull(defaults.fieldManager(), "an empty manager is not set: the User-Agent names it");
        assertEquals(FieldValidation.WARN, defaults.fieldValidation());
        assertEquals(
                "kubectl-client-side-apply",
                WriteOptions.parse(
                                "PatchOptions",
                                List.of(),
                                "kubectl-client-side-apply",
                                List.of(),
                                null)
                        .fieldManager());
        assertEquals(
                "日本 ok",
                WriteOptions.parse("PatchOptions", List.of(), "日本 ok", List.of(), null)
                        .fieldManager(),
                "printable Unicode and the ASCII space are allowed");
    }

    @Test
    void quoteEscapesAsGoDoes() {
        assertEquals(
                "\"a\\\"b\\\\c\\a\\b\\f\\n\\r\\t\\v\\x00\\x7f\"",
                FieldError.quote("a\"b\\c\u0007\b\f\n\r\t\u000b\u0000\u007f"));
        assertEquals("\"é日本\\u00a0\\u200b😀\"", FieldError.quote("é日本\u00a0\u200b😀"));
    }
}
