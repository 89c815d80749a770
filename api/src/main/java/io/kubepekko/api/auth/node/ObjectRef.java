package io.kubepekko.api.auth.node;

import java.util.Objects;

/**
 * One object the node graph knows of.
 *
 * @param type its kind
 * @param namespace its namespace, empty for cluster-scoped kinds
 * @param name its name
 */
public record ObjectRef(GraphObject type, String namespace, String name) {

    public ObjectRef {
        Objects.requireNonNull(type, "type");
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
    }
}
