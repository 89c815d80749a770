package io.kubepekko.api.admission.cel;

/** Go's {@code strconv.Quote}, which kube's CEL error messages use for the text at fault. */
final class GoQuote {

    private GoQuote() {}

    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.codePoints()
                .forEach(
                        c -> {
                            switch (c) {
                                case '"' -> out.append("\\\"");
                                case '\\' -> out.append("\\\\");
                                case '\n' -> out.append("\\n");
                                case '\t' -> out.append("\\t");
                                case '\r' -> out.append("\\r");
                                default -> {
                                    if (c < 0x20 || c == 0x7f) {
                                        out.append(String.format("\\x%02x", c));
                                    } else {
                                        out.appendCodePoint(c);
                                    }
                                }
                            }
                        });
        return out.append('"').toString();
    }
}
