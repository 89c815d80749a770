package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;

/**
 * A schema that names only the fields every kind shares: {@code apiVersion}, {@code kind}, {@code
 * metadata}, {@code spec} and {@code status}, with {@code spec} and {@code status} as open objects.
 * The schema also keeps unknown fields ({@code x-kubernetes-preserve-unknown-fields}), because
 * kinds such as ConfigMap carry {@code data} rather than {@code spec}; this must not claim those
 * fields are invalid.
 *
 * <p>This is enough for clients: kubectl and helm skip client-side validation when the patch
 * operation lists {@code fieldValidation}, and the server validates. {@code kubectl explain} shows
 * the top-level fields.
 */
public final class MinimalSchemaSource implements SchemaSource {
    /** The shared instance; the class holds no state. */
    public static final MinimalSchemaSource INSTANCE = new MinimalSchemaSource();

    private MinimalSchemaSource() {}

    @Override
    public ObjectNode schema(GroupVersionKind gvk) {
        ObjectNode schema = Json.MAPPER.createObjectNode();
        schema.put(
                "description",
                gvk.kind()
                        + " (apiVersion "
                        + gvk.apiVersion()
                        + "). Only the top-level "
                        + "fields are described here; the server validates the rest.");
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.set(
                "apiVersion",
                string("The versioned schema of this object: " + gvk.apiVersion() + "."));
        properties.set("kind", string("The type of this object: " + gvk.kind() + "."));
        ObjectNode metadata = Schemas.ref(SchemaNames.OBJECT_META, "Standard object metadata.");
        metadata.putObject("default");
        properties.set("metadata", metadata);
        properties.set("spec", Schemas.openObject("The desired state."));
        properties.set("status", Schemas.openObject("The observed state, written by controllers."));
        schema.put("x-kubernetes-preserve-unknown-fields", true);
        return schema;
    }

    private static ObjectNode string(String description) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("description", description);
        s.put("type", "string");
        return s;
    }
}
