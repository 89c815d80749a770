package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Server-side apply's removal of what an applier stopped applying (structured-merge-diff's {@code
 * prune}): a field, map entry or list item goes when the applier applied it last time, does not
 * apply it now, and no manager (the applier's new configuration included) owns it.
 *
 * <p>It follows the library's three steps rather than a shortcut, because ownership is recorded at
 * different depths: a granular map or list item can be owned as a node ({@code "."}) while its
 * contents are owned one by one, and a struct counts as owned when anything below it is.
 *
 * <ol>
 *   <li>remove everything the applier's previous set names (with struct fields that have owned
 *       children counted as members);
 *   <li>add back whatever any manager still owns;
 *   <li>add back whatever the previous set did not name (unowned fields below an owned node, such
 *       as defaults, stay unless their node goes).
 * </ol>
 *
 * A container emptied by the removal goes too. The object's {@code metadata} itself is never a
 * member here: the name, uid and other untracked fields are not the applier's to remove.
 */
final class FieldRemoval {

    private static final FieldShape LEAF =
            new FieldShape(FieldShape.Kind.LEAF, null, List.of(), Map.of());

    private final MergeMetadata metadata;
    private final TypedFields fields;

    FieldRemoval(MergeMetadata metadata) {
        this.metadata = metadata;
        this.fields = new TypedFields(metadata);
    }

    /**
     * {@code merged} (of protobuf message {@code type}) without the fields the applier owned by
     * {@code last} and no longer owns; {@code managed} is what every manager owns after the apply,
     * the applier's new set included. Returns a new object; {@code merged} is not changed.
     */
    ObjectNode prune(ObjectNode merged, String type, FieldSet last, FieldSet managed) {
        if (last.isEmpty()) {
            return merged;
        }
        FieldShape root = FieldShape.struct(type);
        FieldSet lastMembers = withNamedFields(last, root);
        FieldSet mergedSet = withNamedFields(fields.applied(merged, type), root);

        ObjectNode pruned = without(merged, lastMembers, root);
        FieldSet unowned =
                mergedSet
                        .difference(withNamedFields(fields.applied(pruned, type), root))
                        .difference(withNamedFields(managed, root));
        ObjectNode ownedKept = without(merged, unowned, root);
        FieldSet dangling =
                mergedSet
                        .difference(withNamedFields(fields.applied(ownedKept, type), root))
                        .intersection(lastMembers);
        return without(merged, dangling, root);
    }

    /**
     * {@code object} without the members of {@code remove}; an object emptied by it stays an
     * (empty) object.
     */
    private ObjectNode without(ObjectNode object, FieldSet remove, FieldShape shape) {
        JsonNode out = strip(object, remove, shape);
        return out instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    }

    /**
     * {@code value} without the members of {@code remove} (each with everything below it); null
     * when a container is left empty, so its parent drops it as structured-merge-diff does.
     */
    private JsonNode strip(JsonNode value, FieldSet remove, FieldShape shape) {
        switch (shape.kind()) {
            case STRUCT, MAP -> {
                if (!value.isObject()) {
                    return value;
                }
                ObjectNode out = JsonNodeFactory.instance.objectNode();
                Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    FieldSet r = remove.child("f:" + e.getKey());
                    if (r == null) {
                        out.set(e.getKey(), e.getValue());
                    } else if (!r.member()) {
                        FieldShape child =
                                shape.kind() == FieldShape.Kind.MAP
                                        ? shape.entry(e.getValue())
                                        : FieldShape.of(
                                                metadata,
                                                shape.valueType(),
                                                e.getKey(),
                                                e.getValue());
                        JsonNode kept = strip(e.getValue(), r, child);
                        if (kept != null) {
                            out.set(e.getKey(), kept);
                        }
                    }
                }
                return out.isEmpty() ? null : out;
            }
            case LIST_MAP, LIST_SET -> {
                if (!value.isArray()) {
                    return value;
                }
                ArrayNode out = JsonNodeFactory.instance.arrayNode();
                for (JsonNode item : value) {
                    FieldSet r = remove.child(shape.itemElement(item));
                    if (r == null) {
                        out.add(item);
                    } else if (!r.member()) {
                        JsonNode kept =
                                shape.structItems(item)
                                        ? strip(item, r, FieldShape.struct(shape.valueType()))
                                        : item;
                        if (kept != null) {
                            out.add(kept);
                        }
                    }
                }
                return out.isEmpty() ? null : out;
            }
            default -> {
                return value; // atomic: only its parent can remove it whole
            }
        }
    }

    /**
     * {@code set} with every declared struct field that has members below it made a member itself
     * (structured-merge-diff's {@code EnsureNamedFieldsAreMembers}): a struct is owned through its
     * fields, a map entry is not. The root's {@code metadata} is left out (see the class comment).
     */
    private FieldSet withNamedFields(FieldSet set, FieldShape root) {
        FieldSet.Builder out = new FieldSet.Builder();
        collectNamed(set, root, new ArrayList<>(), out, true);
        return out.build();
    }

    private void collectNamed(
            FieldSet node,
            FieldShape shape,
            List<String> path,
            FieldSet.Builder out,
            boolean root) {
        for (Map.Entry<String, FieldSet> e : node.children().entrySet()) {
            String element = e.getKey();
            FieldSet child = e.getValue();
            path.add(element);
            FieldShape childShape = childShape(shape, element);
            boolean named =
                    shape.kind() == FieldShape.Kind.STRUCT
                            && shape.valueType() != null
                            && element.startsWith("f:")
                            && metadata.protoField(shape.valueType(), element.substring(2)) != null
                            && !(root && element.equals("f:metadata"));
            if (child.member() || (named && !child.children().isEmpty())) {
                out.add(List.copyOf(path));
            }
            collectNamed(child, childShape, path, out, false);
            path.remove(path.size() - 1);
        }
    }

    /** The shape below one path element, as far as the element alone tells (types, not values). */
    private FieldShape childShape(FieldShape shape, String element) {
        return switch (shape.kind()) {
            case STRUCT ->
                    shape.valueType() == null || !element.startsWith("f:")
                            ? LEAF
                            : FieldShape.of(
                                    metadata, shape.valueType(), element.substring(2), null);
            case MAP, LIST_MAP ->
                    shape.valueType() == null ? LEAF : FieldShape.struct(shape.valueType());
            default -> LEAF;
        };
    }
}
