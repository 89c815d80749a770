package io.kubepekko.http;

/**
 * A resource request as parsed from its path and method, before the registry is consulted.
 *
 * @param verb        get, list, watch, create, update, patch, delete or deletecollection
 * @param namespace   the namespace from the path, or {@code null}
 * @param name        the object name, or {@code null} for collection requests
 * @param subresource {@code status}, {@code scale}…, or {@code null}
 */
public record RequestInfo(String verb, String group, String version, String resource, String namespace,
                          String name, String subresource) {

    public boolean hasName() {
        return name != null;
    }
}
