package io.kubepekko.api.auth.serviceaccount;

import java.util.List;
import java.util.stream.Collectors;

/** Go's {@code %q} for the strings and string lists kube's token messages quote. */
final class GoQuote {
    private GoQuote() {}

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** A slice as {@code ["a" "b"]}. */
    static String quote(List<String> list) {
        return list.stream().map(GoQuote::quote).collect(Collectors.joining(" ", "[", "]"));
    }
}
