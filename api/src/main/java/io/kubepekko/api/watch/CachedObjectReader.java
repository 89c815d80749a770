package io.kubepekko.api.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.selector.FieldSelector;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns stored JSON of one resource type into {@link CachedObject}s: reads only the metadata and
 * the selectable fields (a filtered parse), keeps the bytes and the selector values, and drops the
 * tree. The input is what the server itself persisted, so unparsable JSON or a missing name is a
 * bug ({@link IllegalArgumentException}), not a client error.
 */
public final class CachedObjectReader {

    private final Function<JsonNode, Map<String, String>> fieldValues;

    /**
     * What {@link #read} needs of an object; the rest (the bulk of it: spec, managedFields) is
     * skipped.
     */
    private final PartialJson needed;

    public CachedObjectReader(ResourceType type) {
        this.fieldValues = FieldSelector.valueReader(type);
        Set<String> paths =
                new HashSet<>(
                        List.of(
                                "metadata.name",
                                "metadata.namespace",
                                "metadata.resourceVersion",
                                "metadata.labels"));
        Set<String> selectable = FieldSelector.valuePaths(type);
        if (selectable != null) {
            paths.addAll(selectable);
        }
        this.needed = PartialJson.keeping(paths);
    }

    /** Reads key and version from the object's own metadata (a stored object, as on a rebuild). */
    public CachedObject read(byte[] json) {
        ObjectNode tree = parse(json);
        String name = ObjectMeta.name(tree);
        if (name == null) {
            throw new IllegalArgumentException("stored object without metadata.name");
        }
        return build(tree, json, new ObjectKey(ObjectMeta.namespace(tree), name), versionOf(tree));
    }

    /** Uses the key and version an event states rather than reading them from the JSON. */
    public CachedObject read(byte[] json, ObjectKey key, long resourceVersion) {
        return build(parse(json), json, key, resourceVersion);
    }

    /** Only the parts of the object {@link #needed}: a few nodes instead of the whole tree. */
    private ObjectNode parse(byte[] json) {
        return needed.parse(json);
    }

    private CachedObject build(ObjectNode tree, byte[] json, ObjectKey key, long resourceVersion) {
        return new CachedObject(
                key, resourceVersion, json, ObjectMeta.labels(tree), fieldValues.apply(tree));
    }

    private static long versionOf(ObjectNode tree) {
        String rv = ObjectMeta.resourceVersion(tree);
        try {
            return Long.parseLong(rv);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("stored object with resourceVersion " + rv, e);
        }
    }
}
