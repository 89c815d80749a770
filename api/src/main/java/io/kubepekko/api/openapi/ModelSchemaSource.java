package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The schemas kube-apiserver publishes for the built-in kinds: every nested type as a component
 * named as Kubernetes names it ({@code io.k8s.api.core.v1.PodSpec}), with types, formats,
 * descriptions, required fields, defaults and the list, map and patch markers ({@code
 * x-kubernetes-list-type}, {@code x-kubernetes-patch-merge-key}…), so {@code kubectl explain} shows
 * the whole tree. They are derived from the official client's models and our message definitions
 * and merge metadata (see {@link ModelComponents}); a kind without a model (custom resources) gets
 * {@link MinimalSchemaSource}'s schema.
 *
 * <p>Pure and deterministic: the same schemas, byte for byte, on every run.
 */
public final class ModelSchemaSource implements SchemaSource {
    private static final ModelSchemaSource BUILTIN =
            new ModelSchemaSource(ModelComponents.builtin());

    private final ModelComponents components;

    private ModelSchemaSource(ModelComponents components) {
        this.components = components;
    }

    /** A source over {@code components} (tests: a fresh set, to check that builds agree). */
    static ModelSchemaSource over(ModelComponents components) {
        return new ModelSchemaSource(components);
    }

    /** The source over the built-in types. */
    public static ModelSchemaSource builtin() {
        return BUILTIN;
    }

    @Override
    public ObjectNode schema(GroupVersionKind gvk) {
        return components
                .kind(gvk)
                .map(components::get)
                .orElseGet(() -> MinimalSchemaSource.INSTANCE.schema(gvk));
    }

    @Override
    public Map<String, ObjectNode> definitions(GroupVersionKind gvk) {
        Optional<String> name = components.kind(gvk);
        if (name.isEmpty()) {
            return Map.of();
        }
        Map<String, ObjectNode> out = new TreeMap<>(components.closure(name.get()));
        out.remove(name.get());
        return out;
    }

    @Override
    public ObjectNode listSchema(GroupVersionKind gvk, String listKind) {
        GroupVersionKind listGvk = new GroupVersionKind(gvk.group(), gvk.version(), listKind);
        return components
                .list(listGvk, gvk)
                .map(components::get)
                .orElseGet(() -> SchemaSource.super.listSchema(gvk, listKind));
    }
}
