package io.kubepekko.api.definition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.VersionConversion;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.TypeMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One served version of a kind as a request reaches it: the version's own definition (its names,
 * selectable fields, printer), the definition its objects are stored under, and the conversion
 * between the two forms. What a URL's group, version and resource resolve to ({@link
 * Registry#served}); the storage version of a kind is served as itself, with nothing to convert,
 * and every conversion then hands the bytes back as they are.
 *
 * <p>Reads, lists and watches are answered from the storage (in its version) and converted here on
 * the way out; writes go to the storage's collection, where the pipeline converts their bodies and
 * patches ({@link io.kubepekko.api.store.ObjectWrites}).
 */
public final class ServedKind {

    private final KindDefinition definition;
    private final KindDefinition storage;
    private final VersionConversion conversion;

    ServedKind(KindDefinition definition, KindDefinition storage, VersionConversion conversion) {
        this.definition = Objects.requireNonNull(definition, "definition");
        this.storage = Objects.requireNonNull(storage, "storage");
        this.conversion = Objects.requireNonNull(conversion, "conversion");
    }

    /** The storage version of a kind, served as itself. */
    static ServedKind storageVersion(KindDefinition definition) {
        return new ServedKind(definition, definition, VersionConversion.IDENTITY);
    }

    /** The served version's definition: its names, selectable fields and printer. */
    public KindDefinition definition() {
        return definition;
    }

    /** The served version's registry entry. */
    public ResourceType type() {
        return definition.type();
    }

    /** The definition the objects are stored under: its collections, caches and strategy. */
    public KindDefinition storage() {
        return storage;
    }

    /** The storage's registry entry, the one the control plane is asked with. */
    public ResourceType storageType() {
        return storage.type();
    }

    /** Whether objects are served as they are stored (nothing to convert). */
    public boolean isStorageVersion() {
        return definition == storage;
    }

    /**
     * This version's lifecycle when kube 1.35 deprecates it: a request to it then gets kube's
     * {@code Warning} ({@link VersionLifecycle#warning}), the {@code k8s.io/deprecated} and {@code
     * k8s.io/removed-release} audit annotations and a place in {@code
     * apiserver_requested_deprecated_apis}. Empty for a version not deprecated.
     */
    public Optional<VersionLifecycle> deprecation() {
        VersionLifecycle lifecycle = definition.lifecycle();
        return lifecycle.deprecatedIn(Release.EMULATED) ? Optional.of(lifecycle) : Optional.empty();
    }

    /** The group version a request through this version writes in ({@code events.k8s.io/v1}). */
    public String apiVersion() {
        return type().apiVersion();
    }

    /** A stored object's JSON in the served version: the same bytes for the storage version. */
    public byte[] fromStorage(byte[] stored) {
        if (isStorageVersion()) {
            return stored;
        }
        byte[] converted = conversion.fromStorageJson(stored, type().gvk());
        return converted != null ? converted : Json.bytes(fromStorage(Json.parseTrusted(stored)));
    }

    /** A stored object in the served version, with its type meta; {@code stored} is not changed. */
    public ObjectNode fromStorage(ObjectNode stored) {
        return isStorageVersion()
                ? stored
                : withTypeMeta(type().gvk(), conversion.fromStorage(stored));
    }

    /** An object of the served version in its stored form, with the storage's type meta. */
    public ObjectNode toStorage(ObjectNode served) {
        return isStorageVersion()
                ? served
                : withTypeMeta(storageType().gvk(), conversion.toStorage(served));
    }

    /**
     * A write's response body in the served version: the stored object converted, a {@code Status}
     * of success naming this resource; anything else (a Scale) as it is.
     */
    public byte[] responseBody(byte[] body) {
        if (isStorageVersion()) {
            return body;
        }
        if (TypeMeta.storedMatches(storageType().gvk(), body)) {
            return fromStorage(body);
        }
        if (TypeMeta.storedMatches(STATUS, body)) {
            ObjectNode status = Json.parseTrusted(body);
            JsonNode details = status.get("details");
            GroupResource stored = storageType().groupResource();
            if (details instanceof ObjectNode d
                    && d.path("kind").asText().equals(stored.resource())
                    && d.path("group").asText().equals(stored.group())) {
                GroupResource served = type().groupResource();
                if (served.group().isEmpty()) {
                    d.remove("group");
                } else {
                    d.put("group", served.group());
                }
                d.put("kind", served.resource());
                return Json.bytes(status);
            }
        }
        return body;
    }

    private static final GroupVersionKind STATUS = new GroupVersionKind("", "v1", "Status");

    /** A refusal as this version's resource reports it ({@link ApiStatus#requalified}). */
    public ApiStatus refusal(ApiStatus status) {
        return status.requalified(storageType().groupResource(), type().groupResource());
    }

    /**
     * A field selector in the served version's labels as the storage's selects: every label is
     * checked against this version's (400 for one it does not have, as kube's field label
     * conversion answers) and renamed where the storage spells it otherwise.
     *
     * @throws io.kubepekko.api.status.ApiException 400 for an unparsable selector or a label this
     *     version does not support
     */
    public String storageFieldSelector(String selector) {
        if (isStorageVersion() || selector == null || selector.isEmpty()) {
            return selector;
        }
        FieldSelector bound = FieldSelector.parse(selector).forType(type());
        Map<String, String> renamed = conversion.fieldLabels();
        List<String> terms = new ArrayList<>();
        for (FieldSelector.Term t : bound.terms()) {
            terms.add(
                    new FieldSelector.Term(
                                    renamed.getOrDefault(t.label(), t.label()),
                                    t.negated(),
                                    t.value())
                            .toString());
        }
        return String.join(",", terms);
    }

    /**
     * {@code obj} with {@code gvk}'s type meta first, as kube-apiserver writes objects: a new tree,
     * the rest of the fields in their order.
     */
    private static ObjectNode withTypeMeta(GroupVersionKind gvk, ObjectNode obj) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("kind", gvk.kind());
        out.put("apiVersion", gvk.apiVersion());
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            if (!e.getKey().equals("kind") && !e.getKey().equals("apiVersion")) {
                out.set(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return type().groupResource()
                + "/"
                + type().version()
                + " stored as "
                + storageType().groupResource()
                + "/"
                + storageType().version();
    }
}
