package io.kubepekko.api.selector;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.registry.BuiltinKinds;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which field-selector labels one resource type accepts and where each label's value comes from,
 * mirroring kube-apiserver's field label conversion functions ({@code pkg/apis/*}/v1/conversion.go)
 * and {@code ...ToSelectableFields} ({@code pkg/registry/*}/strategy.go).
 *
 * <p>A label is normally the dotted JSON path of the value. The few labels where Kubernetes
 * differs (a different path, or a value when the field is absent) are data in {@link #SOURCES};
 * old spellings that Kubernetes rewrites are in {@link #ALIASES}.
 */
final class FieldLabels {

    /** Where a label's value lives, and the text Kubernetes reports when the field is absent. */
    record Source(String path, String absent) {}

    private static final Map<String, Map<String, Source>> SOURCES = Map.of(
            // PodToSelectableFields reports false when there is no host network setting.
            "/Pod", Map.of("spec.hostNetwork", new Source("spec.hostNetwork", "false")),
            // NodeToSelectableFields formats the bool, so absent reads "false".
            "/Node", Map.of("spec.unschedulable", new Source("spec.unschedulable", "false")),
            // EventToSelectableFields: "source" is the reporting component.
            "/Event", Map.of("source", new Source("source.component", "")),
            // JobToSelectableFields: the label says "successful", the field is status.succeeded (an int).
            "batch/Job", Map.of("status.successful", new Source("status.succeeded", "0")),
            "apps/ReplicaSet", Map.of("status.replicas", new Source("status.replicas", "0")),
            "/ReplicationController", Map.of("status.replicas", new Source("status.replicas", "0")));

    /** Labels kube-apiserver rewrites before matching (old clients' spellings). */
    private static final Map<String, Map<String, String>> ALIASES = Map.of(
            "/Pod", Map.of("spec.host", "spec.nodeName"));

    private static final String NAME = "metadata.name";
    private static final String NAMESPACE = "metadata.namespace";

    /** Accepts any label and reads it as a plain path: for selectors not yet bound to a type. */
    static final FieldLabels GENERIC = new FieldLabels(null, Map.of(), Map.of(), false);

    /** Null for {@link #GENERIC}, which accepts every label. */
    private final Set<String> allowed;
    private final Map<String, Source> sources;
    private final Map<String, String> aliases;
    private final boolean customConversion;

    private FieldLabels(Set<String> allowed, Map<String, Source> sources, Map<String, String> aliases,
                        boolean customConversion) {
        this.allowed = allowed;
        this.sources = sources;
        this.aliases = aliases;
        this.customConversion = customConversion;
    }

    /**
     * The labels of one type. Kubernetes has two behaviours: kinds with their own conversion
     * function (built-ins with selectable fields, and every custom resource) reject with
     * {@code field label not supported} and accept {@code metadata.namespace} only when namespaced;
     * the other built-ins use the default conversion, which accepts both metadata labels and
     * rejects with a message naming them.
     */
    static FieldLabels of(ResourceType type) {
        String key = type.group() + "/" + type.kind();
        boolean customConversion = !type.selectableFields().isEmpty() || !Builtins.KINDS.contains(key);
        Set<String> allowed = new LinkedHashSet<>();
        allowed.add(NAME);
        if (type.namespaced() || !customConversion) {
            allowed.add(NAMESPACE);
        }
        allowed.addAll(type.selectableFields());
        return new FieldLabels(Set.copyOf(allowed), SOURCES.getOrDefault(key, Map.of()),
                ALIASES.getOrDefault(key, Map.of()), customConversion);
    }

    /**
     * The label as this type matches it (after aliasing).
     *
     * @throws io.kubepekko.api.status.ApiException 400 BadRequest for a label the type does not support
     */
    String canonical(String label) {
        if (allowed == null) {
            return label;
        }
        String target = aliases.getOrDefault(label, label);
        if (allowed.contains(target)) {
            return target;
        }
        String message = customConversion
                ? "field label not supported: " + label
                : FieldError.quote(label) + " is not a known field selector: only "
                        + FieldError.quote(NAME) + ", " + FieldError.quote(NAMESPACE);
        throw ApiStatus.badRequest(message).exception();
    }

    /** The text a label has on an object: scalars as their JSON text, absent as Kubernetes reports it. */
    String valueOf(JsonNode object, String label) {
        Source source = sources.getOrDefault(label, new Source(label, ""));
        JsonNode node = object;
        for (String part : source.path().split("\\.", -1)) {
            node = node == null ? null : node.get(part);
        }
        if (node == null || node.isNull() || node.isMissingNode()) {
            return source.absent();
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
     * The JSON paths (dotted) {@link #values} reads: a reader may skip the rest of an object. Null for
     * {@link #GENERIC}, which reads none.
     */
    Set<String> paths() {
        if (allowed == null) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String label : allowed) {
            out.add(sources.getOrDefault(label, new Source(label, "")).path());
        }
        return Set.copyOf(out);
    }

    /** Built-in kinds by {@code group/Kind}: only they may use Kubernetes' default conversion. */
    private static final class Builtins {
        static final Set<String> KINDS = BuiltinKinds.all().stream()
                .map(t -> t.group() + "/" + t.kind())
                .collect(Collectors.toUnmodifiableSet());
    }
}
