package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;

import java.util.Map;

/**
 * Removes the fields of a {@link FieldSet} from an object: a member path removes the field, map
 * entry or list item it names. A struct, map or list that becomes empty by the removal goes too,
 * unless {@code kept} (what the managers still own) holds it: server-side apply removes a field a
 * manager stopped applying, not the empty container it leaves behind.
 */
final class FieldRemoval {

    private final MergeMetadata metadata;

    FieldRemoval(MergeMetadata metadata) {
        this.metadata = metadata;
    }

    /** Removes {@code remove} from {@code object} (of protobuf message {@code type}) in place. */
    void remove(ObjectNode object, String type, FieldSet remove, FieldSet kept) {
        removeFields(object, type, remove, kept);
    }

    private void removeFields(ObjectNode object, String type, FieldSet remove, FieldSet kept) {
        for (Map.Entry<String, FieldSet> e : remove.children().entrySet()) {
            if (!e.getKey().startsWith("f:")) {
                continue;
            }
            String name = e.getKey().substring(2);
            JsonNode value = object.get(name);
            if (value == null) {
                continue;
            }
            if (e.getValue().member()) {
                object.remove(name);
                continue;
            }
            FieldShape shape = FieldShape.of(metadata, type, name, value);
            FieldSet keptChild = kept == null ? null : kept.child(e.getKey());
            if (descend(value, shape, e.getValue(), keptChild) && (keptChild == null || !keptChild.member())) {
                object.remove(name);
            }
        }
    }

    /** Removes below {@code value}; true when that emptied it. */
    private boolean descend(JsonNode value, FieldShape shape, FieldSet remove, FieldSet kept) {
        if (value.isEmpty()) {
            return false; // empty before: not ours to remove
        }
        switch (shape.kind()) {
            case STRUCT -> {
                if (value instanceof ObjectNode o) {
                    removeFields(o, shape.valueType(), remove, kept);
                }
            }
            case MAP -> {
                if (value instanceof ObjectNode o) {
                    removeEntries(o, shape, remove, kept);
                }
            }
            case LIST_MAP, LIST_SET -> {
                if (value instanceof ArrayNode a) {
                    removeItems(a, shape, remove, kept);
                }
            }
            default -> { }
        }
        return value.isEmpty();
    }

    private void removeEntries(ObjectNode map, FieldShape shape, FieldSet remove, FieldSet kept) {
        for (Map.Entry<String, FieldSet> e : remove.children().entrySet()) {
            if (!e.getKey().startsWith("f:")) {
                continue;
            }
            String key = e.getKey().substring(2);
            JsonNode value = map.get(key);
            if (value == null) {
                continue;
            }
            FieldSet keptChild = kept == null ? null : kept.child(e.getKey());
            if (e.getValue().member()
                    || (descend(value, shape.entry(value), e.getValue(), keptChild)
                        && (keptChild == null || !keptChild.member()))) {
                map.remove(key);
            }
        }
    }

    private void removeItems(ArrayNode list, FieldShape shape, FieldSet remove, FieldSet kept) {
        for (int i = list.size() - 1; i >= 0; i--) {
            JsonNode item = list.get(i);
            String element = shape.itemElement(item);
            FieldSet r = remove.child(element);
            if (r == null) {
                continue;
            }
            if (r.member()) {
                list.remove(i);
            } else if (shape.structItems(item) && item instanceof ObjectNode o) {
                removeFields(o, shape.valueType(), r, kept == null ? null : kept.child(element));
            }
        }
    }
}
