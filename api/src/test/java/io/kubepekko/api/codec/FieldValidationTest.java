package io.kubepekko.api.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldValidationTest {

    @ParameterizedTest(name = "\"{0}\" -> {1}")
    @CsvSource(value = {"'', WARN", "Strict, STRICT", "Warn, WARN", "Ignore, IGNORE"})
    void parsesTheValuesKubernetesAccepts(String value, FieldValidation expected) {
        assertEquals(expected, FieldValidation.parse(value));
    }

    @Test
    void absentMeansWarn() {
        assertEquals(FieldValidation.WARN, FieldValidation.parse(null));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"strict", "STRICT", "true", "warn "})
    void rejectsOtherSpellingsAsInvalidOptions(String value) {
        ApiStatus status =
                assertThrows(ApiException.class, () -> FieldValidation.parse(value, "PatchOptions"))
                        .status();
        assertEquals(422, status.code());
        assertEquals("Invalid", status.reason());
        assertEquals(
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \""
                        + value
                        + "\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
                status.message());
    }
}
