package io.kubepekko.http.route;

import io.kubepekko.api.Verb;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Parses {@code /api/v1/...} and {@code /apis/{group}/{version}/...} resource paths the way
 * kube-apiserver does, including its special case for namespace subresources.
 *
 * <p>The path is the decoded one ({@link RequestPath}) and its segments are taken as they are:
 * {@code .} and {@code ..} are never resolved (they are names, which the handler refuses), and an
 * empty segment between two slashes stays an empty segment, as in kube-apiserver's request-info
 * parser and router; only slashes at either end are dropped.
 */
final class RequestInfoParser {
    private RequestInfoParser() {}

    /** Subresources of the namespace object itself, not namespaced resources named like them. */
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    /** Empty when the path is not a resource path (discovery, health, unknown). */
    static Optional<RequestInfo> parse(String method, String path, boolean watch) {
        // kube-apiserver's router serves resources under /api/{version} and /apis/{group}/{version}
        // only;
        // "//api/v1/..." does not start with either root.
        if (!path.startsWith("/api/") && !path.startsWith("/apis/")) {
            return Optional.empty();
        }
        List<String> parts = segments(path);
        String group;
        int i;
        if (parts.size() >= 3 && parts.get(0).equals("api")) {
            group = "";
            i = 1;
        } else if (parts.size() >= 4 && parts.get(0).equals("apis")) {
            group = parts.get(1);
            i = 2;
        } else {
            return Optional.empty();
        }
        String version = parts.get(i);
        if (group.isEmpty() && i == 2 || version.isEmpty()) {
            return Optional.empty();
        }
        List<String> rest = parts.subList(i + 1, parts.size());
        String namespace = null;
        if (rest.get(0).equals("namespaces") && rest.size() > 1) {
            namespace = rest.get(1);
            if (rest.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
                rest = rest.subList(2, rest.size());
            } else {
                // the namespace object itself: /namespaces/{name}[/status]
                namespace = null;
            }
        }
        if (rest.size() > 3) {
            return Optional.empty();
        }
        String resource = rest.get(0);
        String name = rest.size() > 1 ? rest.get(1) : null;
        String sub = rest.size() > 2 ? rest.get(2) : null;
        Verb verb =
                switch (method) {
                    case "GET", "HEAD" -> watch ? Verb.WATCH : name == null ? Verb.LIST : Verb.GET;
                    case "POST" -> Verb.CREATE;
                    case "PUT" -> Verb.UPDATE;
                    case "PATCH" -> Verb.PATCH;
                    case "DELETE" -> name == null ? Verb.DELETECOLLECTION : Verb.DELETE;
                    default -> Verb.UNSUPPORTED;
                };
        return Optional.of(new RequestInfo(verb, group, version, resource, namespace, name, sub));
    }

    /**
     * The segments between the slashes, without the slashes at either end (Go's {@code
     * strings.Split(strings.Trim(path, "/"), "/")}); inner empty segments are kept.
     */
    static List<String> segments(String path) {
        int from = 0;
        int to = path.length();
        while (from < to && path.charAt(from) == '/') {
            from++;
        }
        while (to > from && path.charAt(to - 1) == '/') {
            to--;
        }
        return from == to ? List.of() : Arrays.asList(path.substring(from, to).split("/", -1));
    }
}
