package io.kubepekko.http.encoding;

import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A Content-Type value read as Go's {@code mime.ParseMediaType} reads it, which is how
 * kube-apiserver picks a request body's decoder ({@code NegotiateInputSerializerForMediaType}): the
 * media type is lowercased and must be a token, optionally {@code /} and a second token; each
 * parameter must be {@code ;name=value} (token or quoted string) and no name may repeat; a trailing
 * {@code ;} is allowed. Parameters are then ignored: {@code application/json; charset=latin1} is
 * JSON.
 */
final class GoMediaType {
    private GoMediaType() {}

    /** The lowercased media type (without parameters), or empty when Go would refuse the value. */
    static Optional<String> parse(String value) {
        int semicolon = value.indexOf(';');
        String base =
                (semicolon < 0 ? value : value.substring(0, semicolon))
                        .toLowerCase(Locale.ROOT)
                        .strip();
        if (!validType(base)) {
            return Optional.empty();
        }
        return semicolon < 0 || validParameters(value.substring(semicolon))
                ? Optional.of(base)
                : Optional.empty();
    }

    private static boolean validType(String type) {
        int main = tokenEnd(type, 0);
        if (main == 0) {
            return false;
        }
        if (main == type.length()) {
            return true;
        }
        if (type.charAt(main) != '/') {
            return false;
        }
        int sub = tokenEnd(type, main + 1);
        return sub > main + 1 && sub == type.length();
    }

    private static boolean validParameters(String rest) {
        Set<String> names = new HashSet<>();
        int i = 0;
        while (true) {
            i = skipSpace(rest, i);
            if (i == rest.length()) {
                return true;
            }
            if (rest.charAt(i) != ';') {
                return false;
            }
            int nameStart = skipSpace(rest, i + 1);
            int nameEnd = tokenEnd(rest, nameStart);
            if (nameEnd == nameStart) {
                // only a trailing ";" (with spaces around it) may stand without a parameter
                return skipSpace(rest, nameStart) == rest.length();
            }
            int eq = skipSpace(rest, nameEnd);
            if (eq == rest.length() || rest.charAt(eq) != '=') {
                return false;
            }
            int valueStart = skipSpace(rest, eq + 1);
            int valueEnd = valueEnd(rest, valueStart);
            if (valueEnd < 0) {
                return false;
            }
            if (!names.add(rest.substring(nameStart, nameEnd).toLowerCase(Locale.ROOT))) {
                return false; // "mime: duplicate parameter name"
            }
            i = valueEnd;
        }
    }

    /**
     * The end of a token or of a quoted string starting at {@code from}, or -1 when there is
     * neither.
     */
    private static int valueEnd(String s, int from) {
        if (from < s.length() && s.charAt(from) == '"') {
            for (int i = from + 1; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length()) {
                    i++;
                } else if (c == '"') {
                    return i + 1;
                }
            }
            return -1;
        }
        int end = tokenEnd(s, from);
        return end == from ? -1 : end;
    }

    private static int tokenEnd(String s, int from) {
        int i = from;
        while (i < s.length() && isTokenChar(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** RFC 1521 / 2045 token characters, as Go's {@code mime} package defines them. */
    private static boolean isTokenChar(char c) {
        return c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?=".indexOf(c) < 0;
    }

    private static int skipSpace(String s, int from) {
        int i = from;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }
}
