package io.kubepekko.api.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.kubepekko.api.status.ApiException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Control and other unusual characters in selectors, as apimachinery's parsers treat them: the
 * label lexer reads bytes and takes a NUL for the end of the input (so {@code "\0"} alone selects
 * everything, as kube-apiserver answers {@code labelSelector=%00}); keys and values are validated
 * and quoted as Go's {@code %q} quotes them; the field selector parser has no notion of NUL and
 * refuses a term without an operator.
 */
class SelectorCharactersTest {

    private static final String KEY_NAME_RULE = LabelSelectorTest.KEY_NAME_RULE;
    private static final String VALUE_RULE = LabelSelectorTest.VALUE_RULE;

    static Stream<Arguments> labelSelectorsThatSelectEverything() {
        return Stream.of(
                arguments("NUL alone is the end of the input", "\0"),
                arguments("what follows a leading NUL is never read", "\0a!!"),
                arguments("whitespace and a NUL", " \t\r\n\0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void labelSelectorsThatSelectEverything(String name, String selector) {
        assertEquals("", LabelSelector.parse(selector).toString());
    }

    static Stream<Arguments> badLabelSelectors() {
        return Stream.of(
                arguments(
                        "SOH in a key",
                        "a\u0001",
                        "unable to parse requirement: <nil>: Invalid value: \"a\\x01\": name part "
                                + KEY_NAME_RULE),
                arguments(
                        "BEL, BS, VT and FF in a key",
                        "\u0007\b\u000b\f",
                        "unable to parse requirement: <nil>: Invalid value: \"\\a\\b\\v\\f\": name part "
                                + KEY_NAME_RULE),
                arguments(
                        "DEL in a key",
                        "a\u007f",
                        "unable to parse requirement: <nil>: Invalid value: \"a\\x7f\": name part "
                                + KEY_NAME_RULE),
                arguments(
                        "a no-break space in a value",
                        "a=\u00a0",
                        "unable to parse requirement: values[0][a]: Invalid value: \"\\u00a0\": "
                                + VALUE_RULE),
                arguments(
                        "a C1 control in a value",
                        "a=b\u0085",
                        "unable to parse requirement: values[0][a]: Invalid value: \"b\\u0085\": "
                                + VALUE_RULE),
                arguments(
                        "a letter outside ASCII stays as it is",
                        "\u00e9",
                        "unable to parse requirement: <nil>: Invalid value: \"\u00e9\": name part "
                                + KEY_NAME_RULE),
                arguments(
                        "a NUL after a key ends the input, what follows is another token",
                        "a\0b",
                        "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"),
                arguments(
                        "a tab separates tokens",
                        "a\tb",
                        "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void badLabelSelectors(String name, String selector, String message) {
        ApiException e = assertThrows(ApiException.class, () -> LabelSelector.parse(selector));
        assertEquals(400, e.status().code());
        assertEquals(message, e.status().message());
    }

    static Stream<Arguments> badFieldSelectors() {
        return Stream.of(
                arguments("NUL", "\0", "invalid selector: '\0'; can't understand '\0'"),
                arguments(
                        "a control character without an operator",
                        "a\u0001b",
                        "invalid selector: 'a\u0001b'; can't understand 'a\u0001b'"),
                arguments(
                        "a bad term among good ones",
                        "b=1,\0",
                        "invalid selector: 'b=1,\0'; can't understand '\0'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void badFieldSelectors(String name, String selector, String message) {
        ApiException e = assertThrows(ApiException.class, () -> FieldSelector.parse(selector));
        assertEquals(400, e.status().code());
        assertEquals(message, e.status().message());
    }
}
