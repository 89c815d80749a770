package io.kubepekko.api.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
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

class JsonPatchTest {

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

    /** RFC 6902 appendix A (the successful examples), plus copy and typical Kubernetes patches. */
    static Stream<Arguments> successfulPatches() {
        return Stream.of(
                arguments(
                        "A.1 add an object member",
                        "{\"foo\":\"bar\"}",
                        "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
                        "{\"baz\":\"qux\",\"foo\":\"bar\"}"),
                arguments(
                        "A.2 add an array element",
                        "{\"foo\":[\"bar\",\"baz\"]}",
                        "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
                        "{\"foo\":[\"bar\",\"qux\",\"baz\"]}"),
                arguments(
                        "A.3 remove an object member",
                        "{\"baz\":\"qux\",\"foo\":\"bar\"}",
                        "[{\"op\":\"remove\",\"path\":\"/baz\"}]",
                        "{\"foo\":\"bar\"}"),
                arguments(
                        "A.4 remove an array element",
                        "{\"foo\":[\"bar\",\"qux\",\"baz\"]}",
                        "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]",
                        "{\"foo\":[\"bar\",\"baz\"]}"),
                arguments(
                        "A.5 replace a value",
                        "{\"baz\":\"qux\",\"foo\":\"bar\"}",
                        "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
                        "{\"baz\":\"boo\",\"foo\":\"bar\"}"),
                arguments(
                        "A.6 move a value",
                        "{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},\"qux\":{\"corge\":\"grault\"}}",
                        "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":\"/qux/thud\"}]",
                        "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\",\"thud\":\"fred\"}}"),
                arguments(
                        "A.7 move an array element",
                        "{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
                        "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]",
                        "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}"),
                arguments(
                        "A.8 test a value: success",
                        "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
                        "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},{\"op\":\"test\",\"path\":\"/foo/1\",\"value\":2}]",
                        "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}"),
                arguments(
                        "A.10 add a nested member object",
                        "{\"foo\":\"bar\"}",
                        "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grandchild\":{}}}]",
                        "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}"),
                arguments(
                        "A.11 ignore unrecognized elements",
                        "{\"foo\":\"bar\"}",
                        "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"xyz\":123}]",
                        "{\"foo\":\"bar\",\"baz\":\"qux\"}"),
                // A.14 itself ("/~01" naming the key "~1") is not here: zjsonpatch 0.4.16 decodes
                // ~0 before
                // ~1 and so cannot address a key containing "~1"; evanphx/json-patch can.
                arguments(
                        "escaped slash and tilde",
                        "{\"a/b\":1,\"c~d\":2}",
                        "[{\"op\":\"replace\",\"path\":\"/a~1b\",\"value\":3},{\"op\":\"remove\",\"path\":\"/c~0d\"}]",
                        "{\"a/b\":3}"),
                arguments(
                        "A.16 add an array value",
                        "{\"foo\":[\"bar\"]}",
                        "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\",\"def\"]}]",
                        "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}"),
                arguments(
                        "copy a value",
                        "{\"a\":{\"b\":1}}",
                        "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/c\"}]",
                        "{\"a\":{\"b\":1},\"c\":{\"b\":1}}"),
                arguments(
                        "kubectl patch --type json",
                        "{\"data\":{\"k\":\"v\"}}",
                        "[{\"op\":\"add\",\"path\":\"/data/j\",\"value\":\"v\"}]",
                        "{\"data\":{\"k\":\"v\",\"j\":\"v\"}}"),
                arguments(
                        "test then replace as an optimistic lock",
                        "{\"metadata\":{\"resourceVersion\":\"7\"},\"data\":{\"k\":\"v\"}}",
                        "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"7\"},"
                                + "{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"w\"}]",
                        "{\"metadata\":{\"resourceVersion\":\"7\"},\"data\":{\"k\":\"w\"}}"),
                arguments(
                        "managedFields reset of the CSA to SSA migration",
                        "{\"metadata\":{\"managedFields\":[{\"manager\":\"kubectl-client-side-apply\"}]}}",
                        "[{\"op\":\"replace\",\"path\":\"/metadata/managedFields\",\"value\":[{}]}]",
                        "{\"metadata\":{\"managedFields\":[{}]}}"),
                arguments(
                        "replace of a missing member adds it, as evanphx/json-patch does",
                        "{\"a\":1}",
                        "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":2}]",
                        "{\"a\":1,\"b\":2}"),
                arguments(
                        "add without value adds null, as evanphx/json-patch does",
                        "{\"a\":1}",
                        "[{\"op\":\"add\",\"path\":\"/b\"}]",
                        "{\"a\":1,\"b\":null}"),
                arguments(
                        "replace of the whole document",
                        "{\"a\":1}",
                        "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"b\":2}}]",
                        "{\"b\":2}"),
                arguments(
                        "test of the whole document, then a copy of it into itself",
                        "{\"a\":1}",
                        "[{\"op\":\"test\",\"path\":\"\",\"value\":{\"a\":1}},{\"op\":\"copy\",\"from\":\"\",\"path\":\"/c\"}]",
                        "{\"a\":1,\"c\":{\"a\":1}}"),
                arguments("null body is no operations", "{\"a\":1}", "null", "{\"a\":1}"),
                arguments("empty list is no operations", "{\"a\":1}", "[]", "{\"a\":1}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("successfulPatches")
    void appliesPatch(String name, String target, String patch, String expected) {
        assertEquals(json(expected), JsonPatch.apply(json(target), bytes(patch)));
    }

    @Test
    void leavesTargetUnchanged() {
        JsonNode target = json("{\"a\":{\"b\":1}}");
        JsonPatch.apply(target, bytes("[{\"op\":\"replace\",\"path\":\"/a/b\",\"value\":2}]"));
        assertEquals(json("{\"a\":{\"b\":1}}"), target);
    }

    /** Every failure to apply is 422 Invalid with kube-apiserver's generic text and no details. */
    static Stream<Arguments> operationsThatDoNotApply() {
        return Stream.of(
                arguments(
                        "A.9 failed test",
                        "{\"baz\":\"qux\"}",
                        "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]"),
                arguments(
                        "A.12 add to a nonexistent target",
                        "{\"foo\":\"bar\"}",
                        "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]"),
                arguments(
                        "A.15 string is not a number",
                        "{\"/\":9,\"a\":10}",
                        "[{\"op\":\"test\",\"path\":\"/a\",\"value\":\"10\"}]"),
                arguments(
                        "failed test of a data key",
                        "{\"data\":{\"key\":\"a\"}}",
                        "[{\"op\":\"test\",\"path\":\"/data/key\",\"value\":\"b\"}]"),
                arguments(
                        "failed test stops later operations",
                        "{\"a\":1}",
                        "[{\"op\":\"test\",\"path\":\"/a\",\"value\":2},{\"op\":\"remove\",\"path\":\"/a\"}]"),
                arguments(
                        "remove of a missing member",
                        "{\"a\":1}",
                        "[{\"op\":\"remove\",\"path\":\"/b\"}]"),
                arguments(
                        "replace beyond the end of an array",
                        "{\"a\":[1]}",
                        "[{\"op\":\"replace\",\"path\":\"/a/5\",\"value\":2}]"),
                arguments(
                        "move from a missing member",
                        "{\"a\":1}",
                        "[{\"op\":\"move\",\"from\":\"/x\",\"path\":\"/b\"}]"),
                arguments(
                        "unknown operation",
                        "{\"a\":1}",
                        "[{\"op\":\"frobnicate\",\"path\":\"/a\"}]"),
                arguments("operation without op", "{\"a\":1}", "[{\"path\":\"/a\"}]"),
                arguments("operation without path", "{\"a\":1}", "[{\"op\":\"remove\"}]"),
                arguments(
                        "path not a JSON pointer",
                        "{\"a\":1}",
                        "[{\"op\":\"add\",\"path\":\"a\",\"value\":1}]"),
                arguments("null operation", "{\"a\":1}", "[null]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operationsThatDoNotApply")
    void answersInvalidWhenAnOperationDoesNotApply(String name, String target, String patch) {
        ApiException e =
                assertThrows(ApiException.class, () -> JsonPatch.apply(json(target), bytes(patch)));
        assertEquals(422, e.status().code());
        assertEquals("Invalid", e.status().reason());
        assertEquals(
                "the server rejected our request due to an error in our request",
                e.status().message());
        assertNull(e.status().details().kind());
        assertEquals(0, e.status().details().causes().size());
    }

    static Stream<Arguments> malformedBodies() {
        return Stream.of(
                arguments(
                        "not JSON",
                        "not json",
                        "invalid character 'o' in literal null (expecting 'u')"),
                arguments(
                        "bare word", "xyz", "invalid character 'x' looking for beginning of value"),
                arguments("empty body", "", "unexpected end of JSON input"),
                arguments("unterminated array", "[", "unexpected end of JSON input"),
                arguments(
                        "trailing content", "[] x", "invalid character 'x' after top-level value"),
                arguments(
                        "missing colon",
                        "[{\"op\" \"add\"}]",
                        "invalid character '\"' after object key"),
                arguments(
                        "missing comma between members",
                        "[{\"op\":\"add\" \"path\":\"/a\"}]",
                        "invalid character '\"' after object key:value pair"),
                arguments(
                        "missing comma between elements",
                        "[1 2]",
                        "invalid character '2' after array element"),
                arguments(
                        "unquoted key",
                        "[{op:1}]",
                        "invalid character 'o' looking for beginning of object key string"),
                arguments(
                        "bad string escape",
                        "[\"\\x\"]",
                        "invalid character 'x' in string escape code"),
                arguments(
                        "bad unicode escape",
                        "[\"\\u12g4\"]",
                        "invalid character 'g' in \\u hexadecimal character escape"),
                arguments(
                        "control character in string",
                        "[\"a\nb\"]",
                        "invalid character '\\n' in string literal"),
                arguments("lone minus", "[-]", "invalid character ']' in numeric literal"),
                arguments(
                        "no digits after point",
                        "[1.]",
                        "invalid character ']' after decimal point in numeric literal"),
                arguments(
                        "no exponent digits",
                        "[1e]",
                        "invalid character ']' in exponent of numeric literal"),
                arguments(
                        "truncated literal",
                        "[tru]",
                        "invalid character ']' in literal true (expecting 'e')"),
                arguments(
                        "object instead of list",
                        "{\"op\":\"add\"}",
                        "json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"),
                arguments(
                        "string instead of list",
                        "\"add\"",
                        "json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp"),
                arguments(
                        "number element",
                        "[1]",
                        "json: cannot unmarshal number into Go value of type handlers.jsonPatchOp"),
                arguments(
                        "array element",
                        "[[]]",
                        "json: cannot unmarshal array into Go value of type handlers.jsonPatchOp"),
                arguments(
                        "number op",
                        "[{\"op\":1,\"path\":\"/a\"}]",
                        "json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string"),
                arguments(
                        "object path",
                        "[{\"op\":\"add\",\"path\":{}}]",
                        "json: cannot unmarshal object into Go struct field jsonPatchOp.path of type string"),
                arguments(
                        "boolean from",
                        "[{\"op\":\"move\",\"from\":true,\"path\":\"/a\"}]",
                        "json: cannot unmarshal bool into Go struct field jsonPatchOp.from of type string"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedBodies")
    void rejectsMalformedBodyWithGoDecodingMessage(String name, String body, String goError) {
        ApiException e = assertThrows(ApiException.class, () -> JsonPatch.parse(bytes(body)));
        assertEquals(400, e.status().code());
        assertEquals("BadRequest", e.status().reason());
        assertEquals("error decoding patch: " + goError, e.status().message());
    }

    @Test
    void rejectsMoreThanTenThousandOperations() {
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i <= JsonPatch.MAX_OPERATIONS; i++) {
            body.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/a\",\"value\":1}");
        }
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> JsonPatch.parse(bytes(body.append("]").toString())));
        assertEquals(413, e.status().code());
        assertEquals("RequestEntityTooLarge", e.status().reason());
        assertEquals(
                "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
                e.status().message());
    }

    @Test
    void acceptsExactlyTenThousandOperations() {
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < JsonPatch.MAX_OPERATIONS; i++) {
            body.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/a\",\"value\":1}");
        }
        assertEquals(
                JsonPatch.MAX_OPERATIONS,
                JsonPatch.parse(bytes(body.append("]").toString())).size());
    }

    /** Each copy doubles the object: without a limit twenty of them need more than a heap. */
    private static String doublingCopies(int times) {
        StringBuilder patch = new StringBuilder("[");
        for (int i = 0; i < times; i++) {
            patch.append(i == 0 ? "" : ",")
                    .append("{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/a/c")
                    .append(i)
                    .append("\"}");
        }
        return patch.append("]").toString();
    }

    @Test
    void copiesThatAddMoreThanThreeMebibytesAreRefusedBeforeTheyAreMade() {
        String target = "{\"a\":{\"x\":\"" + "v".repeat(1000) + "\"}}";
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> JsonPatch.apply(json(target), bytes(doublingCopies(40))));
        assertEquals(422, e.status().code());
        assertEquals(
                "the server rejected our request due to an error in our request",
                e.status().message());
    }

    @Test
    void copiesUpToTheLimitApply() {
        String target = "{\"a\":{\"x\":\"" + "v".repeat(1000) + "\"}}";
        JsonNode patched =
                JsonPatch.apply(json(target), bytes(doublingCopies(10))); // ~1 MiB copied
        assertEquals(1024 * 1010, Json.byteSize(patched.get("a")), 1024 * 40);
    }
}
