package io.kubepekko.api.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LabelSelectorTest {

    /**
     * apimachinery's message for a qualified name's name part (shared with {@link
     * SelectorCharactersTest}).
     */
    static final String KEY_NAME_RULE =
            "must consist of alphanumeric characters, '-', '_' or '.', and must "
                    + "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
                    + "for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    /** apimachinery's message for a label value. */
    static final String VALUE_RULE =
            "a valid label must be an empty string or consist of alphanumeric "
                    + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  "
                    + "or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

    private static final String SUBDOMAIN_RULE =
            "a lowercase RFC 1123 subdomain must consist of lower case "
                    + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
                    + "'example.com', regex used for validation is "
                    + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    static Stream<Arguments> canonicalForms() {
        return Stream.of(
                arguments("empty string selects everything", "", ""),
                arguments("whitespace only selects everything", " \t ", ""),
                arguments("equals", "x=a", "x=a"),
                arguments("double equals keeps its spelling", "x==a", "x==a"),
                arguments("not equals", "x!=a", "x!=a"),
                arguments("in sorts its values", "x in (b,a)", "x in (a,b)"),
                arguments("notin", "x notin (a)", "x notin (a)"),
                arguments("exists", "x", "x"),
                arguments("does not exist", "!x", "!x"),
                arguments("greater than", "x>1", "x>1"),
                arguments("less than", "x<5", "x<5"),
                arguments("requirements sorted by key", "b=1,a=2", "a=2,b=1"),
                arguments(
                        "whitespace around tokens",
                        "  x = a ,  y in ( b , c )  ",
                        "x=a,y in (b,c)"),
                arguments("empty exact value", "x=", "x="),
                arguments("empty set is the empty value", "x in ()", "x in ()"),
                arguments("empty entries in a set", "x in (a,,b)", "x in (,a,b)"),
                arguments("duplicate set values collapse", "x in (a,a)", "x in (a)"),
                arguments("keywords are values inside a set", "x in (in,notin)", "x in (in,notin)"),
                arguments("keywords as key and value", "in=notin", "in=notin"),
                arguments("prefixed key", "example.com/app=web", "example.com/app=web"),
                arguments("duplicate keys keep input order", "x=b,x=a", "x=b,x=a"),
                arguments("helm release query", "name=r1,owner=helm", "name=r1,owner=helm"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("canonicalForms")
    void parsesToKubernetesCanonicalForm(String name, String input, String canonical) {
        assertEquals(canonical, LabelSelector.parse(input).toString());
    }

    @Test
    void emptySelectorIsEmptyAndMatchesEverything() {
        LabelSelector s = LabelSelector.parse("");
        assertTrue(s.isEmpty());
        assertTrue(s.matches(Map.of()));
        assertTrue(s.matches(Map.of("a", "b")));
        assertFalse(LabelSelector.parse("a").isEmpty());
    }

    static Stream<Arguments> invalidSelectors() {
        return Stream.of(
                arguments(
                        "second value without comma",
                        "x=a b",
                        "found 'b', expected: ',' or 'end of string'"),
                arguments(
                        "leading comma",
                        ",x",
                        "found ',', expected: !, identifier, or 'end of string'"),
                arguments("trailing comma", "x=a,", "found '', expected: identifier after ','"),
                arguments(
                        "operator after a value",
                        "x=a=b",
                        "found '=', expected: ',' or 'end of string'"),
                arguments(
                        "in without parenthesis",
                        "x in a",
                        "unable to parse requirement: found 'a' expected: '('"),
                arguments(
                        "unclosed set",
                        "x in (a",
                        "unable to parse requirement: found '', expected: ',' or ')'"),
                arguments(
                        "operator inside a set",
                        "x in (=)",
                        "unable to parse requirement: found '=', expected: ',', ')' or identifier"),
                arguments(
                        "unknown operator",
                        "x foo",
                        "unable to parse requirement: found 'foo', expected: in, notin, =, ==, !=, gt, lt"),
                arguments(
                        "bang as operator",
                        "x!a",
                        "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"),
                arguments(
                        "bang alone",
                        "!",
                        "unable to parse requirement: found '', expected: identifier"),
                arguments(
                        "parenthesis as exact value",
                        "x=(",
                        "unable to parse requirement: found '(', expected: identifier"),
                arguments(
                        "invalid key character",
                        "a:=b",
                        "unable to parse requirement: <nil>: Invalid value: \"a:\": name part "
                                + KEY_NAME_RULE),
                arguments(
                        "key with two slashes",
                        "a/b/c",
                        "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a valid label key "
                                + KEY_NAME_RULE
                                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"),
                arguments(
                        "empty key prefix",
                        "/a=b",
                        "unable to parse requirement: <nil>: Invalid value: \"/a\": prefix part must be non-empty"),
                arguments(
                        "uppercase key prefix",
                        "Ex.com/a",
                        "unable to parse requirement: <nil>: Invalid value: \"Ex.com/a\": prefix part "
                                + SUBDOMAIN_RULE),
                arguments(
                        "empty key name",
                        "ex.com/=b",
                        "unable to parse requirement: <nil>: Invalid value: \"ex.com/\": name part must be non-empty; "
                                + "name part "
                                + KEY_NAME_RULE),
                arguments(
                        "key name too long",
                        "a".repeat(64),
                        "unable to parse requirement: <nil>: Invalid value: \""
                                + "a".repeat(64)
                                + "\": name part must be no more than 63 bytes"),
                arguments(
                        "invalid value",
                        "x=-a",
                        "unable to parse requirement: values[0][x]: Invalid value: \"-a\": "
                                + VALUE_RULE),
                arguments(
                        "value too long",
                        "x=" + "v".repeat(64),
                        "unable to parse requirement: values[0][x]: Invalid value: \""
                                + "v".repeat(64)
                                + "\": must be no more than 63 bytes"),
                arguments(
                        "several invalid set values",
                        "x in (-a,-b)",
                        "unable to parse requirement: [values[0][x]: Invalid value: \"-a\": "
                                + VALUE_RULE
                                + ", values[1][x]: Invalid value: \"-b\": "
                                + VALUE_RULE
                                + "]"),
                arguments(
                        "negative bound is not a label value",
                        "x<-1",
                        "unable to parse requirement: values[0][x]: Invalid value: \"-1\": "
                                + VALUE_RULE),
                arguments(
                        "non-integer for gt",
                        "x>a",
                        "unable to parse requirement: values[0]: Invalid value: \"a\": "
                                + "for 'Gt', 'Lt' operators, the value must be an integer"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSelectors")
    void rejectsInvalidSelectorWithKubernetesMessage(String name, String input, String message) {
        ApiException e = assertThrows(ApiException.class, () -> LabelSelector.parse(input));
        assertEquals(400, e.status().code());
        assertEquals("BadRequest", e.status().reason());
        assertEquals(message, e.status().message());
    }

    static Stream<Arguments> matching() {
        return Stream.of(
                arguments("equals matches same value", "x=a", Map.of("x", "a"), true),
                arguments("equals rejects other value", "x=a", Map.of("x", "b"), false),
                arguments("equals rejects missing key", "x=a", Map.of(), false),
                arguments("double equals", "x==a", Map.of("x", "a"), true),
                arguments("not equals matches missing key", "x!=a", Map.of(), true),
                arguments("not equals rejects same value", "x!=a", Map.of("x", "a"), false),
                arguments("not equals matches other value", "x!=a", Map.of("x", "b"), true),
                arguments("in matches a member", "x in (a,b)", Map.of("x", "b"), true),
                arguments("in rejects missing key", "x in (a,b)", Map.of(), false),
                arguments("notin matches missing key", "x notin (a)", Map.of(), true),
                arguments("notin rejects a member", "x notin (a)", Map.of("x", "a"), false),
                arguments("exists matches empty value", "x", Map.of("x", ""), true),
                arguments("exists rejects missing key", "x", Map.of(), false),
                arguments("does not exist matches missing", "!x", Map.of(), true),
                arguments("does not exist rejects present", "!x", Map.of("x", "a"), false),
                arguments("empty value matches empty label", "x=", Map.of("x", ""), true),
                arguments("gt compares numbers", "x>1", Map.of("x", "10"), true),
                arguments("gt is strict", "x>1", Map.of("x", "1"), false),
                arguments("gt rejects non-numeric label", "x>1", Map.of("x", "a"), false),
                arguments("gt rejects missing key", "x>1", Map.of(), false),
                arguments("lt compares numbers", "x<1", Map.of("x", "-3"), true),
                arguments("all requirements must hold", "a=1,b=2", Map.of("a", "1"), false),
                arguments(
                        "conjunction holds",
                        "a=1,b=2",
                        Map.of("a", "1", "b", "2", "c", "3"),
                        true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matching")
    void matchesLabelsAsKubernetesDoes(
            String name, String selector, Map<String, String> labels, boolean expected) {
        assertEquals(expected, LabelSelector.parse(selector).matches(labels));
    }

    @Test
    void matchesObjectReadsMetadataLabels() throws Exception {
        JsonNode obj = Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"app\":\"web\"}}}");
        assertTrue(LabelSelector.parse("app=web").matchesObject(obj));
        assertFalse(LabelSelector.parse("app=db").matchesObject(obj));
        assertTrue(
                LabelSelector.parse("!tier")
                        .matchesObject(Json.MAPPER.readTree("{\"metadata\":{}}")));
    }

    static Stream<Arguments> labelSelectorObjects() {
        return Stream.of(
                arguments("match labels", "{\"matchLabels\":{\"app\":\"web\"}}", "app=web"),
                arguments(
                        "match labels sorted by key",
                        "{\"matchLabels\":{\"tier\":\"fe\",\"app\":\"web\"}}",
                        "app=web,tier=fe"),
                arguments(
                        "every expression operator",
                        "{\"matchLabels\":{\"b\":\"1\",\"a\":\"2\"},\"matchExpressions\":["
                                + "{\"key\":\"c\",\"operator\":\"In\",\"values\":[\"y\",\"x\"]},"
                                + "{\"key\":\"d\",\"operator\":\"Exists\"},"
                                + "{\"key\":\"e\",\"operator\":\"DoesNotExist\"},"
                                + "{\"key\":\"f\",\"operator\":\"NotIn\",\"values\":[\"z\"]}]}",
                        "a=2,b=1,c in (x,y),d,!e,f notin (z)"),
                arguments("empty object selects everything", "{}", ""),
                arguments(
                        "empty lists select everything",
                        "{\"matchLabels\":{},\"matchExpressions\":[]}",
                        ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("labelSelectorObjects")
    void convertsLabelSelectorObjectToKubernetesString(String name, String json, String expected)
            throws Exception {
        assertEquals(expected, LabelSelector.fromObject(Json.MAPPER.readTree(json)).toString());
    }

    @Test
    void absentLabelSelectorObjectSelectsNothing() {
        for (JsonNode absent :
                new JsonNode[] {null, NullNode.getInstance(), Json.MAPPER.missingNode()}) {
            LabelSelector s = LabelSelector.fromObject(absent);
            assertTrue(s.matchesNothing());
            assertFalse(s.isEmpty());
            assertFalse(s.matches(Map.of()));
            assertEquals("", s.toString());
        }
    }

    @Test
    void emptyLabelSelectorObjectMatchesEverything() throws Exception {
        LabelSelector s = LabelSelector.fromObject(Json.MAPPER.readTree("{}"));
        assertTrue(s.isEmpty());
        assertTrue(s.matches(Map.of("any", "thing")));
    }

    static Stream<Arguments> invalidLabelSelectorObjects() {
        return Stream.of(
                arguments(
                        "unknown operator",
                        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Foo\"}]}",
                        "\"Foo\" is not a valid label selector operator"),
                arguments(
                        "in without values",
                        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"In\"}]}",
                        "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"),
                arguments(
                        "exists with values",
                        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Exists\",\"values\":[\"x\",\"y\"]}]}",
                        "values: Invalid value: []string{\"x\", \"y\"}: values set must be empty for exists and does not exist"),
                arguments(
                        "invalid key",
                        "{\"matchLabels\":{\"a b\":\"x\"}}",
                        "key: Invalid value: \"a b\": name part " + KEY_NAME_RULE),
                arguments(
                        "invalid value",
                        "{\"matchLabels\":{\"app\":\"-x\"}}",
                        "values[0][app]: Invalid value: \"-x\": " + VALUE_RULE),
                arguments(
                        "invalid key and value",
                        "{\"matchLabels\":{\"a b\":\"-x\"}}",
                        "[key: Invalid value: \"a b\": name part "
                                + KEY_NAME_RULE
                                + ", values[0][a b]: Invalid value: \"-x\": "
                                + VALUE_RULE
                                + "]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidLabelSelectorObjects")
    void rejectsInvalidLabelSelectorObject(String name, String json, String message)
            throws Exception {
        JsonNode node = Json.MAPPER.readTree(json);
        ApiException e = assertThrows(ApiException.class, () -> LabelSelector.fromObject(node));
        assertEquals(400, e.status().code());
        assertEquals(message, e.status().message());
    }

    @Test
    void formatsLabelSelectorObjectForHumans() throws Exception {
        assertEquals(
                "app=web",
                LabelSelector.format(Json.MAPPER.readTree("{\"matchLabels\":{\"app\":\"web\"}}")));
        assertEquals("<none>", LabelSelector.format(Json.MAPPER.readTree("{}")));
        assertEquals("<none>", LabelSelector.format(null));
        assertEquals(
                "<error>",
                LabelSelector.format(
                        Json.MAPPER.readTree(
                                "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Foo\"}]}")));
    }

    @Test
    void reportsExactMatchOnlyForSingleValueEqualityOrIn() {
        LabelSelector s = LabelSelector.parse("a=1,b in (2),c in (3,4),d!=5");
        assertEquals(Optional.of("1"), s.requiresExactMatch("a"));
        assertEquals(Optional.of("2"), s.requiresExactMatch("b"));
        assertEquals(Optional.empty(), s.requiresExactMatch("c"));
        assertEquals(Optional.empty(), s.requiresExactMatch("d"));
        assertEquals(Optional.empty(), s.requiresExactMatch("e"));
    }

    @Test
    void canonicalStringParsesBackToAnEqualSelector() {
        LabelSelector s = LabelSelector.parse("z notin (b,a), y , !x, w>3, v==1");
        assertEquals(s, LabelSelector.parse(s.toString()));
        Map<String, String> labels = new HashMap<>(Map.of("y", "", "w", "4", "v", "1"));
        assertTrue(s.matches(labels));
        labels.put("x", "present");
        assertFalse(s.matches(labels));
    }
}
