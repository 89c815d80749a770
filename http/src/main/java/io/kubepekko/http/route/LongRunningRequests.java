package io.kubepekko.http.route;

import io.kubepekko.api.Verb;
import java.util.Optional;
import java.util.Set;

/**
 * Which requests are long-running, as kube-apiserver's {@code BasicLongRunningRequestCheck} with
 * the verbs and subresources kube-apiserver configures it with: a watch, a resource request for one
 * of the streaming subresources (whatever its method and its answer), and the profiler's paths. The
 * audit records {@code ResponseStarted} for these only; a list, however large and however sent, is
 * not long-running.
 */
final class LongRunningRequests {
    private LongRunningRequests() {}

    /** kube-apiserver's long-running subresources. */
    private static final Set<String> SUBRESOURCES =
            Set.of("attach", "exec", "proxy", "log", "portforward");

    /**
     * Whether the request is long-running.
     *
     * @param info the resource request the path names, empty for a non-resource path
     * @param path the request's decoded path
     */
    static boolean check(Optional<RequestInfo> info, String path) {
        if (info.isEmpty()) {
            return path.startsWith("/debug/pprof/");
        }
        RequestInfo r = info.get();
        // kube's other long-running verb, proxy, names only the /api/v1/proxy/... paths kube
        // removed; this server parses no such verb.
        return r.verb() == Verb.WATCH
                || (r.subresource() != null && SUBRESOURCES.contains(r.subresource()));
    }
}
