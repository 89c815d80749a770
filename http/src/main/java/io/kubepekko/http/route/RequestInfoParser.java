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

    private static final String LEGACY_WATCH = "watch";
    private static final String LEGACY_PROXY = "proxy";

    /**
     * Empty when the path is not a resource path (discovery, health, unknown).
     *
     * @param watchParam the first {@code watch} query value, if any: any value but {@code false} or
     *     {@code 0} (in any case) makes a read of a collection a watch, as kube's request-info
     *     parser and its list options read it; a read of one named object stays a get
     */
    static Optional<RequestInfo> parse(String method, String path, Optional<String> watchParam) {
        // kube-apiserver's router serves resources under /api/{version} and /apis/{group}/{version}
        // only; "//api/v1/..." does not start with either root.
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
        // kube's special verbs: the deprecated watch/ paths, still served; proxy/ paths are no
        // longer served by kube-apiserver (it authorizes the verb proxy and answers 404): here they
        // are not resource paths, which answers 404 as well.
        boolean legacyWatch = rest.get(0).equals(LEGACY_WATCH);
        if (legacyWatch || rest.get(0).equals(LEGACY_PROXY)) {
            if (rest.size() < 2 || !legacyWatch) {
                return Optional.empty();
            }
            rest = rest.subList(1, rest.size());
        }
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
        String resource = rest.get(0);
        String name = rest.size() > 1 ? rest.get(1) : null;
        String sub = rest.size() > 2 ? rest.get(2) : null;
        boolean read = method.equals("GET") || method.equals("HEAD");
        Verb verb;
        if (legacyWatch) {
            verb = Verb.WATCH;
        } else {
            verb =
                    switch (method) {
                        case "GET", "HEAD" ->
                                name != null
                                        ? Verb.GET
                                        : watches(watchParam) ? Verb.WATCH : Verb.LIST;
                        case "POST" -> Verb.CREATE;
                        case "PUT" -> Verb.UPDATE;
                        case "PATCH" -> Verb.PATCH;
                        case "DELETE" -> name == null ? Verb.DELETECOLLECTION : Verb.DELETE;
                        default -> Verb.UNSUPPORTED;
                    };
        }
        RequestInfo.Route route;
        if (rest.size() > 3 || legacyWatch && sub != null) {
            route = RequestInfo.Route.NO_PATH;
        } else if (legacyWatch && !read) {
            route = RequestInfo.Route.NO_METHOD;
        } else {
            route = RequestInfo.Route.SERVED;
        }
        return Optional.of(
                new RequestInfo(verb, group, version, resource, namespace, name, sub, route));
    }

    /** Go's {@code Convert_Slice_string_To_bool} of the first value. */
    private static boolean watches(Optional<String> watchParam) {
        return watchParam.map(v -> !(v.equals("0") || v.equalsIgnoreCase("false"))).orElse(false);
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
