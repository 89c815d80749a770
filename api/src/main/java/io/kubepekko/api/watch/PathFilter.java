package io.kubepekko.api.watch;

import com.fasterxml.jackson.core.filter.TokenFilter;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A Jackson token filter that keeps only the given dotted paths (and everything below each), so
 * that reading a stored object for its selector values builds a tree of a few nodes instead of the
 * whole object. Paths run through objects only; an array on the way is kept whole.
 */
final class PathFilter extends TokenFilter {

    /** Keep this node and all below it. */
    private final boolean whole;

    private final Map<String, PathFilter> children;

    private PathFilter(boolean whole, Map<String, PathFilter> children) {
        this.whole = whole;
        this.children = children;
    }

    static PathFilter of(Set<String> paths) {
        Node root = new Node();
        for (String path : paths) {
            Node n = root;
            for (String part : path.split("\\.", -1)) {
                n = n.children.computeIfAbsent(part, k -> new Node());
            }
            n.whole = true;
        }
        return root.build();
    }

    private static final class Node {
        boolean whole;
        final Map<String, Node> children = new HashMap<>();

        PathFilter build() {
            Map<String, PathFilter> c = new HashMap<>();
            children.forEach((k, v) -> c.put(k, v.build()));
            return new PathFilter(whole, Map.copyOf(c));
        }
    }

    @Override
    public TokenFilter includeProperty(String name) {
        PathFilter child = children.get(name);
        if (child == null) {
            return null;
        }
        return child.whole ? TokenFilter.INCLUDE_ALL : child;
    }

    @Override
    public TokenFilter filterStartArray() {
        return TokenFilter.INCLUDE_ALL; // a path through an array: keep it whole
    }

    @Override
    protected boolean _includeScalar() {
        return false; // a scalar where an object was expected holds nothing we look for
    }
}
