package io.kubepekko.api.metrics;

import io.kubepekko.api.Verb;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The labels kube-apiserver's request metrics ({@code apiserver_request_total}, {@code
 * apiserver_request_duration_seconds}, {@code apiserver_response_sizes}, {@code
 * apiserver_longrunning_requests}) give one resource request, worked out as kube's {@code
 * MonitorRequest} does: the reported verb from the HTTP method and the scope (a GET of a collection
 * is a LIST, a {@code watch} query a WATCH, an apply patch an APPLY, a DELETE of a collection stays
 * DELETE), the scope from the name and namespace, the dry-run values sorted and deduplicated.
 *
 * @param verb the reported verb ({@code GET}, {@code LIST}, {@code WATCH}, {@code POST}, {@code
 *     PUT}, {@code PATCH}, {@code APPLY}, {@code DELETE}, {@code CONNECT} or {@code other})
 * @param dryRun {@code ""} without dry run, the values joined by commas, or {@code invalid}
 * @param group the API group, {@code ""} for the core group
 * @param scope {@code resource}, {@code namespace} or {@code cluster}
 */
public record RequestLabels(
        String verb,
        String dryRun,
        String group,
        String version,
        String resource,
        String subresource,
        String scope) {

    /** The {@code component} label of every request the API server serves itself. */
    public static final String COMPONENT = "apiserver";

    /** The verb of a method kube does not report by name. */
    static final String OTHER = "other";

    /** kube's {@code types.ApplyPatchType}, compared with the request's Content-Type as sent. */
    static final String APPLY_PATCH = "application/apply-patch+yaml";

    /** The subresources kube reports as CONNECT. */
    private static final Set<String> CONNECT_SUBRESOURCES =
            Set.of("log", "exec", "portforward", "attach", "proxy");

    private static final Set<String> REPORTED =
            Set.of(
                    "APPLY",
                    "CONNECT",
                    "CREATE",
                    "DELETE",
                    "DELETECOLLECTION",
                    "GET",
                    "LIST",
                    "PATCH",
                    "POST",
                    "PROXY",
                    "PUT",
                    "UPDATE",
                    "WATCH",
                    "WATCHLIST");

    public RequestLabels {
        group = group == null ? "" : group;
        subresource = subresource == null ? "" : subresource;
    }

    /**
     * The labels of one routed resource request.
     *
     * @param verb the verb the request was routed as
     * @param method the HTTP method
     * @param namespace the namespace in the path, or null
     * @param name the name in the path, or null
     * @param contentType the request's Content-Type header as sent, or null
     * @param dryRun the {@code dryRun} query values (empty without)
     */
    public static RequestLabels of(
            Verb verb,
            String method,
            String group,
            String version,
            String resource,
            String subresource,
            String namespace,
            String name,
            String contentType,
            List<String> dryRun) {
        String scope = scope(verb, namespace, name);
        return new RequestLabels(
                reportedVerb(verb, method, scope, contentType, subresource),
                dryRun(dryRun),
                group,
                version,
                resource,
                subresource,
                scope);
    }

    /** kube's {@code CleanScope} for a resource request. */
    static String scope(Verb verb, String namespace, String name) {
        if ((name != null && !name.isEmpty()) || verb == Verb.CREATE) {
            return "resource";
        }
        return namespace != null && !namespace.isEmpty() ? "namespace" : "cluster";
    }

    /** kube's {@code cleanVerb(CanonicalVerb(method, scope), ...)}. */
    static String reportedVerb(
            Verb verb, String method, String scope, String contentType, String subresource) {
        if (verb == Verb.WATCH) {
            // A watch query or one of the legacy watch/ paths, which kube's installer names WATCH.
            return "WATCH";
        }
        String reported = method;
        if (method.equals("GET") || method.equals("HEAD")) {
            reported = scope.equals("resource") ? "GET" : "LIST";
        }
        if (method.equals("PATCH") && APPLY_PATCH.equals(contentType)) {
            reported = "APPLY";
        }
        if (subresource != null && CONNECT_SUBRESOURCES.contains(subresource)) {
            reported = "CONNECT";
        }
        return REPORTED.contains(reported) ? reported : OTHER;
    }

    /**
     * kube's {@code cleanDryRun}: empty without the parameter, {@code invalid} when a value is not
     * {@code All}, else the distinct values sorted and joined by commas.
     */
    static String dryRun(List<String> values) {
        if (values.isEmpty()) {
            return "";
        }
        TreeSet<String> distinct = new TreeSet<>();
        for (String v : values) {
            if (!v.equals("All")) {
                return "invalid";
            }
            distinct.add(v);
        }
        return String.join(",", distinct);
    }

    /** Whether kube observes the response's size: gets and lists only. */
    public boolean sized() {
        return verb.equals("GET") || verb.equals("LIST");
    }
}
