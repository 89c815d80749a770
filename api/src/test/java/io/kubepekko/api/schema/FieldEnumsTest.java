package io.kubepekko.api.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading {@code field-enums.txt} lines; whether each one is published is checked by
 * ModelSchemaSourceTest.
 */
class FieldEnumsTest {

    @Test
    void readsValuesInTheirWrittenOrderWithCommentsIgnored() {
        FieldEnums enums =
                new FieldEnums(
                        """
                # a comment
                core.v1.Container imagePullPolicy Always,IfNotPresent,Never  # trailing comment
                """);

        assertEquals(
                List.of("Always", "IfNotPresent", "Never"),
                enums.of("core.v1.Container", "imagePullPolicy"));
        assertEquals(1, enums.entries().size());
    }

    @Test
    void quotesStandForTheEmptyString() {
        FieldEnums enums = new FieldEnums("core.v1.ServiceSpec ipFamilies \"\",IPv4,IPv6");

        assertEquals(List.of("", "IPv4", "IPv6"), enums.of("core.v1.ServiceSpec", "ipFamilies"));
    }

    @Test
    void anUnlistedFieldHasNoValues() {
        assertTrue(FieldEnums.builtin().of("core.v1.Container", "restartPolicy").isEmpty());
        assertTrue(new FieldEnums(null).entries().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "core.v1.Container imagePullPolicy",
                "core.v1.Container imagePullPolicy Always, Never",
                "core.v1.Container imagePullPolicy Always,,Never",
                "core.v1.Container imagePullPolicy Always\ncore.v1.Container imagePullPolicy Never",
            })
    void rejectsLinesItCannotRead(String text) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new FieldEnums(text));
        assertTrue(e.getMessage().startsWith("field-enums.txt:"), e.getMessage());
    }
}
