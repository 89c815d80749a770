package io.kubepekko.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Equality of two objects as kube's {@code equality.Semantic.DeepEqual} compares their decoded Go
 * values, as far as JSON can tell: an absent field, {@code null}, an empty list and an empty map
 * are the same (Go's nil and empty slices and maps are), and so is a map holding only such values;
 * anything else must be equal. A struct pointer set to an empty struct counts as absent here, which
 * Go tells apart.
 */
public final class SemanticJson {

    private SemanticJson() {}

    public static boolean equal(JsonNode a, JsonNode b) {
        boolean noA = isEmpty(a);
        boolean noB = isEmpty(b);
        if (noA || noB) {
            return noA && noB;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> fields = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(fields::add);
            b.fieldNames().forEachRemaining(fields::add);
            for (String f : fields) {
                if (!equal(a.get(f), b.get(f))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            Iterator<JsonNode> i = a.elements();
            Iterator<JsonNode> j = b.elements();
            while (i.hasNext()) {
                if (!equal(i.next(), j.next())) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** Absent, null, an empty list, or a map of nothing but such values. */
    private static boolean isEmpty(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return true;
        }
        if (n.isArray()) {
            return n.isEmpty();
        }
        if (n.isObject()) {
            for (JsonNode v : n) {
                if (!isEmpty(v)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }
}
