package io.kubepekko.agent.api;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A resource's REST paths: {@code /api/v1/...} for the core group, {@code
 * /apis/{group}/{version}/...} otherwise; namespaced ones under {@code namespaces/{ns}}.
 *
 * @param group the API group, empty for core
 * @param version the version
 * @param plural the resource's plural name
 * @param namespaced whether objects live in a namespace
 */
public record Resource(String group, String version, String plural, boolean namespaced) {

    public static final Resource NODES = new Resource("", "v1", "nodes", false);
    public static final Resource PODS = new Resource("", "v1", "pods", true);
    public static final Resource EVENTS = new Resource("", "v1", "events", true);
    public static final Resource LEASES = new Resource("coordination.k8s.io", "v1", "leases", true);

    private String prefix(String namespace) {
        String base = group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
        if (namespaced && namespace != null) {
            base += "/namespaces/" + encode(namespace);
        }
        return base + "/" + plural;
    }

    /** The collection (all namespaces when {@code namespace} is null). */
    public String collection(String namespace) {
        return prefix(namespace);
    }

    /** One object ({@code namespace} ignored for a cluster-scoped resource). */
    public String object(String namespace, String name) {
        return prefix(namespace) + "/" + encode(name);
    }

    /** A subresource of one object, e.g. {@code status}. */
    public String subresource(String namespace, String name, String subresource) {
        return object(namespace, name) + "/" + subresource;
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
