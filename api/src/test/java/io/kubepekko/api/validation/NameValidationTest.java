package io.kubepekko.api.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.registry.NameRule;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class NameValidationTest {

    private static final String SUBDOMAIN_MSG =
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                    + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
                    + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    private static final String LABEL_MSG =
            "a lowercase RFC 1123 label must consist of lower case alphanumeric "
                    + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
                    + "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    private static final String DNS1035_MSG =
            "a DNS-1035 label must consist of lower case alphanumeric characters "
                    + "or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  "
                    + "or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    private static final String LABEL_KEY_NAME_MSG =
            "name part must consist of alphanumeric characters, '-', '_' or "
                    + "'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                    + "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    private static final String LABEL_VALUE_MSG =
            "a valid label must be an empty string or consist of alphanumeric "
                    + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  "
                    + "or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    private static final String CONFIG_KEY_MSG =
            "a valid config key must consist of alphanumeric characters, '-', "
                    + "'_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

    static Stream<Arguments> invalidValues() {
        Function<String, List<String>> subdomain = NameValidation::dns1123Subdomain;
        Function<String, List<String>> label = NameValidation::dns1123Label;
        Function<String, List<String>> dns1035 = NameValidation::dns1035Label;
        Function<String, List<String>> qualified = NameValidation::qualifiedName;
        Function<String, List<String>> labelValue = NameValidation::labelValue;
        Function<String, List<String>> configKey = NameValidation::configMapKey;
        Function<String, List<String>> pathSegment = NameValidation::pathSegmentName;
        return Stream.of(
                Arguments.of(
                        "subdomain with upper case", subdomain, "My-App", List.of(SUBDOMAIN_MSG)),
                Arguments.of(
                        "subdomain ending with a dash", subdomain, "app-", List.of(SUBDOMAIN_MSG)),
                Arguments.of(
                        "subdomain too long",
                        subdomain,
                        "a".repeat(254),
                        List.of("must be no more than 253 characters")),
                Arguments.of("label with dots", label, "my.app", List.of("must not contain dots")),
                Arguments.of("label with underscore", label, "my_app", List.of(LABEL_MSG)),
                Arguments.of(
                        "label too long",
                        label,
                        "a".repeat(64),
                        List.of("must be no more than 63 characters")),
                Arguments.of(
                        "dns1035 starting with a digit", dns1035, "1web", List.of(DNS1035_MSG)),
                Arguments.of(
                        "qualified name with two slashes",
                        qualified,
                        "a/b/c",
                        List.of(
                                "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must "
                                        + "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or "
                                        + "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') "
                                        + "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")),
                Arguments.of(
                        "qualified name with empty prefix",
                        qualified,
                        "/app",
                        List.of("prefix part must be non-empty")),
                Arguments.of(
                        "qualified name with upper-case prefix",
                        qualified,
                        "Example.com/app",
                        List.of("prefix part " + SUBDOMAIN_MSG)),
                Arguments.of(
                        "qualified name ending with a dash",
                        qualified,
                        "app-",
                        List.of(LABEL_KEY_NAME_MSG)),
                Arguments.of(
                        "qualified name with empty name",
                        qualified,
                        "example.com/",
                        List.of("name part must be non-empty", LABEL_KEY_NAME_MSG)),
                Arguments.of(
                        "qualified name too long",
                        qualified,
                        "a".repeat(64),
                        List.of("name part must be no more than 63 bytes")),
                Arguments.of("label value with space", labelValue, "a b", List.of(LABEL_VALUE_MSG)),
                Arguments.of(
                        "label value too long",
                        labelValue,
                        "v".repeat(64),
                        List.of("must be no more than 63 bytes")),
                Arguments.of(
                        "config key with space", configKey, "bad key", List.of(CONFIG_KEY_MSG)),
                Arguments.of(
                        "config key starting with two dots",
                        configKey,
                        "..data",
                        List.of("must not start with '..'")),
                Arguments.of(
                        "path segment with slash",
                        pathSegment,
                        "a/b",
                        List.of("may not contain '/'")),
                Arguments.of(
                        "path segment dot-dot", pathSegment, "..", List.of("may not be '..'")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidValues")
    void rejectsWithKubernetesMessages(
            String name,
            Function<String, List<String>> check,
            String value,
            List<String> expected) {
        assertEquals(expected, check.apply(value));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a",
                "web",
                "web-1",
                "1web",
                "a.b.c",
                "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0"
            })
    void acceptsDnsSubdomains(String value) {
        assertTrue(NameValidation.dns1123Subdomain(value).isEmpty());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"app", "app.kubernetes.io/name", "Upper_Case.ok", "example.com/My-Key", "1"})
    void acceptsQualifiedNames(String value) {
        assertTrue(NameValidation.qualifiedName(value).isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "v1", "my_value", "A.b-C"})
    void acceptsLabelValuesIncludingEmpty(String value) {
        assertTrue(NameValidation.labelValue(value).isEmpty());
    }

    @Test
    void allowsTrailingDashOnlyInGenerateNamePrefix() {
        assertTrue(NameValidation.name(NameRule.DNS_SUBDOMAIN, "web-", true).isEmpty());
        assertEquals(
                List.of(SUBDOMAIN_MSG), NameValidation.name(NameRule.DNS_SUBDOMAIN, "web-", false));
    }

    @Test
    void pathSegmentRuleAcceptsColonsUsedByRbacNames() {
        assertTrue(
                NameValidation.name(NameRule.PATH_SEGMENT, "system:controller:deployment", false)
                        .isEmpty());
    }

    @Test
    void portNamesFollowIanaRules() {
        assertEquals(
                List.of("must contain at least one letter (a-z)"), NameValidation.portName("8080"));
        assertEquals(
                List.of(
                        "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                        "must not contain consecutive hyphens"),
                NameValidation.portName("HT--tp"));
        assertTrue(NameValidation.portName("http-alt").isEmpty());
    }

    @Test
    void portNumberOutOfRangeSaysTheRange() {
        assertEquals(
                List.of("must be between 1 and 65535, inclusive"), NameValidation.portNumber(0));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "abc",
                "caf\u00e9",
                "\u20ac5",
                "\ud83d\ude00 smile",
                "x\ud83dy",
                "\ude00",
                "end\ud83d",
                "\u0000\u007f\u0080\u07ff\u0800\uffff"
            })
    void byteLengthCountsUtf8BytesAsTheEncoderDoes(String s) {
        assertEquals(s.getBytes(StandardCharsets.UTF_8).length, NameValidation.byteLength(s), s);
    }
}
