package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.merge.FieldMerge;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtoField;
import io.kubepekko.api.protobuf.ProtoKinds;
import io.kubepekko.api.protobuf.ProtoMessage;
import io.kubepekko.api.protobuf.ProtoSchema;
import io.kubepekko.api.protobuf.WellKnownTypes;
import io.kubepekko.api.schema.FieldDefaults;
import io.kubepekko.api.schema.FieldEnums;
import io.kubepekko.api.schema.ModelSchemas;
import io.kubepekko.api.schema.SchemaNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Component schemas of the built-in types in the shape kube-apiserver publishes in OpenAPI v3, from
 * three sources that each know part of it:
 *
 * <ul>
 *   <li>the client models ({@link ModelSchemas}): fields, their JSON types, descriptions, required;
 *   <li>our message definitions ({@link ProtoSchema}): which Go package each type lives in (its
 *       component name), which scalars are Go pointers, the declaration order, inline embeddings;
 *   <li>our merge metadata ({@link MergeMetadata}): the {@code x-kubernetes-*} list, map and patch
 *       markers, which the models do not carry;
 * </ul>
 *
 * plus {@link FieldDefaults} for the defaults and {@link FieldEnums} for the enums none of them can
 * tell.
 *
 * <p>A component is built once, with every component it refers to, and kept; callers get shared
 * nodes and must copy before changing them. Property keys are sorted, as in Kubernetes' documents,
 * so the bytes do not depend on reflection order.
 */
final class ModelComponents {
    private static final ModelComponents BUILTIN =
            new ModelComponents(
                    ProtoSchema.builtin(),
                    MergeMetadata.builtin(),
                    FieldDefaults.builtin(),
                    FieldEnums.builtin());

    private final ProtoSchema proto;
    private final MergeMetadata merge;
    private final FieldDefaults defaults;
    private final FieldEnums enums;
    private final Map<String, ObjectNode> components = new HashMap<>();

    ModelComponents(
            ProtoSchema proto, MergeMetadata merge, FieldDefaults defaults, FieldEnums enums) {
        this.proto = proto;
        this.merge = merge;
        this.defaults = defaults;
        this.enums = enums;
    }

    static ModelComponents builtin() {
        return BUILTIN;
    }

    /**
     * The component name of a built-in kind, building it; empty when the kind has no model or
     * message.
     */
    synchronized Optional<String> kind(GroupVersionKind gvk) {
        String type = ProtoKinds.message(proto, gvk.group(), gvk.version(), gvk.kind());
        Optional<SchemaNode> model = ModelSchemas.forKind(gvk);
        return type == null || model.isEmpty()
                ? Optional.empty()
                : Optional.of(object(model.get(), type));
    }

    /**
     * The component name of a built-in list kind ({@code DeploymentList}) whose items are {@code
     * itemKind}, building it; empty when either has no model or message.
     */
    synchronized Optional<String> list(GroupVersionKind listGvk, GroupVersionKind itemKind) {
        Optional<SchemaNode> model = ModelSchemas.forKind(listGvk);
        String itemType =
                ProtoKinds.message(proto, itemKind.group(), itemKind.version(), itemKind.kind());
        if (model.isEmpty() || itemType == null) {
            return Optional.empty();
        }
        String name = SchemaNames.of(listGvk);
        if (!components.containsKey(name)) {
            ObjectNode schema = Json.MAPPER.createObjectNode();
            components.put(name, schema);
            fill(schema, model.get(), new ListFields(itemType), Optional.of(listGvk));
        }
        return Optional.of(name);
    }

    /**
     * The component name of the model {@code modelClass} ({@code V1ListMeta}) as message {@code
     * type}.
     */
    synchronized String model(String modelClass, String type) {
        SchemaNode model =
                ModelSchemas.forModel(modelClass)
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "the client has no model " + modelClass));
        return object(model, type);
    }

    /**
     * The component name of a well-known apimachinery type ({@link WellKnownSchemas}), adding it.
     */
    synchronized String wellKnown(String type) {
        String name = ComponentNames.of(type);
        components.computeIfAbsent(name, n -> WellKnownSchemas.of(type));
        return name;
    }

    /** A component built before, by name (shared: copy before changing it). */
    synchronized ObjectNode get(String name) {
        ObjectNode schema = components.get(name);
        if (schema == null) {
            throw new IllegalStateException("no component " + name);
        }
        return schema;
    }

    /**
     * The component {@code name} and every component it refers to, directly or not, sorted by name.
     */
    synchronized Map<String, ObjectNode> closure(String name) {
        Map<String, ObjectNode> out = new TreeMap<>();
        Deque<String> pending = new ArrayDeque<>(List.of(name));
        while (!pending.isEmpty()) {
            String next = pending.pop();
            ObjectNode schema = components.get(next);
            if (schema == null) {
                throw new IllegalStateException("no component " + next);
            }
            if (out.put(next, schema) == null) {
                for (JsonNode ref : schema.findValues("$ref")) {
                    pending.push(ref.asText().substring(Schemas.REF_PREFIX.length()));
                }
            }
        }
        return out;
    }

    // --- objects

    /** The component of message {@code type} described by {@code model}, built on first use. */
    private String object(SchemaNode model, String type) {
        String name = ComponentNames.of(type);
        if (!components.containsKey(name)) {
            ObjectNode schema = Json.MAPPER.createObjectNode();
            components.put(name, schema); // first: a type may contain itself
            fill(
                    schema,
                    model,
                    new MessageFields(type),
                    isKind(model) ? ComponentNames.asKind(type) : Optional.empty());
        }
        return name;
    }

    /**
     * Whether a type is a kind (an object clients send and receive on its own, with {@code
     * x-kubernetes-group-version-kind}): it has type metadata and object or list metadata.
     * References ({@code OwnerReference}, {@code ObjectReference}) have {@code apiVersion} and
     * {@code kind} too, but no {@code metadata}.
     */
    private static boolean isKind(SchemaNode model) {
        return model.properties().keySet().containsAll(List.of("apiVersion", "kind", "metadata"));
    }

    private void fill(
            ObjectNode schema, SchemaNode model, Fields fields, Optional<GroupVersionKind> gvk) {
        if (model.typeDescription() != null) {
            schema.put("description", model.typeDescription());
        }
        ObjectNode properties = schema.putObject("properties");
        new TreeMap<>(model.properties())
                .forEach(
                        (json, field) ->
                                properties.set(
                                        json,
                                        property(
                                                field,
                                                fields,
                                                json,
                                                model.required().contains(json))));
        List<String> required = fields.inDeclarationOrder(model.required());
        if (!required.isEmpty()) {
            required.forEach(schema.putArray("required")::add);
        }
        schema.put("type", "object");
        if (fields.atomic()) {
            schema.put("x-kubernetes-map-type", "atomic");
        }
        gvk.ifPresent(g -> schema.set(Schemas.GVK_EXTENSION, Schemas.gvkList(List.of(g))));
        ObjectNode sorted = Schemas.sortedKeys(schema);
        schema.removeAll();
        schema.setAll(sorted);
    }

    private ObjectNode property(SchemaNode field, Fields fields, String json, boolean required) {
        FieldFacts facts = fields.field(json);
        ObjectNode s = value(field, facts == null ? null : facts.valueType());
        putEnum(s, field, enums.of(fields.name(), json));
        String description = description(field);
        if (description != null) {
            s.put("description", description);
        }
        JsonNode dflt = defaultOf(field, facts, fields.name(), json, required);
        if (dflt != null) {
            s.set("default", dflt);
        }
        if (facts != null) {
            markers(s, facts.merge());
        }
        return Schemas.sortedKeys(Schemas.refInAllOf(s));
    }

    /**
     * A field's own description or, for a struct field, its type's: the client models lose the
     * description of a field whose type is a struct (the generator keeps only the referenced
     * type's), and the type's is better than none in {@code kubectl explain}.
     */
    private static String description(SchemaNode field) {
        if (field.description() != null || field.type() != SchemaNode.Type.OBJECT) {
            return field.description();
        }
        return field.typeDescription();
    }

    /**
     * The default kube-openapi publishes for a field: the one listed in {@link FieldDefaults} when
     * it fits the field, else the zero value of a scalar that is neither a pointer nor optional.
     */
    private JsonNode defaultOf(
            SchemaNode field, FieldFacts facts, String owner, String json, boolean required) {
        JsonNode listed = defaults.of(owner, json);
        if (listed != null && fits(field, listed)) {
            return listed;
        }
        return required && facts != null && !facts.pointer() ? zero(field) : null;
    }

    private static boolean fits(SchemaNode field, JsonNode value) {
        return switch (field.type()) {
            case OBJECT -> value.isObject();
            case STRING -> value.isTextual();
            case INTEGER, NUMBER -> value.isNumber();
            case BOOLEAN -> value.isBoolean();
            default -> false;
        };
    }

    /**
     * The zero value Go would write for a scalar, as kube-openapi publishes it; null for other
     * types.
     */
    private static JsonNode zero(SchemaNode node) {
        return switch (node.type()) {
            case STRING -> Json.MAPPER.getNodeFactory().textNode("");
            case INTEGER, NUMBER -> Json.MAPPER.getNodeFactory().numberNode(0);
            case BOOLEAN -> Json.MAPPER.getNodeFactory().booleanNode(false);
            default -> null;
        };
    }

    /**
     * Publishes a field's listed enum where its strings are: on the field itself, or on its list
     * items or map values, as kube-openapi does wherever an enum type is used. A listed field that
     * holds no strings gets nothing (the tests check that every listed enum is published).
     */
    private static void putEnum(ObjectNode s, SchemaNode field, List<String> values) {
        if (values.isEmpty()) {
            return;
        }
        ObjectNode holder =
                switch (field.type()) {
                    case STRING -> s;
                    case ARRAY -> ifStrings(field.items(), s.get("items"));
                    case MAP -> ifStrings(field.items(), s.get("additionalProperties"));
                    default -> null;
                };
        if (holder != null) {
            values.forEach(holder.putArray("enum")::add);
        }
    }

    private static ObjectNode ifStrings(SchemaNode element, JsonNode schema) {
        return element.type() == SchemaNode.Type.STRING ? (ObjectNode) schema : null;
    }

    private static void markers(ObjectNode s, FieldMerge m) {
        if (!m.listMapKeys().isEmpty()) {
            m.listMapKeys().forEach(s.putArray("x-kubernetes-list-map-keys")::add);
        }
        putIfSet(s, "x-kubernetes-list-type", m.listType());
        // A field's +mapType and +structType both publish as x-kubernetes-map-type.
        putIfSet(s, "x-kubernetes-map-type", m.mapType() != null ? m.mapType() : m.structType());
        putIfSet(s, "x-kubernetes-patch-merge-key", m.patchMergeKey());
        putIfSet(s, "x-kubernetes-patch-strategy", m.patchStrategy());
    }

    private static void putIfSet(ObjectNode s, String key, String value) {
        if (value != null) {
            s.put(key, value);
        }
    }

    // --- values

    /**
     * The schema of a value of {@code node}'s type, whose message type (element or map value type
     * for arrays and maps) is {@code type}, or null when our definitions do not have the field. An
     * object or well-known type is a {@code $ref}; the caller moves it into {@code allOf} if it
     * adds siblings.
     */
    private ObjectNode value(SchemaNode node, String type) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        switch (node.type()) {
            case OBJECT -> {
                if (type != null && proto.message(type) != null) {
                    s.put("$ref", Schemas.REF_PREFIX + object(node, type));
                } else {
                    // A field the client models have and our definitions do not: keep it open.
                    s.put("type", "object");
                    s.put("x-kubernetes-preserve-unknown-fields", true);
                }
            }
            case ARRAY -> {
                s.set("items", element(node.items(), type));
                s.put("type", "array");
            }
            case MAP -> {
                s.set("additionalProperties", element(node.items(), type));
                s.put("type", "object");
            }
            case STRING -> s.put("type", "string");
            case BOOLEAN -> s.put("type", "boolean");
            case INTEGER ->
                    s.put("format", node.goType().equals("int32") ? "int32" : "int64")
                            .put("type", "integer");
            case NUMBER ->
                    s.put("format", node.goType().equals("float32") ? "float" : "double")
                            .put("type", "number");
            case BYTES -> s.put("format", "byte").put("type", "string");
            case DATE_TIME ->
                    s.put(
                            "$ref",
                            Schemas.REF_PREFIX
                                    + wellKnown(
                                            WellKnownTypes.MICRO_TIME.equals(type)
                                                    ? type
                                                    : WellKnownTypes.TIME));
            case INT_OR_STRING ->
                    s.put("$ref", Schemas.REF_PREFIX + wellKnown(WellKnownTypes.INT_OR_STRING));
            case QUANTITY -> s.put("$ref", Schemas.REF_PREFIX + wellKnown(WellKnownTypes.QUANTITY));
            case ANY -> {
                if (type != null && WellKnownSchemas.isWellKnown(type)) {
                    s.put("$ref", Schemas.REF_PREFIX + wellKnown(type));
                } else {
                    s.put("type", "object");
                    s.put("x-kubernetes-preserve-unknown-fields", true);
                }
            }
        }
        return s;
    }

    /**
     * A list item or map value: Go never omits these, so structs and scalars carry their zero value
     * as default ({@code {}}, {@code ""}, {@code 0}), as kube-openapi publishes it.
     */
    private ObjectNode element(SchemaNode node, String type) {
        ObjectNode s = value(node, type);
        JsonNode dflt =
                node.type() == SchemaNode.Type.OBJECT && s.has("$ref")
                        ? Json.MAPPER.createObjectNode()
                        : zero(node);
        if (dflt != null) {
            s.set("default", dflt);
        }
        return Schemas.sortedKeys(Schemas.refInAllOf(s));
    }

    // --- what a type says about its fields

    /** What the walk needs to know about a field beyond the model. */
    private record FieldFacts(String valueType, boolean pointer, FieldMerge merge) {}

    /** The fields of one object type, as our definitions describe them. */
    private interface Fields {
        /** The type's name for {@link FieldDefaults} and {@link FieldEnums}. */
        String name();

        /** Facts about a JSON field, or null when the type does not define it. */
        FieldFacts field(String json);

        /**
         * {@code names} in the order Go declares them (inline embeddings in place), unknown ones
         * last.
         */
        List<String> inDeclarationOrder(Set<String> names);

        /** Whether the type is {@code +structType=atomic}. */
        boolean atomic();
    }

    /** The fields of a message of our definitions. */
    private final class MessageFields implements Fields {
        private final String type;

        MessageFields(String type) {
            this.type = type;
        }

        @Override
        public String name() {
            return type;
        }

        @Override
        public FieldFacts field(String json) {
            ProtoField f = merge.protoField(type, json);
            if (f == null) {
                return null;
            }
            return new FieldFacts(
                    f.isMap() ? f.mapValue() : f.type(),
                    f.presence(),
                    merge.field(type, json).merge());
        }

        @Override
        public List<String> inDeclarationOrder(Set<String> names) {
            Set<String> ordered = new LinkedHashSet<>();
            declared(proto.message(type), ordered);
            ordered.retainAll(names);
            List<String> out = new ArrayList<>(ordered);
            out.addAll(new TreeSet<>(names).stream().filter(n -> !ordered.contains(n)).toList());
            return out;
        }

        /**
         * Field numbers follow Go's declaration order, with an embedded struct's fields where it
         * sits.
         */
        private void declared(ProtoMessage message, Set<String> out) {
            if (message == null) {
                return;
            }
            for (ProtoField f : message.fields()) {
                if (f.inline()) {
                    declared(proto.message(f.type()), out);
                } else {
                    out.add(f.jsonName());
                }
            }
        }

        @Override
        public boolean atomic() {
            return merge.atomicStruct(type);
        }
    }

    /** The fields of a list kind, which has no message of its own: ListMeta and the items. */
    private static final class ListFields implements Fields {
        private final String itemType;

        ListFields(String itemType) {
            this.itemType = itemType;
        }

        @Override
        public String name() {
            return "list";
        }

        @Override
        public FieldFacts field(String json) {
            return switch (json) {
                case "metadata" -> new FieldFacts("meta.ListMeta", false, FieldMerge.NONE);
                case "items" -> new FieldFacts(itemType, false, FieldMerge.NONE);
                default -> null;
            };
        }

        @Override
        public List<String> inDeclarationOrder(Set<String> names) {
            return new ArrayList<>(new TreeSet<>(names));
        }

        @Override
        public boolean atomic() {
            return false;
        }
    }
}
