package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import java.util.Map;

/**
 * Where the OpenAPI documents get each kind's schema. {@link ModelSchemaSource} describes the
 * built-in kinds fully (from the client models and our merge metadata); {@link MinimalSchemaSource}
 * describes only the top-level fields and is what any other kind gets. A source for custom
 * resources (from a CustomResourceDefinition's {@code openAPIV3Schema}) plugs in here without
 * touching how paths and operations are generated.
 *
 * <p>Implementations must be pure and deterministic: the documents are hashed, and the hash is what
 * clients cache by.
 */
public interface SchemaSource {

    /**
     * The schema of one kind: {@code type}, {@code description}, {@code properties} and anything
     * else OpenAPI 3.0 allows ({@code required}, extensions). The caller copies it and adds {@code
     * x-kubernetes-group-version-kind}; it fills {@code type}, {@code description} and {@code
     * properties} if they are missing. It may refer with {@code $ref:
     * "#/components/schemas/<name>"} to the schemas of {@link #definitions(GroupVersionKind)} and
     * to the meta schemas every document carries ({@link SchemaNames#OBJECT_META}, {@link
     * SchemaNames#LIST_META}, {@link SchemaNames#STATUS}, {@link SchemaNames#DELETE_OPTIONS},
     * {@link SchemaNames#PATCH}, {@link SchemaNames#WATCH_EVENT}).
     */
    ObjectNode schema(GroupVersionKind gvk);

    /**
     * Further component schemas, by name, that {@link #schema(GroupVersionKind)} of this kind
     * refers to ({@code io.k8s.api.core.v1.PodSpec}…). Kinds of one group-version may share
     * entries; a name must then map to the same schema.
     */
    default Map<String, ObjectNode> definitions(GroupVersionKind gvk) {
        return Map.of();
    }

    /**
     * The schema of the list kind {@code listKind} of {@code gvk}: {@code apiVersion}, {@code
     * kind}, {@code metadata} ({@link SchemaNames#LIST_META}) and {@code items} referring to the
     * kind's schema. The caller copies it and adds {@code x-kubernetes-group-version-kind}.
     */
    default ObjectNode listSchema(GroupVersionKind gvk, String listKind) {
        return Schemas.list(gvk, listKind);
    }

    /** Top-level fields only. */
    static SchemaSource minimal() {
        return MinimalSchemaSource.INSTANCE;
    }

    /** The built-in kinds described fully, and any other kind by {@link #minimal()}. */
    static SchemaSource models() {
        return ModelSchemaSource.builtin();
    }
}
