package io.kubepekko.api.meta;

import io.kubepekko.api.status.FieldError;
import java.util.Locale;
import java.util.Optional;

/**
 * A URL as Go's {@code net/url.Parse} reads it, for the flags kube-apiserver checks with it ({@code
 * --service-account-issuer}, {@code --service-account-jwks-uri}): the same refusals in Go's words
 * ({@code parse "<url>": <reason>}) and {@link #toString()} as Go's {@code URL.String()}, which
 * kube prints back. Only what those checks need: no query parsing, no resolution.
 */
public final class GoUrl {

    private final String scheme;
    private final String opaque;
    private final String username;
    private final String password;
    private final boolean hasUser;
    private final String host;
    private final String path;
    private final String rawPath;
    private final boolean omitHost;
    private final boolean forceQuery;
    private final String rawQuery;
    private final String fragment;
    private final String rawFragment;

    private GoUrl(Builder b) {
        this.scheme = b.scheme;
        this.opaque = b.opaque;
        this.username = b.username;
        this.password = b.password;
        this.hasUser = b.hasUser;
        this.host = b.host;
        this.path = b.path;
        this.rawPath = b.rawPath;
        this.omitHost = b.omitHost;
        this.forceQuery = b.forceQuery;
        this.rawQuery = b.rawQuery;
        this.fragment = b.fragment;
        this.rawFragment = b.rawFragment;
    }

    /** What Go's {@code url.Parse} refuses; the message is its {@code *url.Error}'s. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String url, String reason) {
            super("parse " + FieldError.quote(url) + ": " + reason, null, false, false);
        }
    }

    /** The scheme, lower-cased as Go keeps it; empty when there is none. */
    public String scheme() {
        return scheme;
    }

    /** The host (with its port), empty when there is none. */
    public String host() {
        return host;
    }

    /**
     * Go's {@code URL.User.String()} (the escaped user name, then {@code :password} when set), or
     * empty when the URL has no user information.
     */
    public Optional<String> user() {
        if (!hasUser) {
            return Optional.empty();
        }
        String user = GoUrlEscaping.escape(username, GoUrlEscaping.Mode.USER_PASSWORD);
        return Optional.of(
                password == null
                        ? user
                        : user
                                + ":"
                                + GoUrlEscaping.escape(password, GoUrlEscaping.Mode.USER_PASSWORD));
    }

    /** The fragment, unescaped; empty when there is none. */
    public String fragment() {
        return fragment;
    }

    /** The query as written, without its "?"; empty when there is none. */
    public String rawQuery() {
        return rawQuery;
    }

    /** Go's {@code url.Parse}. */
    public static GoUrl parse(String rawUrl) throws Invalid {
        int hash = rawUrl.indexOf('#');
        String u = hash < 0 ? rawUrl : rawUrl.substring(0, hash);
        String frag = hash < 0 ? "" : rawUrl.substring(hash + 1);
        Builder b;
        try {
            b = parseWithoutFragment(u);
        } catch (GoUrlEscaping.Refusal e) {
            throw new Invalid(u, e.getMessage());
        }
        try {
            b.fragment = GoUrlEscaping.unescape(frag, GoUrlEscaping.Mode.FRAGMENT);
            b.rawFragment =
                    GoUrlEscaping.escape(b.fragment, GoUrlEscaping.Mode.FRAGMENT).equals(frag)
                            ? ""
                            : frag;
        } catch (GoUrlEscaping.Refusal e) {
            throw new Invalid(rawUrl, e.getMessage());
        }
        return new GoUrl(b);
    }

    private static Builder parseWithoutFragment(String rawUrl) throws GoUrlEscaping.Refusal {
        for (int i = 0; i < rawUrl.length(); i++) {
            char c = rawUrl.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new GoUrlEscaping.Refusal("net/url: invalid control character in URL");
            }
        }
        Builder b = new Builder();
        if (rawUrl.equals("*")) {
            b.path = "*";
            return b;
        }
        String rest = rawUrl;
        int colon = schemeEnd(rawUrl);
        if (colon >= 0) {
            b.scheme = rawUrl.substring(0, colon).toLowerCase(Locale.ROOT);
            rest = rawUrl.substring(colon + 1);
        }
        if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
            b.forceQuery = true;
            rest = rest.substring(0, rest.length() - 1);
        } else {
            int q = rest.indexOf('?');
            if (q >= 0) {
                b.rawQuery = rest.substring(q + 1);
                rest = rest.substring(0, q);
            }
        }
        if (!rest.startsWith("/")) {
            if (!b.scheme.isEmpty()) {
                b.opaque = rest;
                return b;
            }
            int slash = rest.indexOf('/');
            String segment = slash < 0 ? rest : rest.substring(0, slash);
            if (segment.contains(":")) {
                throw new GoUrlEscaping.Refusal("first path segment in URL cannot contain colon");
            }
        }
        if ((!b.scheme.isEmpty() || !rest.startsWith("///")) && rest.startsWith("//")) {
            String authority = rest.substring(2);
            rest = "";
            int slash = authority.indexOf('/');
            if (slash >= 0) {
                rest = authority.substring(slash);
                authority = authority.substring(0, slash);
            }
            parseAuthority(authority, b);
        } else if (!b.scheme.isEmpty() && rest.startsWith("/")) {
            b.omitHost = true;
        }
        b.path = GoUrlEscaping.unescape(rest, GoUrlEscaping.Mode.PATH);
        b.rawPath = GoUrlEscaping.escape(b.path, GoUrlEscaping.Mode.PATH).equals(rest) ? "" : rest;
        return b;
    }

    /** Go's getScheme: the index of the scheme's colon, or -1 when there is no scheme. */
    private static int schemeEnd(String rawUrl) throws GoUrlEscaping.Refusal {
        for (int i = 0; i < rawUrl.length(); i++) {
            char c = rawUrl.charAt(i);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
                continue;
            }
            if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
                if (i == 0) {
                    return -1;
                }
                continue;
            }
            if (c == ':') {
                if (i == 0) {
                    throw new GoUrlEscaping.Refusal("missing protocol scheme");
                }
                return i;
            }
            return -1;
        }
        return -1;
    }

    private static void parseAuthority(String authority, Builder b) throws GoUrlEscaping.Refusal {
        int at = authority.lastIndexOf('@');
        b.host = parseHost(at < 0 ? authority : authority.substring(at + 1));
        if (at < 0) {
            return;
        }
        String userinfo = authority.substring(0, at);
        if (!validUserinfo(userinfo)) {
            throw new GoUrlEscaping.Refusal("net/url: invalid userinfo");
        }
        b.hasUser = true;
        int colon = userinfo.indexOf(':');
        if (colon < 0) {
            b.username = GoUrlEscaping.unescape(userinfo, GoUrlEscaping.Mode.USER_PASSWORD);
        } else {
            b.username =
                    GoUrlEscaping.unescape(
                            userinfo.substring(0, colon), GoUrlEscaping.Mode.USER_PASSWORD);
            b.password =
                    GoUrlEscaping.unescape(
                            userinfo.substring(colon + 1), GoUrlEscaping.Mode.USER_PASSWORD);
        }
    }

    private static String parseHost(String host) throws GoUrlEscaping.Refusal {
        if (host.startsWith("[")) {
            int close = host.lastIndexOf(']');
            if (close < 0) {
                throw new GoUrlEscaping.Refusal("missing ']' in host");
            }
            String colonPort = host.substring(close + 1);
            if (!validOptionalPort(colonPort)) {
                throw new GoUrlEscaping.Refusal(
                        "invalid port " + FieldError.quote(colonPort) + " after host");
            }
            int zone = host.substring(0, close).indexOf("%25");
            if (zone >= 0) {
                return GoUrlEscaping.unescape(host.substring(0, zone), GoUrlEscaping.Mode.HOST)
                        + GoUrlEscaping.unescape(
                                host.substring(zone, close), GoUrlEscaping.Mode.ZONE)
                        + GoUrlEscaping.unescape(host.substring(close), GoUrlEscaping.Mode.HOST);
            }
        } else {
            int colon = host.lastIndexOf(':');
            if (colon >= 0) {
                String colonPort = host.substring(colon);
                if (!validOptionalPort(colonPort)) {
                    throw new GoUrlEscaping.Refusal(
                            "invalid port " + FieldError.quote(colonPort) + " after host");
                }
            }
        }
        return GoUrlEscaping.unescape(host, GoUrlEscaping.Mode.HOST);
    }

    private static boolean validOptionalPort(String port) {
        if (port.isEmpty()) {
            return true;
        }
        if (port.charAt(0) != ':') {
            return false;
        }
        for (int i = 1; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean validUserinfo(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (GoUrlEscaping.alphanumeric(c) || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0) {
                continue;
            }
            return false;
        }
        return true;
    }

    private static String escaped(String value, String raw, GoUrlEscaping.Mode mode) {
        if (!raw.isEmpty() && GoUrlEscaping.validEncoded(raw, mode)) {
            try {
                if (GoUrlEscaping.unescape(raw, mode).equals(value)) {
                    return raw;
                }
            } catch (GoUrlEscaping.Refusal e) {
                // not the raw form of this value: escape the value
            }
        }
        if (mode == GoUrlEscaping.Mode.PATH && value.equals("*")) {
            return "*";
        }
        return GoUrlEscaping.escape(value, mode);
    }

    /** Go's {@code URL.String()}. */
    @Override
    public String toString() {
        StringBuilder buf = new StringBuilder();
        if (!scheme.isEmpty()) {
            buf.append(scheme).append(':');
        }
        if (!opaque.isEmpty()) {
            buf.append(opaque);
        } else {
            if (!scheme.isEmpty() || !host.isEmpty() || hasUser) {
                if (!(omitHost && host.isEmpty() && !hasUser)) {
                    if (!host.isEmpty() || !path.isEmpty() || hasUser) {
                        buf.append("//");
                    }
                    if (hasUser) {
                        buf.append(
                                GoUrlEscaping.escape(username, GoUrlEscaping.Mode.USER_PASSWORD));
                        if (password != null) {
                            buf.append(':')
                                    .append(
                                            GoUrlEscaping.escape(
                                                    password, GoUrlEscaping.Mode.USER_PASSWORD));
                        }
                        buf.append('@');
                    }
                    if (!host.isEmpty()) {
                        buf.append(GoUrlEscaping.escape(host, GoUrlEscaping.Mode.HOST));
                    }
                }
            }
            String p = escaped(path, rawPath, GoUrlEscaping.Mode.PATH);
            if (!p.isEmpty() && p.charAt(0) != '/' && !host.isEmpty()) {
                buf.append('/');
            }
            if (buf.length() == 0) {
                int slash = p.indexOf('/');
                if ((slash < 0 ? p : p.substring(0, slash)).contains(":")) {
                    buf.append("./");
                }
            }
            buf.append(p);
        }
        if (forceQuery || !rawQuery.isEmpty()) {
            buf.append('?').append(rawQuery);
        }
        if (!fragment.isEmpty()) {
            buf.append('#').append(escaped(fragment, rawFragment, GoUrlEscaping.Mode.FRAGMENT));
        }
        return buf.toString();
    }

    private static final class Builder {
        String scheme = "";
        String opaque = "";
        String username = "";
        String password;
        boolean hasUser;
        String host = "";
        String path = "";
        String rawPath = "";
        boolean omitHost;
        boolean forceQuery;
        String rawQuery = "";
        String fragment = "";
        String rawFragment = "";
    }
}
