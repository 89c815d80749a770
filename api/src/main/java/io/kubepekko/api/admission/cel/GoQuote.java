package io.kubepekko.api.admission.cel;

/**
 * Go's {@code strconv.Quote} ({@code %q}), which kube's CEL error messages use for the text at
 * fault and cel-go's {@code format} for strings inside lists and maps: printable characters as they
 * are (Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII
 * space), Go's short escapes, {@code \xNN} for other control characters and {@code \\uNNNN} or
 * {@code \\UNNNNNNNN} for anything else.
 */
final class GoQuote {

    private GoQuote() {}

    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.codePoints().forEach(c -> escape(out, c));
        return out.append('"').toString();
    }

    private static void escape(StringBuilder out, int c) {
        switch (c) {
            case '"' -> out.append("\\\"");
            case '\\' -> out.append("\\\\");
            case 0x07 -> out.append("\\a");
            case '\b' -> out.append("\\b");
            case '\f' -> out.append("\\f");
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            case 0x0b -> out.append("\\v");
            default -> {
                if (printable(c)) {
                    out.appendCodePoint(c);
                } else if (c < 0x20 || c == 0x7f) {
                    out.append(String.format("\\x%02x", c));
                } else if (Character.isSurrogate((char) c) && c <= 0xffff) {
                    // A lone surrogate is no rune: Go's invalid-rune escape.
                    out.append("\\ufffd");
                } else if (c < 0x10000) {
                    out.append(String.format("\\u%04x", c));
                } else {
                    out.append(String.format("\\U%08x", c));
                }
            }
        }
    }

    private static boolean printable(int c) {
        if (c == ' ') {
            return true;
        }
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER,
                    Character.LOWERCASE_LETTER,
                    Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER,
                    Character.NON_SPACING_MARK,
                    Character.ENCLOSING_MARK,
                    Character.COMBINING_SPACING_MARK,
                    Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER,
                    Character.OTHER_NUMBER,
                    Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION,
                    Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION,
                    Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION,
                    Character.MATH_SYMBOL,
                    Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL,
                    Character.OTHER_SYMBOL ->
                    true;
            default -> false;
        };
    }
}
