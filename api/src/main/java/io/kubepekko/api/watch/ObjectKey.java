package io.kubepekko.api.watch;

import java.util.Comparator;
import java.util.Objects;

/**
 * Where an object lives in a collection: namespace (empty for cluster-scoped kinds) and name. Keys
 * sort by namespace, then name, which is the order lists return items in.
 *
 * <p>{@link #toString()} is the cursor form a continue token carries ({@code namespace/name}, or
 * just the name when cluster-scoped); neither part may contain a slash in Kubernetes, so {@link
 * #parse} splits it back unambiguously.
 */
public record ObjectKey(String namespace, String name) implements Comparable<ObjectKey> {

    private static final Comparator<ObjectKey> ORDER =
            Comparator.comparing(ObjectKey::namespace).thenComparing(ObjectKey::name);

    public ObjectKey {
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
    }

    /** Reads the cursor form back; text without a slash is a cluster-scoped name. */
    public static ObjectKey parse(String key) {
        int slash = key.indexOf('/');
        return slash < 0
                ? new ObjectKey("", key)
                : new ObjectKey(key.substring(0, slash), key.substring(slash + 1));
    }

    /** The smallest key of {@code namespace}. */
    static ObjectKey firstIn(String namespace) {
        return new ObjectKey(namespace, "");
    }

    /**
     * The smallest key after every key of {@code namespace}: appending NUL gives the least string
     * greater than {@code namespace}, so no other namespace falls between.
     */
    static ObjectKey afterAllIn(String namespace) {
        return new ObjectKey(namespace + '\0', "");
    }

    @Override
    public int compareTo(ObjectKey other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
