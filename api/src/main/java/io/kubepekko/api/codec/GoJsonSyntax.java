package io.kubepekko.api.codec;

import java.util.Optional;

/**
 * Checks that bytes are one well-formed JSON value and, if not, describes the first error the way
 * Go's {@code encoding/json} scanner does ({@code invalid character '}' looking for beginning of
 * object key string}), because kube-apiserver passes those messages to clients verbatim.
 */
final class GoJsonSyntax {

    /** A syntax error: Go's message and the 0-based byte offset of the offending byte. */
    record Failure(String message, int offset) {
        /** 1-based line and column of the offset, for messages. */
        String position(byte[] data) {
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < Math.min(offset, data.length); i++) {
                if (data[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            return "line " + line + ", column " + (offset - lineStart + 1);
        }
    }

    private static final String EOF = "unexpected end of JSON input";

    /**
     * Nesting limit. Go allows 10000; we stop at Jackson's default, which the decoding pass after
     * this check enforces anyway, and which keeps this recursive check's stack small.
     */
    static final int MAX_DEPTH = 1000;

    private final byte[] data;
    private int i;
    private int depth;

    private GoJsonSyntax(byte[] data) {
        this.data = data;
    }

    static Optional<Failure> check(byte[] data) {
        GoJsonSyntax s = new GoJsonSyntax(data);
        try {
            s.value();
            s.skipSpace();
            if (s.i < data.length) {
                s.fail("after top-level value");
            }
            return Optional.empty();
        } catch (SyntaxFailure f) {
            return Optional.of(f.failure);
        }
    }

    private static final class SyntaxFailure extends Exception {
        private static final long serialVersionUID = 1L;

        final Failure failure;

        SyntaxFailure(Failure failure) {
            super(failure.message(), null, false, false);
            this.failure = failure;
        }
    }

    private void fail(String context) throws SyntaxFailure {
        throw new SyntaxFailure(
                new Failure("invalid character " + quoteChar(data[i] & 0xff) + " " + context, i));
    }

    private int peek() throws SyntaxFailure {
        if (i >= data.length) {
            throw new SyntaxFailure(new Failure(EOF, data.length));
        }
        return data[i] & 0xff;
    }

    private void skipSpace() {
        while (i < data.length
                && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) {
            i++;
        }
    }

    private void value() throws SyntaxFailure {
        skipSpace();
        int c = peek();
        switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    number();
                } else {
                    fail("looking for beginning of value");
                }
            }
        }
    }

    private void enter() throws SyntaxFailure {
        if (++depth > MAX_DEPTH) {
            fail("exceeded max depth");
        }
    }

    private void object() throws SyntaxFailure {
        enter();
        i++;
        skipSpace();
        if (peek() == '}') {
            i++;
            depth--;
            return;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                fail("looking for beginning of object key string");
            }
            string();
            skipSpace();
            if (peek() != ':') {
                fail("after object key");
            }
            i++;
            value();
            skipSpace();
            int c = peek();
            if (c == ',') {
                i++;
            } else if (c == '}') {
                i++;
                depth--;
                return;
            } else {
                fail("after object key:value pair");
            }
        }
    }

    private void array() throws SyntaxFailure {
        enter();
        i++;
        skipSpace();
        if (peek() == ']') {
            i++;
            depth--;
            return;
        }
        while (true) {
            value();
            skipSpace();
            int c = peek();
            if (c == ',') {
                i++;
            } else if (c == ']') {
                i++;
                depth--;
                return;
            } else {
                fail("after array element");
            }
        }
    }

    private void string() throws SyntaxFailure {
        i++;
        while (true) {
            int c = peek();
            if (c == '"') {
                i++;
                return;
            }
            if (c == '\\') {
                i++;
                int e = peek();
                if (e == 'u') {
                    i++;
                    for (int k = 0; k < 4; k++) {
                        if (Character.digit(peek(), 16) < 0) {
                            fail("in \\u hexadecimal character escape");
                        }
                        i++;
                    }
                } else if ("bfnrt\\/\"".indexOf(e) >= 0) {
                    i++;
                } else {
                    fail("in string escape code");
                }
            } else if (c < 0x20) {
                fail("in string literal");
            } else {
                i++;
            }
        }
    }

    private void number() throws SyntaxFailure {
        if (data[i] == '-') {
            i++;
            if (!isDigit(peek())) {
                fail("in numeric literal");
            }
        }
        if (data[i] == '0') {
            i++;
        } else {
            digits();
        }
        if (i < data.length && data[i] == '.') {
            i++;
            if (!isDigit(peek())) {
                fail("after decimal point in numeric literal");
            }
            digits();
        }
        if (i < data.length && (data[i] == 'e' || data[i] == 'E')) {
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            if (!isDigit(peek())) {
                fail("in exponent of numeric literal");
            }
            digits();
        }
    }

    private void digits() {
        while (i < data.length && isDigit(data[i])) {
            i++;
        }
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private void literal(String word) throws SyntaxFailure {
        i++;
        for (int k = 1; k < word.length(); k++) {
            if (peek() != word.charAt(k)) {
                fail("in literal " + word + " (expecting '" + word.charAt(k) + "')");
            }
            i++;
        }
    }

    /** Go's {@code quoteChar}: the byte as a single-quoted Go character literal. */
    static String quoteChar(int c) {
        if (c == '\'') {
            return "'\\''";
        }
        if (c == '"') {
            return "'\"'";
        }
        String body =
                switch (c) {
                    case 7 -> "\\a";
                    case '\b' -> "\\b";
                    case '\f' -> "\\f";
                    case '\n' -> "\\n";
                    case '\r' -> "\\r";
                    case '\t' -> "\\t";
                    case 11 -> "\\v";
                    case '\\' -> "\\\\";
                    default ->
                            c < 0x20 || c == 0x7f
                                    ? String.format("\\x%02x", c)
                                    : c >= 0x80 && c < 0xa0
                                            ? String.format("\\u%04x", c)
                                            : String.valueOf((char) c);
                };
        return "'" + body + "'";
    }
}
