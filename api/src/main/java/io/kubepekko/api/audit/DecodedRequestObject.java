package io.kubepekko.api.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.BodyDecoder;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.schema.ModelSchemas;
import java.util.Map;

/**
 * A create's or update's body as kube's {@code LogRequestObject} records it: not the bytes sent but
 * the object its codec decoded (defaulted for the request's version, before admission), encoded
 * back to JSON in that version. So the record carries the kind's defaults and none of the fields
 * its schema does not know, its type meta first, and, as Go encodes an unset {@code metav1.Time},
 * {@code metadata.creationTimestamp: null}.
 */
public final class DecodedRequestObject {
    private DecodedRequestObject() {}

    /**
     * {@code body} decoded as kube decodes a body sent to {@code kind}'s version: a copy, {@code
     * body} is not changed. A body that is not an object, or that the kind's defaults cannot read,
     * is recorded as sent.
     */
    public static JsonNode of(ServedKind kind, JsonNode body) {
        if (!(body instanceof ObjectNode sent)) {
            return body;
        }
        ObjectNode decoded;
        try {
            decoded = defaulted(kind, typed(kind, sent.deepCopy()));
        } catch (RuntimeException unreadable) {
            // The write refuses such a body with its own status; the record keeps what was sent.
            return body;
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("kind", kind.type().kind());
        out.put("apiVersion", kind.apiVersion());
        JsonNode metadata = decoded.get("metadata");
        ObjectNode meta = metadata instanceof ObjectNode m ? m : Json.MAPPER.createObjectNode();
        if (!meta.has("creationTimestamp")) {
            meta.putNull("creationTimestamp");
        }
        out.set("metadata", meta);
        for (Map.Entry<String, JsonNode> field : decoded.properties()) {
            if (!out.has(field.getKey())) {
                out.set(field.getKey(), field.getValue());
            }
        }
        return out;
    }

    /**
     * What a typed decode keeps: the fields the version's schema does not know are dropped, as
     * kube's decoder drops them (its default field validation warns, and the object has no place
     * for them). A kind without a built-in schema is kept as sent.
     */
    private static ObjectNode typed(ServedKind kind, ObjectNode body) {
        GroupVersionKind gvk = kind.type().gvk();
        return ModelSchemas.forKind(gvk)
                .map(
                        schema ->
                                new BodyDecoder(gvk, schema)
                                        .prune(body, FieldValidation.IGNORE)
                                        .object())
                .orElse(body);
    }

    /**
     * The storage's defaults, applied in its form: a served version is converted there and back.
     */
    private static ObjectNode defaulted(ServedKind kind, ObjectNode served) {
        if (kind.isStorageVersion()) {
            kind.storageType().strategy().applyDefaults(served);
            return served;
        }
        ObjectNode stored = kind.toStorage(served);
        kind.storageType().strategy().applyDefaults(stored);
        return kind.fromStorage(stored);
    }
}
