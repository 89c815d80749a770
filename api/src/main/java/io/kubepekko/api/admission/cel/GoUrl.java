package io.kubepekko.api.admission.cel;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A URL as Go's {@code net/url} reads it (kube's CEL {@code kubernetes.URL}): {@link
 * #requestUriError} is {@code url.ParseRequestURI}'s verdict, {@link #parse} is {@code url.Parse}.
 * Our own port rather than {@code java.net.URI}, whose grammar differs (it refuses spaces Go keeps
 * and takes hosts Go refuses) and whose errors are not the ones kube shows.
 */
record GoUrl(
        String scheme, String opaque, String host, String path, String rawPath, String rawQuery) {

    /** A text Go refuses, in its words ({@code parse "x": ...}). */
    static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(String raw, String message) {
            super("parse " + GoQuote.quote(raw) + ": " + message);
        }
    }

    private enum Mode {
        HOST,
        PATH,
        QUERY_COMPONENT,
        USER_PASSWORD
    }

    /** Go's {@code url.ParseRequestURI}: an absolute URI or an absolute path, no fragment cut. */
    static GoUrl parseRequestUri(String raw) throws ParseException {
        return parse(raw, raw, true);
    }

    /**
     * Go's {@code url.Parse}: a fragment after '#' is cut off (and not kept: kube never reads it).
     */
    static GoUrl parse(String raw) throws ParseException {
        int hash = raw.indexOf('#');
        return parse(raw, hash < 0 ? raw : raw.substring(0, hash), false);
    }

    private static GoUrl parse(String raw, String u, boolean viaRequest) throws ParseException {
        if (u.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            // Go returns this one unwrapped.
            throw new ParseException(raw, "net/url: invalid control character in URL");
        }
        if (u.isEmpty() && viaRequest) {
            throw new ParseException(raw, "empty url");
        }
        if (u.equals("*")) {
            return new GoUrl("", "", "", "*", "", "");
        }
        String scheme = "";
        String rest = u;
        for (int i = 0; i < u.length(); i++) {
            char c = u.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
                continue;
            }
            if (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
                if (i == 0) {
                    break;
                }
                continue;
            }
            if (c == ':') {
                if (i == 0) {
                    throw new ParseException(raw, "missing protocol scheme");
                }
                scheme = u.substring(0, i).toLowerCase(Locale.ROOT);
                rest = u.substring(i + 1);
            }
            break;
        }
        String rawQuery = "";
        if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
            rest = rest.substring(0, rest.length() - 1);
        } else {
            int q = rest.indexOf('?');
            if (q >= 0) {
                rawQuery = rest.substring(q + 1);
                rest = rest.substring(0, q);
            }
        }
        if (!rest.startsWith("/")) {
            if (!scheme.isEmpty()) {
                return new GoUrl(scheme, rest, "", "", "", rawQuery);
            }
            if (viaRequest) {
                throw new ParseException(raw, "invalid URI for request");
            }
            int slash = rest.indexOf('/');
            if ((slash < 0 ? rest : rest.substring(0, slash)).contains(":")) {
                throw new ParseException(raw, "first path segment in URL cannot contain colon");
            }
        }
        String host = "";
        if ((!scheme.isEmpty() || !viaRequest && !rest.startsWith("///"))
                && rest.startsWith("//")) {
            String authority = rest.substring(2);
            rest = "";
            int slash = authority.indexOf('/');
            if (slash >= 0) {
                rest = authority.substring(slash);
                authority = authority.substring(0, slash);
            }
            host = authority(raw, authority);
        }
        String path;
        try {
            path = unescape(rest, Mode.PATH);
        } catch (IllegalArgumentException e) {
            throw new ParseException(raw, e.getMessage());
        }
        String rawPath = rest.equals(escape(path, Mode.PATH)) ? "" : rest;
        return new GoUrl(scheme, "", host, path, rawPath, rawQuery);
    }

    private static String authority(String raw, String authority) throws ParseException {
        int at = authority.lastIndexOf('@');
        String host = at < 0 ? authority : authority.substring(at + 1);
        if (host.startsWith("[")) {
            int close = host.lastIndexOf(']');
            if (close < 0) {
                throw new ParseException(raw, "missing ']' in host");
            }
            checkPort(raw, host.substring(close + 1));
        } else {
            int colon = host.lastIndexOf(':');
            if (colon >= 0) {
                checkPort(raw, host.substring(colon));
            }
        }
        try {
            host = unescape(host, Mode.HOST);
            if (at >= 0) {
                String userinfo = authority.substring(0, at);
                if (!validUserinfo(userinfo)) {
                    throw new ParseException(raw, "net/url: invalid userinfo");
                }
                unescape(userinfo, Mode.USER_PASSWORD);
            }
        } catch (IllegalArgumentException e) {
            throw new ParseException(raw, e.getMessage());
        }
        return host;
    }

    private static void checkPort(String raw, String colonPort) throws ParseException {
        if (!validOptionalPort(colonPort)) {
            throw new ParseException(
                    raw, "invalid port " + GoQuote.quote(colonPort) + " after host");
        }
    }

    private static boolean validOptionalPort(String port) {
        return port.isEmpty()
                || port.charAt(0) == ':'
                        && port.substring(1).chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean validUserinfo(String s) {
        for (char c : s.toCharArray()) {
            boolean ok =
                    c >= 'a' && c <= 'z'
                            || c >= 'A' && c <= 'Z'
                            || c >= '0' && c <= '9'
                            || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** {@code URL.Host}: the host and port as written, IPv6 in brackets. */
    String hostAndPort() {
        return host;
    }

    /** {@code URL.Hostname()}: the host without port or brackets. */
    String hostname() {
        String h = host;
        int colon = h.lastIndexOf(':');
        if (colon >= 0 && validOptionalPort(h.substring(colon))) {
            h = h.substring(0, colon);
        }
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    /** {@code URL.Port()}: the port, or "". */
    String port() {
        int colon = host.lastIndexOf(':');
        return colon >= 0 && validOptionalPort(host.substring(colon))
                ? host.substring(colon + 1)
                : "";
    }

    /** {@code URL.EscapedPath()}: the path as written when that is a valid encoding of it. */
    String escapedPath() {
        if (!rawPath.isEmpty() && validEncoded(rawPath)) {
            try {
                if (unescape(rawPath, Mode.PATH).equals(path)) {
                    return rawPath;
                }
            } catch (IllegalArgumentException e) {
                // Not a valid encoding: escape the path.
            }
        }
        return path.equals("*") ? "*" : escape(path, Mode.PATH);
    }

    /** {@code URL.Query()}: every key's values, unescaped; malformed pairs are left out. */
    Map<String, List<String>> query() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.isEmpty() || pair.contains(";")) {
                continue;
            }
            int eq = pair.indexOf('=');
            try {
                String key = unescape(eq < 0 ? pair : pair.substring(0, eq), Mode.QUERY_COMPONENT);
                String value = eq < 0 ? "" : unescape(pair.substring(eq + 1), Mode.QUERY_COMPONENT);
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
            } catch (IllegalArgumentException e) {
                // Go's ParseQuery skips a pair it cannot unescape.
            }
        }
        return out;
    }

    private static boolean validEncoded(String s) {
        for (char c : s.toCharArray()) {
            if ("!$&'()*+,;=:@[]%".indexOf(c) < 0 && shouldEscape(c, Mode.PATH)) {
                return false;
            }
        }
        return true;
    }

    private static boolean shouldEscape(int c, Mode mode) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return false;
        }
        if (mode == Mode.HOST && "!$&'()*+,;=:[]<>\"".indexOf(c) >= 0) {
            return false;
        }
        if ("-_.~".indexOf(c) >= 0) {
            return false;
        }
        if ("$&+,/:;=?@".indexOf(c) >= 0) {
            return switch (mode) {
                case PATH -> c == '?';
                case USER_PASSWORD -> c == '@' || c == '/' || c == '?' || c == ':';
                case QUERY_COMPONENT, HOST -> true;
            };
        }
        return true;
    }

    /** Go's {@code unescape}; its errors' words as the exception's message. */
    private static String unescape(String s, Mode mode) {
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
        for (int i = 0; i < in.length; ) {
            int c = in[i] & 0xff;
            if (c == '%') {
                if (i + 2 >= in.length || hex(in[i + 1]) < 0 || hex(in[i + 2]) < 0) {
                    String bad =
                            new String(in, i, Math.min(3, in.length - i), StandardCharsets.UTF_8);
                    throw new IllegalArgumentException("invalid URL escape " + GoQuote.quote(bad));
                }
                if (mode == Mode.HOST
                        && hex(in[i + 1]) < 8
                        && !(in[i + 1] == '2' && in[i + 2] == '5')) {
                    String bad = new String(in, i, 3, StandardCharsets.UTF_8);
                    throw new IllegalArgumentException("invalid URL escape " + GoQuote.quote(bad));
                }
                out.write(hex(in[i + 1]) << 4 | hex(in[i + 2]));
                i += 3;
            } else if (c == '+') {
                out.write(mode == Mode.QUERY_COMPONENT ? ' ' : '+');
                i++;
            } else {
                if (mode == Mode.HOST && c < 0x80 && shouldEscape(c, mode)) {
                    throw new IllegalArgumentException(
                            "invalid character "
                                    + GoQuote.quote(String.valueOf((char) c))
                                    + " in host name");
                }
                out.write(c);
                i++;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String escape(String s, Mode mode) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c < 0x80 && !shouldEscape(c, mode)) {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        return b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
    }
}
