package io.kubepekko.api.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MergePatchTest {

    private static JsonNode json(String s) {
        try {
            return Json.MAPPER.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** RFC 7386 appendix A, every row. */
    static Stream<Arguments> rfc7386AppendixA() {
        return Stream.of(
                arguments("1 replace a member", "{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"),
                arguments(
                        "2 add a member",
                        "{\"a\":\"b\"}",
                        "{\"b\":\"c\"}",
                        "{\"a\":\"b\",\"b\":\"c\"}"),
                arguments("3 null removes", "{\"a\":\"b\"}", "{\"a\":null}", "{}"),
                arguments(
                        "4 null removes only its member",
                        "{\"a\":\"b\",\"b\":\"c\"}",
                        "{\"a\":null}",
                        "{\"b\":\"c\"}"),
                arguments(
                        "5 scalar replaces array",
                        "{\"a\":[\"b\"]}",
                        "{\"a\":\"c\"}",
                        "{\"a\":\"c\"}"),
                arguments(
                        "6 array replaces scalar",
                        "{\"a\":\"c\"}",
                        "{\"a\":[\"b\"]}",
                        "{\"a\":[\"b\"]}"),
                arguments(
                        "7 objects merge recursively",
                        "{\"a\":{\"b\":\"c\"}}",
                        "{\"a\":{\"b\":\"d\",\"c\":null}}",
                        "{\"a\":{\"b\":\"d\"}}"),
                arguments(
                        "8 arrays replace whole",
                        "{\"a\":[{\"b\":\"c\"}]}",
                        "{\"a\":[1]}",
                        "{\"a\":[1]}"),
                arguments(
                        "9 array replaces array",
                        "[\"a\",\"b\"]",
                        "[\"c\",\"d\"]",
                        "[\"c\",\"d\"]"),
                arguments("10 array patch replaces object", "{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]"),
                arguments("11 null patch replaces document", "{\"a\":\"foo\"}", "null", "null"),
                arguments(
                        "12 string patch replaces document",
                        "{\"a\":\"foo\"}",
                        "\"bar\"",
                        "\"bar\""),
                arguments(
                        "13 target nulls are kept",
                        "{\"e\":null}",
                        "{\"a\":1}",
                        "{\"e\":null,\"a\":1}"),
                arguments(
                        "14 object patch replaces array target",
                        "[1,2]",
                        "{\"a\":\"b\",\"c\":null}",
                        "{\"a\":\"b\"}"),
                arguments(
                        "15 nulls in new objects vanish",
                        "{}",
                        "{\"a\":{\"bb\":{\"ccc\":null}}}",
                        "{\"a\":{\"bb\":{}}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rfc7386AppendixA")
    void appliesRfc7386Examples(String name, String target, String patch, String expected) {
        assertEquals(json(expected), MergePatch.apply(json(target), json(patch)));
    }

    static Stream<Arguments> kubernetesPatches() {
        String cm =
                "{\"metadata\":{\"name\":\"cm1\",\"labels\":{\"app\":\"web\"}},\"data\":{\"k\":\"v\"}}";
        return Stream.of(
                arguments(
                        "RFC 7386 section 3 example",
                        "{\"title\":\"Goodbye!\",\"author\":{\"givenName\":\"John\",\"familyName\":\"Doe\"},"
                                + "\"tags\":[\"example\",\"sample\"],\"content\":\"This will be unchanged\"}",
                        "{\"title\":\"Hello!\",\"phoneNumber\":\"+01-123-456-7890\",\"author\":{\"familyName\":null},"
                                + "\"tags\":[\"example\"]}",
                        "{\"title\":\"Hello!\",\"author\":{\"givenName\":\"John\"},\"tags\":[\"example\"],"
                                + "\"content\":\"This will be unchanged\",\"phoneNumber\":\"+01-123-456-7890\"}"),
                arguments(
                        "kubectl label adds",
                        cm,
                        "{\"metadata\":{\"labels\":{\"extra\":\"1\"}}}",
                        "{\"metadata\":{\"name\":\"cm1\",\"labels\":{\"app\":\"web\",\"extra\":\"1\"}},\"data\":{\"k\":\"v\"}}"),
                arguments(
                        "kubectl label removes",
                        cm,
                        "{\"metadata\":{\"labels\":{\"app\":null}}}",
                        "{\"metadata\":{\"name\":\"cm1\",\"labels\":{}},\"data\":{\"k\":\"v\"}}"),
                arguments(
                        "kubectl scale",
                        "{\"spec\":{\"replicas\":1,\"selector\":{}}}",
                        "{\"spec\":{\"replicas\":3}}",
                        "{\"spec\":{\"replicas\":3,\"selector\":{}}}"),
                arguments(
                        "removing a missing member is a no-op",
                        cm,
                        "{\"metadata\":{\"annotations\":null}}",
                        cm),
                arguments("empty patch changes nothing", cm, "{}", cm));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kubernetesPatches")
    void appliesKubernetesStylePatches(String name, String target, String patch, String expected) {
        assertEquals(json(expected), MergePatch.apply(json(target), json(patch)));
    }

    @Test
    void treatsMissingTargetAsAbsent() {
        assertEquals(json("{\"a\":{}}"), MergePatch.apply(null, json("{\"a\":{\"b\":null}}")));
    }

    @Test
    void leavesTargetAndPatchUnchanged() {
        JsonNode target = json("{\"a\":{\"b\":1,\"c\":2}}");
        JsonNode patch = json("{\"a\":{\"b\":null,\"d\":{\"e\":3}}}");
        JsonNode result = MergePatch.apply(target, patch);
        ((ObjectNode) result.get("a").get("d")).put("e", 4);
        assertEquals(json("{\"a\":{\"b\":1,\"c\":2}}"), target);
        assertEquals(json("{\"a\":{\"b\":null,\"d\":{\"e\":3}}}"), patch);
    }

    @Test
    void parsesAnObjectBody() {
        assertEquals(
                json("{\"metadata\":{\"labels\":{\"a\":null}}}"),
                MergePatch.parse(bytes("{\"metadata\":{\"labels\":{\"a\":null}}}")));
    }

    static Stream<Arguments> malformedBodies() {
        return Stream.of(
                arguments("null document", "null", "Invalid JSON Patch"),
                arguments(
                        "array",
                        "[1]",
                        "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"),
                arguments(
                        "string",
                        "\"x\"",
                        "error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}"),
                arguments(
                        "number",
                        "1",
                        "error decoding patch: json: cannot unmarshal number into Go value of type map[string]interface {}"),
                arguments("truncated", "{", "error decoding patch: unexpected end of JSON input"),
                arguments(
                        "missing value",
                        "{\"a\":}",
                        "error decoding patch: invalid character '}' looking for beginning of value"),
                arguments(
                        "single quotes",
                        "{'a':1}",
                        "error decoding patch: invalid character '\\'' looking for beginning of object key string"),
                arguments(
                        "trailing comma",
                        "{\"a\":1,}",
                        "error decoding patch: invalid character '}' looking for beginning of object key string"),
                arguments(
                        "YAML instead of JSON",
                        "a: 1",
                        "error decoding patch: invalid character 'a' looking for beginning of value"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedBodies")
    void rejectsMalformedBodyNamingTheProblem(String name, String body, String message) {
        ApiException e = assertThrows(ApiException.class, () -> MergePatch.parse(bytes(body)));
        assertEquals(400, e.status().code());
        assertEquals("BadRequest", e.status().reason());
        assertEquals(message, e.status().message());
    }
}
