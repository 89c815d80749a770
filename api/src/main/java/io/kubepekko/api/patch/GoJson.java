package io.kubepekko.api.patch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Decodes patch bodies with the acceptance rules and error texts of Go's {@code encoding/json},
 * which kube-apiserver puts into its 400 responses ({@code error decoding patch: invalid character
 * 'x' looking for beginning of value}). Jackson is more lenient (trailing content) and words its
 * errors differently, so syntax is checked here first with a transcription of Go's scanner states.
 */
final class GoJson {
    private GoJson() {}

    /** Parses {@code body}, failing with 400 {@code prefix + <Go's syntax error>}. */
    static JsonNode parse(byte[] body, String prefix) {
        String problem = new Scanner(body).check();
        if (problem != null) {
            throw ApiStatus.badRequest(prefix + problem).exception();
        }
        try {
            return Json.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            // Go accepted it (e.g. invalid UTF-8 inside a string, which Go replaces); we cannot.
            throw ApiStatus.badRequest(prefix + "invalid JSON: " + e.getOriginalMessage())
                    .exception();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON kind as Go's {@code UnmarshalTypeError} names it. */
    static String kind(JsonNode node) {
        if (node.isObject()) {
            return "object";
        } else if (node.isArray()) {
            return "array";
        } else if (node.isTextual()) {
            return "string";
        } else if (node.isBoolean()) {
            return "bool";
        }
        return "number";
    }

    /** {@code json: cannot unmarshal <kind> into Go value of type <type>}. */
    static String cannotUnmarshal(JsonNode node, String goType) {
        return "json: cannot unmarshal " + kind(node) + " into Go value of type " + goType;
    }

    /** Go's {@code encoding/json} scanner, reduced to validation. */
    private static final class Scanner {
        private enum Context {
            OBJECT_KEY,
            OBJECT_VALUE,
            ARRAY_VALUE
        }

        private interface State {
            void step(int c);
        }

        private final byte[] data;
        private final Deque<Context> stack = new ArrayDeque<>();
        private State step = this::beginValue;
        private boolean endTop;
        private String error;

        Scanner(byte[] data) {
            this.data = data;
        }

        /** Null when valid, else Go's message. */
        String check() {
            for (byte b : data) {
                step.step(b & 0xff);
                if (error != null) {
                    return error;
                }
            }
            if (endTop) {
                return null;
            }
            step.step(' ');
            if (error != null) {
                return error;
            }
            return endTop ? null : "unexpected end of JSON input";
        }

        private static boolean isSpace(int c) {
            return c == ' ' || c == '\t' || c == '\r' || c == '\n';
        }

        private void fail(int c, String context) {
            error = "invalid character " + quoteChar(c) + " " + context;
            step = x -> {};
        }

        private static String quoteChar(int c) {
            if (c == '\'') {
                return "'\\''";
            }
            if (c == '"') {
                return "'\"'";
            }
            return switch (c) {
                case '\n' -> "'\\n'";
                case '\r' -> "'\\r'";
                case '\t' -> "'\\t'";
                case '\\' -> "'\\\\'";
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        yield String.format("'\\x%02x'", c);
                    }
                    // Go quotes the byte as a rune: C1 controls escaped, the rest as Latin-1.
                    yield c >= 0x80 && c < 0xa0
                            ? String.format("'\\u%04x'", c)
                            : "'" + (char) c + "'";
                }
            };
        }

        private void beginValueOrEmpty(int c) {
            if (isSpace(c)) {
                return;
            }
            if (c == ']') {
                endValue(c);
                return;
            }
            beginValue(c);
        }

        private void beginValue(int c) {
            if (isSpace(c)) {
                return;
            }
            switch (c) {
                case '{' -> {
                    stack.push(Context.OBJECT_KEY);
                    step = this::beginStringOrEmpty;
                }
                case '[' -> {
                    stack.push(Context.ARRAY_VALUE);
                    step = this::beginValueOrEmpty;
                }
                case '"' -> step = this::inString;
                case '-' -> step = this::neg;
                case '0' -> step = this::zero;
                case 't' -> step = literal("true", 1);
                case 'f' -> step = literal("false", 1);
                case 'n' -> step = literal("null", 1);
                default -> {
                    if (c >= '1' && c <= '9') {
                        step = this::digits;
                    } else {
                        fail(c, "looking for beginning of value");
                    }
                }
            }
        }

        private void beginStringOrEmpty(int c) {
            if (isSpace(c)) {
                return;
            }
            if (c == '}') {
                stack.pop();
                stack.push(Context.OBJECT_VALUE);
                endValue(c);
                return;
            }
            beginString(c);
        }

        private void beginString(int c) {
            if (isSpace(c)) {
                return;
            }
            if (c == '"') {
                step = this::inString;
            } else {
                fail(c, "looking for beginning of object key string");
            }
        }

        private void endValue(int c) {
            if (stack.isEmpty()) {
                step = this::endTop;
                endTop = true;
                endTop(c);
                return;
            }
            if (isSpace(c)) {
                step = this::endValue;
                return;
            }
            switch (stack.peek()) {
                case OBJECT_KEY -> {
                    if (c == ':') {
                        stack.pop();
                        stack.push(Context.OBJECT_VALUE);
                        step = this::beginValue;
                    } else {
                        fail(c, "after object key");
                    }
                }
                case OBJECT_VALUE -> {
                    if (c == ',') {
                        stack.pop();
                        stack.push(Context.OBJECT_KEY);
                        step = this::beginString;
                    } else if (c == '}') {
                        popContext();
                    } else {
                        fail(c, "after object key:value pair");
                    }
                }
                case ARRAY_VALUE -> {
                    if (c == ',') {
                        step = this::beginValue;
                    } else if (c == ']') {
                        popContext();
                    } else {
                        fail(c, "after array element");
                    }
                }
            }
        }

        private void popContext() {
            stack.pop();
            if (stack.isEmpty()) {
                step = this::endTop;
                endTop = true;
            } else {
                step = this::endValue;
            }
        }

        private void endTop(int c) {
            if (!isSpace(c)) {
                fail(c, "after top-level value");
            }
        }

        private void inString(int c) {
            if (c == '"') {
                step = this::endValue;
            } else if (c == '\\') {
                step = this::inStringEscape;
            } else if (c < 0x20) {
                fail(c, "in string literal");
            }
        }

        private void inStringEscape(int c) {
            switch (c) {
                case 'b', 'f', 'n', 'r', 't', '\\', '/', '"' -> step = this::inString;
                case 'u' -> step = hex(4);
                default -> fail(c, "in string escape code");
            }
        }

        private State hex(int remaining) {
            return c -> {
                if (Character.digit(c, 16) < 0 || c > 'f') {
                    fail(c, "in \\u hexadecimal character escape");
                } else {
                    step = remaining == 1 ? this::inString : hex(remaining - 1);
                }
            };
        }

        private void neg(int c) {
            if (c == '0') {
                step = this::zero;
            } else if (c >= '1' && c <= '9') {
                step = this::digits;
            } else {
                fail(c, "in numeric literal");
            }
        }

        private void digits(int c) {
            if (c >= '0' && c <= '9') {
                return;
            }
            zero(c);
        }

        private void zero(int c) {
            if (c == '.') {
                step = this::dot;
            } else if (c == 'e' || c == 'E') {
                step = this::exponent;
            } else {
                endValue(c);
            }
        }

        private void dot(int c) {
            if (c >= '0' && c <= '9') {
                step = this::fraction;
            } else {
                fail(c, "after decimal point in numeric literal");
            }
        }

        private void fraction(int c) {
            if (c >= '0' && c <= '9') {
                return;
            }
            if (c == 'e' || c == 'E') {
                step = this::exponent;
            } else {
                endValue(c);
            }
        }

        private void exponent(int c) {
            if (c == '+' || c == '-') {
                step = this::exponentSign;
            } else {
                exponentSign(c);
            }
        }

        private void exponentSign(int c) {
            if (c >= '0' && c <= '9') {
                step = this::exponentDigits;
            } else {
                fail(c, "in exponent of numeric literal");
            }
        }

        private void exponentDigits(int c) {
            if (c < '0' || c > '9') {
                endValue(c);
            }
        }

        /** Expects {@code word.charAt(index)} next. */
        private State literal(String word, int index) {
            return c -> {
                char want = word.charAt(index);
                if (c != want) {
                    fail(c, "in literal " + word + " (expecting '" + want + "')");
                } else {
                    step = index + 1 == word.length() ? this::endValue : literal(word, index + 1);
                }
            };
        }
    }
}
