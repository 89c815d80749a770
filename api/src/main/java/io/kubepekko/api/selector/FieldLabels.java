package io.kubepekko.api.selector;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SelectableField;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which field-selector labels one resource type accepts and where each label's value comes from,
 * mirroring kube-apiserver's field label conversion functions ({@code pkg/apis/*}/v1/conversion.go)
 * and {@code ...ToSelectableFields} ({@code pkg/registry/*}/strategy.go). Everything here is read
 * off the type's registry entry ({@link ResourceType#selectableFields()}, its aliases, whether it
 * is built in): a kind's definition says which labels it has.
 */
final class FieldLabels {

    private static final String NAME = "metadata.name";
    private static final String NAMESPACE = "metadata.namespace";

    /** Accepts any label and reads it as a plain path: for selectors not yet bound to a type. */
    static final FieldLabels GENERIC = new FieldLabels(null, Map.of(), Map.of(), false);

    /** Null for {@link #GENERIC}, which accepts every label. */
    private final Set<String> allowed;

    private final Map<String, SelectableField> sources;
    private final Map<String, String> aliases;
    private final boolean customConversion;

    private FieldLabels(
            Set<String> allowed,
            Map<String, SelectableField> sources,
            Map<String, String> aliases,
            boolean customConversion) {
        this.allowed = allowed;
        this.sources = sources;
        this.aliases = aliases;
        this.customConversion = customConversion;
    }

    /**
     * The labels of one type. Kubernetes has two behaviours: kinds with their own conversion
     * function (built-ins with selectable fields, and every custom resource) reject with {@code
     * field label not supported} and accept {@code metadata.namespace} only when namespaced; the
     * other built-ins use the default conversion, which accepts both metadata labels and rejects
     * with a message naming them.
     */
    static FieldLabels of(ResourceType type) {
        boolean customConversion = !type.selectableFields().isEmpty() || !type.builtin();
        Set<String> allowed = new LinkedHashSet<>();
        allowed.add(NAME);
        if (type.namespaced() || !customConversion) {
            allowed.add(NAMESPACE);
        }
        Map<String, SelectableField> sources = new HashMap<>();
        for (SelectableField field : type.selectableFields()) {
            allowed.add(field.label());
            sources.put(field.label(), field);
        }
        return new FieldLabels(
                Set.copyOf(allowed),
                Map.copyOf(sources),
                type.fieldLabelAliases(),
                customConversion);
    }

    /**
     * The label as this type matches it (after aliasing).
     *
     * @throws io.kubepekko.api.status.ApiException 400 BadRequest for a label the type does not
     *     support
     */
    String canonical(String label) {
        if (allowed == null) {
            return label;
        }
        String target = aliases.getOrDefault(label, label);
        if (allowed.contains(target)) {
            return target;
        }
        String message =
                customConversion
                        ? "field label not supported: " + label
                        : FieldError.quote(label)
                                + " is not a known field selector: only "
                                + FieldError.quote(NAME)
                                + ", "
                                + FieldError.quote(NAMESPACE);
        throw ApiStatus.badRequest(message).exception();
    }

    /**
     * The text a label has on an object: scalars as their JSON text, absent as Kubernetes reports
     * it.
     */
    String valueOf(JsonNode object, String label) {
        SelectableField source = sources.getOrDefault(label, SelectableField.of(label));
        String value = read(object, source.path());
        if ((value == null || value.isEmpty()) && source.fallback() != null) {
            String fallback = read(object, source.fallback());
            if (fallback != null && !fallback.isEmpty()) {
                return fallback;
            }
        }
        return value == null ? source.absent() : value;
    }

    /** A scalar's JSON text at a dotted path, "" for a non-scalar, null when absent. */
    private static String read(JsonNode object, String path) {
        JsonNode node = object;
        for (String part : path.split("\\.", -1)) {
            node = node == null ? null : node.get(part);
        }
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        return node.isValueNode() ? node.asText() : "";
    }

    /**
     * Every label this type accepts with its value on {@code object}, read once so that a watch
     * cache can match selectors later without the tree. Empty for {@link #GENERIC}, which has no
     * fixed label set.
     */
    Map<String, String> values(JsonNode object) {
        if (allowed == null) {
            return Map.of();
        }
        Map<String, String> out = new HashMap<>(allowed.size() * 2);
        for (String label : allowed) {
            out.put(label, valueOf(object, label));
        }
        return Map.copyOf(out);
    }

    /**
     * The JSON paths (dotted) {@link #values} reads: a reader may skip the rest of an object. Null
     * for {@link #GENERIC}, which reads none.
     */
    Set<String> paths() {
        if (allowed == null) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String label : allowed) {
            SelectableField source = sources.getOrDefault(label, SelectableField.of(label));
            out.add(source.path());
            if (source.fallback() != null) {
                out.add(source.fallback());
            }
        }
        return Set.copyOf(out);
    }
}
