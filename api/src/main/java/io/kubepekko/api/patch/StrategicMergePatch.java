package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.FieldMerge;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.status.ApiStatus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' strategic merge patch ({@code application/strategic-merge-patch+json}), driven by the
 * merge metadata of the types: objects merge key by key ({@code null} deletes), lists whose field
 * declares {@code patchStrategy: merge} merge by their {@code patchMergeKey} (or as a set of
 * primitives), other lists are replaced. Directives: {@code $patch: replace|delete|merge} on objects and
 * list items, {@code $setElementOrder/<field>}, {@code $retainKeys} and
 * {@code $deleteFromPrimitiveList/<field>}.
 *
 * <p>Pure: the original is not modified.
 */
public final class StrategicMergePatch {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder/";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";

    private final MergeMetadata metadata;

    public StrategicMergePatch(MergeMetadata metadata) {
        this.metadata = metadata;
    }

    /**
     * The patched object.
     *
     * @param type the qualified type of the object ({@code core.v1.Pod}); null patches it as untyped JSON
     * @throws io.kubepekko.api.status.ApiException 400 for a malformed directive or a list item
     *         without its merge key
     */
    public ObjectNode apply(ObjectNode original, ObjectNode patch, String type) {
        JsonNode merged = mergeObject(original.deepCopy(), patch, type);
        return merged == null ? NODES.objectNode() : (ObjectNode) merged;
    }

    /** Merges {@code patch} into {@code target} (modified); null when the patch deletes the object. */
    private JsonNode mergeObject(ObjectNode target, ObjectNode patch, String type) {
        JsonNode directive = patch.get(PATCH);
        if (directive != null) {
            switch (directive.asText()) {
                case "delete" -> {
                    return null;
                }
                case "replace" -> {
                    ObjectNode replacement = patch.deepCopy();
                    replacement.remove(PATCH);
                    return stripDirectives(replacement);
                }
                case "merge" -> { }
                default -> throw bad("Unknown patch type: " + directive.asText() + " in map: " + patch);
            }
        }
        Map<String, JsonNode> orders = new LinkedHashMap<>();
        Map<String, JsonNode> deletions = new LinkedHashMap<>();
        JsonNode retainKeys = null;
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.equals(PATCH)) {
                continue;
            }
            if (key.equals(RETAIN_KEYS)) {
                retainKeys = value;
                continue;
            }
            if (key.startsWith(SET_ELEMENT_ORDER)) {
                orders.put(key.substring(SET_ELEMENT_ORDER.length()), value);
                continue;
            }
            if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                deletions.put(key.substring(DELETE_FROM_PRIMITIVE_LIST.length()), value);
                continue;
            }
            if (value.isNull()) {
                target.remove(key);
                continue;
            }
            MergeMetadata.Field field = metadata.field(type, key);
            JsonNode current = target.get(key);
            JsonNode merged = mergeValue(current, value, field);
            if (merged == null) {
                target.remove(key);
            } else {
                target.set(key, merged);
            }
        }
        for (Map.Entry<String, JsonNode> d : deletions.entrySet()) {
            JsonNode list = target.get(d.getKey());
            if (!d.getValue().isArray()) {
                throw bad("invalid " + DELETE_FROM_PRIMITIVE_LIST + d.getKey() + ": must be a list");
            }
            if (list != null && list.isArray()) {
                Set<JsonNode> drop = new HashSet<>();
                d.getValue().forEach(drop::add);
                ArrayNode kept = NODES.arrayNode();
                list.forEach(item -> {
                    if (!drop.contains(item)) {
                        kept.add(item);
                    }
                });
                target.set(d.getKey(), kept);
            }
        }
        for (Map.Entry<String, JsonNode> o : orders.entrySet()) {
            JsonNode list = target.get(o.getKey());
            if (list != null && list.isArray()) {
                MergeMetadata.Field field = metadata.field(type, o.getKey());
                target.set(o.getKey(), order((ArrayNode) list, o.getValue(), field.merge().patchMergeKey()));
            }
        }
        if (retainKeys != null) {
            if (!retainKeys.isArray()) {
                throw bad("invalid " + RETAIN_KEYS + ": must be a list");
            }
            Set<String> keep = new HashSet<>();
            retainKeys.forEach(k -> keep.add(k.asText()));
            List<String> names = new ArrayList<>();
            target.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                if (!keep.contains(n)) {
                    target.remove(n);
                }
            }
        }
        return target;
    }

    private JsonNode mergeValue(JsonNode current, JsonNode patch, MergeMetadata.Field field) {
        if (patch.isObject()) {
            if (current == null || !current.isObject() || field.merge().replaces()) {
                return mergeObject(NODES.objectNode(), (ObjectNode) patch, field.valueType());
            }
            return mergeObject(((ObjectNode) current).deepCopy(), (ObjectNode) patch, field.valueType());
        }
        if (patch.isArray()) {
            if (current == null || !current.isArray() || !field.merge().mergesList()) {
                return stripDirectives(replacementList((ArrayNode) patch));
            }
            return mergeList((ArrayNode) current, (ArrayNode) patch, field);
        }
        return patch;
    }

    /** A list that replaces the original: only a {@code $patch: replace} marker item is dropped. */
    private static ArrayNode replacementList(ArrayNode patch) {
        ArrayNode out = NODES.arrayNode();
        patch.forEach(item -> {
            if (!(item.isObject() && item.size() == 1 && "replace".equals(item.path(PATCH).asText()))) {
                out.add(item);
            }
        });
        return out;
    }

    private JsonNode mergeList(ArrayNode current, ArrayNode patch, MergeMetadata.Field field) {
        String key = field.merge().patchMergeKey();
        for (JsonNode item : patch) {
            if (item.isObject() && item.size() == 1 && "replace".equals(item.path(PATCH).asText())) {
                return stripDirectives(replacementList(patch));
            }
        }
        boolean objects = key != null && !key.isEmpty();
        ArrayNode result = current.deepCopy();
        if (!objects) {
            // A merged list of primitives is a set: new values are appended once.
            Set<JsonNode> present = new HashSet<>();
            result.forEach(present::add);
            for (JsonNode item : patch) {
                if (item.isObject()) {
                    throw bad("unable to find api field in struct for the primitive list item " + item);
                }
                if (present.add(item)) {
                    result.add(item);
                }
            }
            return result;
        }
        for (JsonNode item : patch) {
            if (!item.isObject()) {
                throw bad("patch item " + item + " of a list merged by " + key + " is not an object");
            }
            JsonNode id = item.get(key);
            if (id == null) {
                throw bad("map: " + item + " does not contain declared merge key: " + key);
            }
            int at = indexOf(result, key, id);
            if ("delete".equals(item.path(PATCH).asText())) {
                if (at >= 0) {
                    result.remove(at);
                }
                continue;
            }
            if (at >= 0) {
                JsonNode merged = mergeObject(((ObjectNode) result.get(at)).deepCopy(), (ObjectNode) item,
                        field.valueType());
                if (merged == null) {
                    result.remove(at);
                } else {
                    result.set(at, merged);
                }
            } else {
                JsonNode added = mergeObject(NODES.objectNode(), (ObjectNode) item, field.valueType());
                if (added != null) {
                    result.add(added);
                }
            }
        }
        return result;
    }

    /**
     * Orders a merged list by {@code $setElementOrder}: the items it names come in its order, the
     * others keep their relative order from the live list, interleaved as Kubernetes does (an item
     * is placed before another when both were in the live list in that order).
     */
    private static ArrayNode order(ArrayNode merged, JsonNode order, String key) {
        if (!order.isArray()) {
            throw bad("invalid " + SET_ELEMENT_ORDER + ": must be a list");
        }
        List<JsonNode> inOrder = new ArrayList<>();
        List<JsonNode> others = new ArrayList<>();
        List<JsonNode> orderIds = new ArrayList<>();
        for (JsonNode o : order) {
            orderIds.add(key == null ? o : o.get(key));
        }
        for (JsonNode o : orderIds) {
            for (JsonNode item : merged) {
                if (o != null && o.equals(key == null ? item : item.get(key))) {
                    inOrder.add(item);
                    break;
                }
            }
        }
        for (JsonNode item : merged) {
            if (!orderIds.contains(key == null ? item : item.get(key))) {
                others.add(item);
            }
        }
        List<JsonNode> serverOrder = new ArrayList<>();
        merged.forEach(serverOrder::add);
        ArrayNode out = NODES.arrayNode();
        int i = 0;
        int j = 0;
        while (i < inOrder.size() || j < others.size()) {
            if (i >= inOrder.size()) {
                out.add(others.get(j++));
            } else if (j >= others.size()) {
                out.add(inOrder.get(i++));
            } else {
                int li = serverOrder.indexOf(inOrder.get(i));
                int ri = serverOrder.indexOf(others.get(j));
                if (li >= 0 && ri >= 0 && li < ri) {
                    out.add(inOrder.get(i++));
                } else {
                    out.add(others.get(j++));
                }
            }
        }
        return out;
    }

    private static int indexOf(ArrayNode list, String key, JsonNode id) {
        for (int i = 0; i < list.size(); i++) {
            if (id.equals(list.get(i).get(key))) {
                return i;
            }
        }
        return -1;
    }

    /** Removes directives left in content that replaces (they are never stored). */
    private static <T extends JsonNode> T stripDirectives(T node) {
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                if (n.startsWith("$")) {
                    o.remove(n);
                } else {
                    stripDirectives(o.get(n));
                }
            }
        } else if (node.isArray()) {
            node.forEach(StrategicMergePatch::stripDirectives);
        }
        return node;
    }

    private static io.kubepekko.api.status.ApiException bad(String message) {
        return ApiStatus.badRequest(message).exception();
    }
}
