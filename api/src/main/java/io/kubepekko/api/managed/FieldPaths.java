package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A field path as Kubernetes prints it in apply conflicts (structured-merge-diff's path syntax):
 * {@code .spec.template.spec.containers[name="nginx"].image}, {@code
 * .spec.ports[port=80,protocol="TCP"]}, {@code .metadata.finalizers[="x"]}, {@code [3]}.
 */
public final class FieldPaths {
    private FieldPaths() {}

    /**
     * The printed form of a path given as FieldsV1 elements ({@code f:}, {@code k:}, {@code v:},
     * {@code i:}).
     */
    public static String render(List<String> elements) {
        StringBuilder out = new StringBuilder();
        for (String e : elements) {
            String body = e.length() >= 2 ? e.substring(2) : "";
            if (e.startsWith("f:")) {
                out.append('.').append(body);
            } else if (e.startsWith("k:")) {
                out.append('[');
                JsonNode key = keyFields(body);
                if (key == null) {
                    out.append(body)
                            .append(']'); // a client-supplied entry that is not a key: shown as it
                    // is
                    continue;
                }
                Iterator<Map.Entry<String, JsonNode>> it = key.properties().iterator();
                boolean first = true;
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> k = it.next();
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    out.append(k.getKey()).append('=').append(Json.string(k.getValue()));
                }
                out.append(']');
            } else if (e.startsWith("v:")) {
                out.append("[=").append(body).append(']');
            } else if (e.startsWith("i:")) {
                out.append('[').append(body).append(']');
            } else {
                out.append(e);
            }
        }
        return out.toString();
    }

    /**
     * The key fields of a {@code k:} element, or null when it is not a JSON object: managedFields a
     * client supplied are stored as given, and a conflict naming one must not fail the request.
     */
    private static JsonNode keyFields(String body) {
        try {
            JsonNode key = Json.MAPPER.readTree(body);
            return key != null && key.isObject() ? key : null;
        } catch (IOException e) {
            return null;
        }
    }
}
