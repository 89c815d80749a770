package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.SemanticJson;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where two objects differ, for an error message: the dotted paths of the fields that differ
 * semantically ({@link SemanticJson}), in the order met, e.g. {@code [metadata.labels.a
 * spec.volumeName]}.
 */
final class JsonDiff {

    private JsonDiff() {}

    static String paths(JsonNode a, JsonNode b) {
        List<String> out = new ArrayList<>();
        collect("", a, b, out);
        return "[" + String.join(" ", out) + "]";
    }

    private static void collect(String path, JsonNode a, JsonNode b, List<String> out) {
        if (SemanticJson.equal(a, b)) {
            return;
        }
        if (a != null && b != null && a.isObject() && b.isObject()) {
            Set<String> fields = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(fields::add);
            b.fieldNames().forEachRemaining(fields::add);
            for (String f : fields) {
                collect(path.isEmpty() ? f : path + "." + f, a.get(f), b.get(f), out);
            }
            return;
        }
        out.add(path.isEmpty() ? "." : path);
    }
}
