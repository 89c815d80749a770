package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Server-side apply's merge of an applied configuration into the live object, by the type's merge
 * metadata: the configuration wins on every value it sets; structs and granular maps merge key by
 * key; associative lists merge item by item (matched by key) and sets by value; atomic values are
 * replaced whole. An explicit {@code null} in the configuration removes the field.
 *
 * <p>List order follows the configuration for the items it names, with the live object's other
 * items kept where they were, as structured-merge-diff orders a merged list.
 */
public final class StructuredMerge {

    private final MergeMetadata metadata;

    public StructuredMerge(MergeMetadata metadata) {
        this.metadata = metadata;
    }

    /**
     * {@code config} merged into {@code live} (both objects of protobuf message {@code type});
     * neither is changed.
     */
    public ObjectNode merge(ObjectNode live, ObjectNode config, String type) {
        return mergeStruct(live, config, type);
    }

    private ObjectNode mergeStruct(ObjectNode live, ObjectNode config, String type) {
        return mergeKeys(
                live, config, (key, applied) -> FieldShape.of(metadata, type, key, applied));
    }

    private ObjectNode mergeMap(ObjectNode live, ObjectNode config, FieldShape shape) {
        return mergeKeys(live, config, (key, applied) -> shape.entry(applied));
    }

    /**
     * Key by key: live keys in their order, then the configuration's new ones; a null removes its
     * key.
     */
    private ObjectNode mergeKeys(
            ObjectNode live, ObjectNode config, BiFunction<String, JsonNode, FieldShape> shapes) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        Iterator<Map.Entry<String, JsonNode>> it = live.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode applied = config.get(e.getKey());
            if (applied == null) {
                out.set(e.getKey(), e.getValue().deepCopy());
            } else if (!applied.isNull()) {
                out.set(
                        e.getKey(),
                        mergeValue(e.getValue(), applied, shapes.apply(e.getKey(), applied)));
            }
        }
        Iterator<Map.Entry<String, JsonNode>> added = config.properties().iterator();
        while (added.hasNext()) {
            Map.Entry<String, JsonNode> e = added.next();
            if (!live.has(e.getKey()) && !e.getValue().isNull()) {
                out.set(e.getKey(), withoutNulls(e.getValue()));
            }
        }
        return out;
    }

    private JsonNode mergeValue(JsonNode live, JsonNode applied, FieldShape shape) {
        switch (shape.kind()) {
            case STRUCT -> {
                if (live.isObject() && applied.isObject()) {
                    return mergeStruct((ObjectNode) live, (ObjectNode) applied, shape.valueType());
                }
            }
            case MAP -> {
                if (live.isObject() && applied.isObject()) {
                    return mergeMap((ObjectNode) live, (ObjectNode) applied, shape);
                }
            }
            case LIST_MAP, LIST_SET -> {
                if (live.isArray() && applied.isArray() && !(live.isEmpty() && applied.isEmpty())) {
                    return mergeList((ArrayNode) live, (ArrayNode) applied, shape);
                }
            }
            default -> {}
        }
        return withoutNulls(applied);
    }

    /**
     * Walks both lists at once: an item both name is merged and placed in the configuration's
     * order; an item only the live list has stays where it was; an item only the configuration has
     * goes where the configuration puts it.
     */
    private ArrayNode mergeList(ArrayNode live, ArrayNode config, FieldShape shape) {
        Map<String, JsonNode> liveItems = index(live, shape);
        Map<String, JsonNode> configItems = index(config, shape);
        List<String> liveOrder = new ArrayList<>(liveItems.keySet());
        List<String> configOrder = new ArrayList<>(configItems.keySet());
        List<String> shared = new ArrayList<>();
        for (String k : configOrder) {
            if (liveItems.containsKey(k)) {
                shared.add(k);
            }
        }
        int nextShared = 0;
        Set<String> placed = new HashSet<>();
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        int l = 0;
        int r = 0;
        while (l < liveOrder.size() || r < configOrder.size()) {
            if (l < liveOrder.size() && r < configOrder.size()) {
                String k = liveOrder.get(l);
                if (k.equals(configOrder.get(r))) {
                    out.add(item(liveItems.get(k), configItems.get(k), shape));
                    placed.add(k);
                    l++;
                    r++;
                    nextShared++;
                    continue;
                }
                if (configItems.containsKey(k)
                        && nextShared < shared.size()
                        && !shared.get(nextShared).equals(k)) {
                    l++; // a shared item the configuration places later
                    continue;
                }
            }
            if (l < liveOrder.size()) {
                String k = liveOrder.get(l);
                if (!configItems.containsKey(k)) {
                    out.add(liveItems.get(k).deepCopy());
                    l++;
                    continue;
                }
            }
            if (r < configOrder.size()) {
                String k = configOrder.get(r);
                if (!placed.contains(k)) {
                    out.add(item(liveItems.get(k), configItems.get(k), shape));
                    placed.add(k);
                    if (nextShared < shared.size() && shared.get(nextShared).equals(k)) {
                        nextShared++;
                    }
                }
                r++;
            } else {
                l++; // only shared live items left, all placed already
            }
        }
        return out;
    }

    private JsonNode item(JsonNode live, JsonNode applied, FieldShape shape) {
        if (live == null) {
            return withoutNulls(applied);
        }
        if (shape.structItems(applied) && live.isObject()) {
            return mergeStruct((ObjectNode) live, (ObjectNode) applied, shape.valueType());
        }
        return withoutNulls(applied);
    }

    /**
     * Items by their path element; a repeated key keeps its first item (validation reports
     * duplicates).
     */
    private static Map<String, JsonNode> index(ArrayNode list, FieldShape shape) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode item : list) {
            out.putIfAbsent(shape.itemElement(item), item);
        }
        return out;
    }

    /** A configuration value as stored: explicit nulls below it mean "absent". */
    private static JsonNode withoutNulls(JsonNode value) {
        if (value.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            value.properties()
                    .iterator()
                    .forEachRemaining(
                            e -> {
                                if (!e.getValue().isNull()) {
                                    out.set(e.getKey(), withoutNulls(e.getValue()));
                                }
                            });
            return out;
        }
        if (value.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            value.forEach(v -> out.add(withoutNulls(v)));
            return out;
        }
        return value.deepCopy();
    }
}
