package io.kubepekko.api.meta;

import io.kubepekko.api.status.FieldError;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Go's {@code net/url} percent-encoding for {@link GoUrl}: which bytes each part of a URL escapes,
 * and the refusals of a bad escape or of a character a host may not hold, in Go's words.
 */
final class GoUrlEscaping {
    private GoUrlEscaping() {}

    /** A refusal without the URL; {@link GoUrl#parse} names the URL. */
    static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message, null, false, false);
        }
    }

    /** Go's encoding modes: which bytes a part of the URL escapes. */
    enum Mode {
        PATH,
        HOST,
        ZONE,
        USER_PASSWORD,
        FRAGMENT
    }

    static boolean alphanumeric(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    static boolean shouldEscape(int c, Mode mode) {
        if (alphanumeric(c)) {
            return false;
        }
        if ((mode == Mode.HOST || mode == Mode.ZONE) && "!$&'()*+,;=:[]<>\"".indexOf(c) >= 0) {
            return false;
        }
        if (c == '-' || c == '_' || c == '.' || c == '~') {
            return false;
        }
        if ("$&+,/:;=?@".indexOf(c) >= 0) {
            return switch (mode) {
                case PATH -> c == '?';
                case USER_PASSWORD -> c == '@' || c == '/' || c == '?' || c == ':';
                case FRAGMENT -> false;
                default -> true;
            };
        }
        if (mode == Mode.FRAGMENT && "!()*".indexOf(c) >= 0) {
            return false;
        }
        return true;
    }

    static boolean hex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static String escapeError(String s) {
        return "invalid URL escape " + FieldError.quote(s);
    }

    /** Go's unescape over the UTF-8 bytes of {@code s}. */
    static String unescape(String s, Mode mode) throws Refusal {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; ) {
            int c = bytes[i] & 0xff;
            if (c == '%') {
                if (i + 2 >= bytes.length || !hex(bytes[i + 1]) || !hex(bytes[i + 2])) {
                    int end = Math.min(bytes.length, i + 3);
                    throw new Refusal(
                            escapeError(new String(bytes, i, end - i, StandardCharsets.UTF_8)));
                }
                String escape = new String(bytes, i, 3, StandardCharsets.UTF_8);
                int value = Integer.parseInt(escape.substring(1), 16);
                if (mode == Mode.HOST && value >> 4 < 8 && !escape.equals("%25")) {
                    throw new Refusal(escapeError(escape));
                }
                // A zone may escape what a host may hold unescaped, and a space.
                if (mode == Mode.ZONE
                        && !escape.equals("%25")
                        && value != ' '
                        && shouldEscape(value, Mode.HOST)) {
                    throw new Refusal(escapeError(escape));
                }
                out.write(value);
                i += 3;
            } else {
                if ((mode == Mode.HOST || mode == Mode.ZONE) && c < 0x80 && shouldEscape(c, mode)) {
                    throw new Refusal(
                            "invalid character "
                                    + FieldError.quote(String.valueOf((char) c))
                                    + " in host name");
                }
                out.write(c);
                i++;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static String escape(String s, Mode mode) {
        StringBuilder b = new StringBuilder();
        for (byte raw : s.getBytes(StandardCharsets.UTF_8)) {
            int c = raw & 0xff;
            if (shouldEscape(c, mode)) {
                b.append('%').append(String.format("%02X", c));
            } else {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    static boolean validEncoded(String s, Mode mode) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("!$&'()*+,;=:@[]%".indexOf(c) >= 0) {
                continue;
            }
            if (shouldEscape(c, mode)) {
                return false;
            }
        }
        return true;
    }
}
