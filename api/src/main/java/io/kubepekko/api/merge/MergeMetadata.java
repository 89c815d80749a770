package io.kubepekko.api.merge;

import io.kubepekko.api.meta.DefinitionLines;
import io.kubepekko.api.protobuf.ProtoField;
import io.kubepekko.api.protobuf.ProtoMessage;
import io.kubepekko.api.protobuf.ProtoSchema;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The merge metadata of the built-in types, keyed by the type names of our message definitions
 * ({@code core.v1.PodSpec}) and JSON field names, and the navigation from a type to its fields'
 * types that patches need (through {@code inline} embeddings, whose fields are the enclosing
 * object's).
 *
 * <p>Read from {@code merge-metadata.txt}: one line per marked field, {@code type field
 * attr=value...} with {@code patch=}, {@code key=}, {@code list=}, {@code keys=a,b}, {@code map=},
 * {@code struct=}.
 */
public final class MergeMetadata {

    private static final MergeMetadata BUILTIN =
            new MergeMetadata(
                    ProtoSchema.builtin(),
                    DefinitionLines.resource(MergeMetadata.class, "merge-metadata.txt"));

    private final ProtoSchema schema;
    private final Map<String, Map<String, FieldMerge>> byType;

    MergeMetadata(ProtoSchema schema, String text) {
        this.schema = schema;
        this.byType = parse(text == null ? "" : text);
    }

    /** The built-in kinds' metadata. */
    public static MergeMetadata builtin() {
        return BUILTIN;
    }

    /** Metadata from the given text, over the built-in types (tests). */
    public static MergeMetadata of(String text) {
        return new MergeMetadata(ProtoSchema.builtin(), text);
    }

    /**
     * A field of a type as a patch sees it: its merge metadata and the type of its values (null:
     * scalar or unknown).
     */
    public record Field(FieldMerge merge, String valueType) {}

    /**
     * The field {@code jsonName} of type {@code type}, looked up through inline embeddings; for a
     * type or field we do not know, no metadata and no value type (merged as unstructured JSON).
     */
    public Field field(String type, String jsonName) {
        Declared d = declared(type, jsonName);
        if (d == null) {
            return new Field(FieldMerge.NONE, null);
        }
        FieldMerge merge =
                byType.getOrDefault(d.type(), Map.of()).getOrDefault(jsonName, FieldMerge.NONE);
        String valueType = d.field().isMap() ? d.field().mapValue() : d.field().type();
        return new Field(merge, schema.message(valueType) == null ? null : valueType);
    }

    /**
     * A JSON field and the type that declares it (the type itself, or a struct it embeds inline).
     */
    private record Declared(String type, ProtoField field) {}

    private Declared declared(String type, String jsonName) {
        ProtoMessage message = type == null ? null : schema.message(type);
        if (message == null) {
            return null;
        }
        ProtoField f = message.field(jsonName);
        if (f != null && !f.inline()) {
            return new Declared(type, f);
        }
        for (ProtoField candidate : message.fields()) {
            if (candidate.inline()) {
                Declared inner = declared(candidate.type(), jsonName);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /** Whether the type is declared {@code +structType=atomic} (owned and replaced as a whole). */
    public boolean atomicStruct(String type) {
        FieldMerge whole = byType.getOrDefault(type, Map.of()).get("*");
        return whole != null && "atomic".equals(whole.structType());
    }

    /**
     * The protobuf field behind a JSON field of a type, through inline embeddings; null when
     * unknown.
     */
    public ProtoField protoField(String type, String jsonName) {
        Declared d = declared(type, jsonName);
        return d == null ? null : d.field();
    }

    private static Map<String, Map<String, FieldMerge>> parse(String text) {
        Map<String, Map<String, FieldMerge>> out = new HashMap<>();
        for (DefinitionLines.Line l : DefinitionLines.of(text)) {
            int lineNo = l.number();
            String line = l.text();
            String[] parts = line.split("\\s+");
            if (parts.length < 3) {
                throw new IllegalArgumentException(
                        "merge-metadata.txt:" + lineNo + ": cannot read \"" + line + "\"");
            }
            String patch = null;
            String key = null;
            String list = null;
            List<String> keys = List.of();
            String map = null;
            String struct = null;
            for (int i = 2; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(
                            "merge-metadata.txt:" + lineNo + ": " + parts[i]);
                }
                String value = parts[i].substring(eq + 1);
                switch (parts[i].substring(0, eq)) {
                    case "patch" -> patch = value;
                    case "key" -> key = value;
                    case "list" -> list = value;
                    case "keys" -> keys = Arrays.asList(value.split(","));
                    case "map" -> map = value;
                    case "struct" -> struct = value;
                    default ->
                            throw new IllegalArgumentException(
                                    "merge-metadata.txt:" + lineNo + ": " + parts[i]);
                }
            }
            out.computeIfAbsent(parts[0], t -> new HashMap<>())
                    .put(
                            parts[1],
                            new FieldMerge(patch, key, list, List.copyOf(keys), map, struct));
        }
        return out;
    }
}
