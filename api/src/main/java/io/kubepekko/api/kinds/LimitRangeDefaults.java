package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * kube's defaults of a LimitRange's {@code Container} items ({@code SetDefaults_LimitRangeItem}): a
 * resource with a {@code max} but no {@code default} limit gets the max as its default, one with a
 * default limit but no {@code defaultRequest} gets the default limit as its default request, and
 * one with only a {@code min} gets the min as its default request. The other item types are left as
 * written.
 */
public final class LimitRangeDefaults {
    private LimitRangeDefaults() {}

    /** Fills the defaults of every Container item of the LimitRange {@code obj}, in place. */
    public static void apply(ObjectNode obj) {
        JsonNode limits = obj.path("spec").path("limits");
        if (!limits.isArray()) {
            return;
        }
        for (JsonNode item : limits) {
            if (item instanceof ObjectNode limit && "Container".equals(Nodes.text(limit, "type"))) {
                fill(limit, "max", "default");
                fill(limit, "default", "defaultRequest");
                fill(limit, "min", "defaultRequest");
            }
        }
    }

    /** Copies each resource of {@code from} that {@code to} lacks into {@code to}. */
    private static void fill(ObjectNode limit, String from, String to) {
        JsonNode source = limit.get(from);
        if (source == null || !source.isObject() || source.isEmpty()) {
            return;
        }
        ObjectNode target =
                limit.get(to) instanceof ObjectNode existing ? existing : limit.putObject(to);
        for (Map.Entry<String, JsonNode> e : source.properties()) {
            if (!target.has(e.getKey())) {
                target.set(e.getKey(), e.getValue().deepCopy());
            }
        }
    }
}
