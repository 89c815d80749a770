package io.kubepekko.agent.runtime;

import java.util.Map;
import java.util.function.Function;

/**
 * Kubernetes' {@code $(VAR)} expansion (third_party/forked/golang/expansion): {@code $(NAME)} is
 * replaced by the variable's value when it is defined and left as written otherwise; {@code $$} is
 * an escaped {@code $}; an unterminated {@code $(} and a {@code $} before any other character stay
 * as they are.
 */
public final class Expansion {
    private Expansion() {}

    /**
     * Expands {@code input}, resolving names with {@code mapping} (which answers null for an
     * undefined name).
     */
    public static String expand(String input, Function<String, String> mapping) {
        StringBuilder out = new StringBuilder(input.length());
        int checkpoint = 0;
        for (int cursor = 0; cursor < input.length(); cursor++) {
            if (input.charAt(cursor) == '$' && cursor + 1 < input.length()) {
                out.append(input, checkpoint, cursor);
                char next = input.charAt(cursor + 1);
                int advance;
                if (next == '(') {
                    int close = input.indexOf(')', cursor + 2);
                    if (close < 0) {
                        out.append("$(");
                        advance = 1;
                    } else {
                        String name = input.substring(cursor + 2, close);
                        String value = mapping.apply(name);
                        out.append(value != null ? value : "$(" + name + ")");
                        advance = close - cursor;
                    }
                } else if (next == '$') {
                    out.append('$');
                    advance = 1;
                } else {
                    out.append('$').append(next);
                    advance = 1;
                }
                cursor += advance;
                checkpoint = cursor + 1;
            }
        }
        return out.append(input, checkpoint, input.length()).toString();
    }

    /** A mapping over maps searched in order ({@code MappingFuncFor}). */
    @SafeVarargs
    public static Function<String, String> mappingFor(Map<String, String>... contexts) {
        return name -> {
            for (Map<String, String> c : contexts) {
                String v = c.get(name);
                if (v != null) {
                    return v;
                }
            }
            return null;
        };
    }
}
