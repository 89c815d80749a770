package io.kubepekko.http.route;

import io.kubepekko.api.Verb;

/**
 * A resource request as parsed from its path and method, before the registry is consulted.
 *
 * @param verb what the request does
 * @param namespace the namespace from the path, or {@code null}
 * @param name the object name, or {@code null} for collection requests
 * @param subresource {@code status}, {@code scale}…, or {@code null}
 */
public record RequestInfo(
        Verb verb,
        String group,
        String version,
        String resource,
        String namespace,
        String name,
        String subresource) {

    public boolean hasName() {
        return name != null;
    }
}
