package io.kubepekko.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.status.ApiException;
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
 * primitives), other lists are replaced. Directives: {@code $patch: replace|delete|merge} on
 * objects and list items, {@code $setElementOrder/<field>}, {@code $retainKeys} and {@code
 * $deleteFromPrimitiveList/<field>}.
 *
 * <p>Pure: the original is not modified.
 */
public final class StrategicMergePatch {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String PATCH = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";

    private final MergeMetadata metadata;

    public StrategicMergePatch(MergeMetadata metadata) {
        this.metadata = metadata;
    }

    /**
     * The patched object.
     *
     * @param type the qualified type of the object ({@code core.v1.Pod}); null patches it as
     *     untyped JSON
     * @throws io.kubepekko.api.status.ApiException 400 for a malformed directive or a list item
     *     without its merge key
     */
    public ObjectNode apply(ObjectNode original, ObjectNode patch, String type) {
        JsonNode merged = mergeObject(original.deepCopy(), patch, type);
        return merged == null ? NODES.objectNode() : (ObjectNode) merged;
    }

    /**
     * Merges {@code patch} into {@code target} (modified); null when the patch deletes the object.
     */
    private JsonNode mergeObject(ObjectNode target, ObjectNode patch, String type) {
        JsonNode directive = patch.get(PATCH);
        if (directive != null) {
            String d = directive.isTextual() ? directive.asText() : "";
            if (d.equals("delete")) {
                return null;
            }
            if (d.equals("replace")) {
                ObjectNode replacement = patch.deepCopy();
                replacement.remove(PATCH);
                return stripDirectives(replacement);
            }
            // Kubernetes' mergeMap: a map takes only replace or delete ("merge" too is refused).
            throw unknownPatchType(directive, patch);
        }
        applyRetainKeys(target, patch);
        Map<String, ArrayNode> orders = setElementOrders(patch);
        Iterator<Map.Entry<String, JsonNode>> fields = patch.properties().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (key.equals(PATCH) || key.equals(RETAIN_KEYS) || key.startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                deleteFromPrimitiveList(
                        target,
                        directiveKey(
                                key,
                                DELETE_FROM_PRIMITIVE_LIST,
                                "invalid patch format of primitive list"),
                        value,
                        type);
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
        for (Map.Entry<String, ArrayNode> o : orders.entrySet()) {
            JsonNode list = target.get(o.getKey());
            if (list != null && list.isArray()) {
                MergeMetadata.Field field = metadata.field(type, o.getKey());
                target.set(
                        o.getKey(),
                        order((ArrayNode) list, o.getValue(), field.merge().patchMergeKey()));
            }
        }
        return target;
    }

    /**
     * {@code $retainKeys}: a list naming every key the map keeps; each key the patch sets must be
     * in it (400 {@code invalid patch format of retainKeys} otherwise, as for a value that is not a
     * list).
     */
    private static void applyRetainKeys(ObjectNode target, ObjectNode patch) {
        JsonNode retainKeys = patch.get(RETAIN_KEYS);
        if (retainKeys == null) {
            return;
        }
        if (!retainKeys.isArray()) {
            throw ApiStatus.badRequest("invalid patch format of retainKeys").exception();
        }
        Set<JsonNode> keep = new HashSet<>();
        retainKeys.forEach(keep::add);
        Iterator<Map.Entry<String, JsonNode>> fields = patch.properties().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            String k = e.getKey();
            if (e.getValue().isNull()
                    || k.equals(RETAIN_KEYS)
                    || k.startsWith(DELETE_FROM_PRIMITIVE_LIST)
                    || k.startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            if (!keep.contains(NODES.textNode(k))) {
                throw ApiStatus.badRequest("invalid patch format of retainKeys").exception();
            }
        }
        List<String> names = new ArrayList<>();
        target.fieldNames().forEachRemaining(names::add);
        for (String n : names) {
            if (!keep.contains(NODES.textNode(n))) {
                target.remove(n);
            }
        }
    }

    /**
     * The {@code $setElementOrder/<field>} lists of a map, by field; refused as Kubernetes refuses
     * them.
     */
    private static Map<String, ArrayNode> setElementOrders(ObjectNode patch) {
        Map<String, ArrayNode> orders = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.properties().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            if (!e.getKey().startsWith(SET_ELEMENT_ORDER)) {
                continue;
            }
            if (!e.getValue().isArray()) {
                throw ApiStatus.badRequest(
                                "expected a []interface {}, but received a " + goType(e.getValue()))
                        .exception();
            }
            orders.put(
                    directiveKey(
                            e.getKey(),
                            SET_ELEMENT_ORDER,
                            "invalid patch format of setElementOrder list"),
                    (ArrayNode) e.getValue());
        }
        return orders;
    }

    /**
     * {@code $deleteFromPrimitiveList/<field>}: Kubernetes takes it as {@code <field>} merged in
     * "delete" mode. A list drops the values listed; a value of another type than the field's is
     * ignored (so is one for an absent field); null removes the field; a map merges into it, a
     * scalar replaces it.
     */
    private void deleteFromPrimitiveList(
            ObjectNode target, String key, JsonNode value, String type) {
        if (value.isNull()) {
            target.remove(key);
            return;
        }
        JsonNode current = target.get(key);
        if (current == null || !goType(current).equals(goType(value))) {
            return;
        }
        if (value.isArray()) {
            Set<JsonNode> drop = new HashSet<>();
            value.forEach(drop::add);
            ArrayNode kept = NODES.arrayNode();
            current.forEach(
                    item -> {
                        if (!drop.contains(item)) {
                            kept.add(item);
                        }
                    });
            target.set(key, kept);
        } else if (value.isObject()) {
            JsonNode merged =
                    mergeObject(
                            ((ObjectNode) current).deepCopy(),
                            (ObjectNode) value,
                            metadata.field(type, key).valueType());
            target.set(key, merged == null ? NODES.objectNode() : merged);
        } else {
            target.set(key, value);
        }
    }

    /**
     * The field a directive key names ({@code $setElementOrder/<field>}); 400 {@code problem} when
     * malformed.
     */
    private static String directiveKey(String key, String prefix, String problem) {
        int slash = key.indexOf('/');
        if (slash < 0 || !key.substring(0, slash).equals(prefix)) {
            throw ApiStatus.badRequest(problem).exception();
        }
        return key.substring(slash + 1);
    }

    /**
     * The Go type {@code encoding/json} decodes a value to, as Kubernetes' patch errors name it.
     */
    private static String goType(JsonNode value) {
        if (value.isObject()) {
            return "map[string]interface {}";
        } else if (value.isArray()) {
            return "[]interface {}";
        } else if (value.isTextual()) {
            return "string";
        } else if (value.isBoolean()) {
            return "bool";
        } else if (value.isIntegralNumber() && value.canConvertToLong()) {
            return "int64";
        } else if (value.isNumber()) {
            return "float64";
        }
        return "%!s(<nil>)";
    }

    private static ApiException unknownPatchType(JsonNode directive, JsonNode map) {
        return ApiStatus.badRequest(
                        "unknown patch type: "
                                + GoFormat.s(directive)
                                + " in map: "
                                + GoFormat.v(map))
                .exception();
    }

    private JsonNode mergeValue(JsonNode current, JsonNode patch, MergeMetadata.Field field) {
        if (patch.isObject()) {
            if (current == null || !current.isObject() || field.merge().replaces()) {
                return mergeObject(NODES.objectNode(), (ObjectNode) patch, field.valueType());
            }
            return mergeObject(
                    ((ObjectNode) current).deepCopy(), (ObjectNode) patch, field.valueType());
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
        patch.forEach(
                item -> {
                    if (!(item.isObject()
                            && item.size() == 1
                            && "replace".equals(item.path(PATCH).asText()))) {
                        out.add(item);
                    }
                });
        return out;
    }

    private JsonNode mergeList(ArrayNode current, ArrayNode patch, MergeMetadata.Field field) {
        String key = field.merge().patchMergeKey();
        boolean objects = key != null && !key.isEmpty();
        if (!objects) {
            for (JsonNode item : patch) {
                if (item.isObject()
                        && item.size() == 1
                        && "replace".equals(item.path(PATCH).asText())) {
                    return stripDirectives(replacementList(patch));
                }
            }
        }
        ArrayNode result = current.deepCopy();
        if (objects) {
            // Kubernetes' mergeSliceWithSpecialElements: deletions and a replace first, refusing
            // any other $patch.
            ArrayNode plain = NODES.arrayNode();
            boolean replace = false;
            for (JsonNode item : patch) {
                JsonNode directive = item.isObject() ? item.get(PATCH) : null;
                if (directive == null) {
                    plain.add(item);
                    continue;
                }
                String d = directive.isTextual() ? directive.asText() : "";
                if (d.equals("delete")) {
                    JsonNode id = item.get(key);
                    if (id == null) {
                        throw bad("map: " + item + " does not contain declared merge key: " + key);
                    }
                    for (int at = indexOf(result, key, id);
                            at >= 0;
                            at = indexOf(result, key, id)) {
                        result.remove(at);
                    }
                } else if (d.equals("replace")) {
                    replace = true;
                } else if (d.equals("merge")) {
                    throw ApiStatus.badRequest("merging lists cannot yet be specified in the patch")
                            .exception();
                } else {
                    throw unknownPatchType(directive, item);
                }
            }
            if (replace) {
                return stripDirectives(plain);
            }
            patch = plain;
        }
        if (!objects) {
            // A merged list of primitives is a set: new values are appended once.
            Set<JsonNode> present = new HashSet<>();
            result.forEach(present::add);
            for (JsonNode item : patch) {
                if (item.isObject()) {
                    throw bad(
                            "unable to find api field in struct for the primitive list item "
                                    + item);
                }
                if (present.add(item)) {
                    result.add(item);
                }
            }
            return result;
        }
        for (JsonNode item : patch) {
            if (!item.isObject()) {
                throw bad(
                        "patch item " + item + " of a list merged by " + key + " is not an object");
            }
            JsonNode id = item.get(key);
            if (id == null) {
                throw bad("map: " + item + " does not contain declared merge key: " + key);
            }
            int at = indexOf(result, key, id);
            if (at >= 0) {
                JsonNode merged =
                        mergeObject(
                                ((ObjectNode) result.get(at)).deepCopy(),
                                (ObjectNode) item,
                                field.valueType());
                if (merged == null) {
                    result.remove(at);
                } else {
                    result.set(at, merged);
                }
            } else {
                JsonNode added =
                        mergeObject(NODES.objectNode(), (ObjectNode) item, field.valueType());
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

    private static ApiException bad(String message) {
        return ApiStatus.badRequest(message).exception();
    }
}
