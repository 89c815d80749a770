package io.kubepekko.http.route;

import io.kubepekko.api.Verb;

/**
 * A resource request as parsed from its path and method, before the registry is consulted.
 *
 * @param verb what the request does
 * @param namespace the namespace from the path, or {@code null}
 * @param name the object name, or {@code null} for collection requests
 * @param subresource {@code status}, {@code scale}…, or {@code null}
 * @param route whether a route serves the request: kube-apiserver authorizes some paths as resource
 *     requests that no route of it serves
 */
public record RequestInfo(
        Verb verb,
        String group,
        String version,
        String resource,
        String namespace,
        String name,
        String subresource,
        Route route) {

    /** What kube-apiserver's router does with a request its request-info parser took apart. */
    public enum Route {
        /** A resource route serves the path with this method. */
        SERVED,
        /**
         * No route has the path: more segments than resource, name and subresource (kube reads them
         * as "other stuff we don't interpret"), or a subresource under the legacy {@code watch/}
         * prefix.
         */
        NO_PATH,
        /** The legacy {@code watch/} paths are served for GET only. */
        NO_METHOD
    }

    public boolean hasName() {
        return name != null;
    }
}
