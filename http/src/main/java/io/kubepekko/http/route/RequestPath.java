package io.kubepekko.http.route;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.RawRequestURI;

/**
 * The path a client asked for, percent-decoded once and otherwise as sent: dot segments and empty
 * segments stay. This is what kube-apiserver routes on (Go's {@code URL.Path}).
 *
 * <p>Pekko's own {@code Uri} collapses {@code .} and {@code ..} segments after decoding, so {@code
 * /namespaces/n/configmaps/%2e%2e} would become {@code /namespaces/n}, another object. The path is
 * therefore read from the request target as the client sent it (the {@code Raw-Request-URI} header,
 * which the server is bound to add: see {@code ApiServer}).
 */
final class RequestPath {
    private RequestPath() {}

    /** The decoded path of {@code request}. */
    static String of(HttpRequest request) {
        return request.getHeader(RawRequestURI.class)
                .map(raw -> decode(pathOf(raw.uri())))
                // Only requests not read by the server's parser (built in-process) lack the header.
                .orElseGet(() -> request.getUri().path());
    }

    /**
     * The path part of a request target: before {@code ?} or {@code #}; of an absolute-form target
     * ({@code http://host/p}), what follows the authority.
     */
    static String pathOf(String target) {
        int end = target.length();
        int query = target.indexOf('?');
        if (query >= 0) {
            end = query;
        }
        int fragment = target.indexOf('#');
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        String path = target.substring(0, end);
        int scheme = path.indexOf("://");
        if (scheme > 0 && !path.startsWith("/")) {
            int slash = path.indexOf('/', scheme + 3);
            return slash < 0 ? "/" : path.substring(slash);
        }
        return path;
    }

    /**
     * Percent-decodes {@code raw} as UTF-8, as Go's path unescaping does: {@code +} stays a plus,
     * and an encoded {@code /} becomes a slash (Go's {@code URL.Path} splits on it too). A {@code
     * %} not followed by two hex digits is kept as it is (the HTTP parser refuses such targets
     * before this).
     */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%'
                    && i + 2 < raw.length()
                    && hex(raw.charAt(i + 1)) >= 0
                    && hex(raw.charAt(i + 2)) >= 0) {
                bytes.write(hex(raw.charAt(i + 1)) * 16 + hex(raw.charAt(i + 2)));
                i += 2;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(utf8, 0, utf8.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
