package io.kubepekko.api.merge;

import io.kubepekko.api.protobuf.ProtoField;
import io.kubepekko.api.protobuf.ProtoMessage;
import io.kubepekko.api.protobuf.ProtoSchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The merge metadata of the built-in types, keyed by the type names of our message definitions
 * ({@code core.v1.PodSpec}) and JSON field names, and the navigation from a type to its fields' types
 * that patches need (through {@code inline} embeddings, whose fields are the enclosing object's).
 *
 * <p>Read from {@code merge-metadata.txt}: one line per marked field, {@code type field attr=value...}
 * with {@code patch=}, {@code key=}, {@code list=}, {@code keys=a,b}, {@code map=}, {@code struct=}.
 */
public final class MergeMetadata {

    private static final MergeMetadata BUILTIN = new MergeMetadata(ProtoSchema.builtin(), read("merge-metadata.txt"));

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

    /** A field of a type as a patch sees it: its merge metadata and the type of its values (null: scalar or unknown). */
    public record Field(FieldMerge merge, String valueType) {}

    /**
     * The field {@code jsonName} of type {@code type}, looked up through inline embeddings; for a
     * type or field we do not know, no metadata and no value type (merged as unstructured JSON).
     */
    public Field field(String type, String jsonName) {
        if (type == null) {
            return new Field(FieldMerge.NONE, null);
        }
        ProtoMessage message = schema.message(type);
        if (message == null) {
            return new Field(FieldMerge.NONE, null);
        }
        ProtoField f = message.field(jsonName);
        if (f != null && !f.inline()) {
            FieldMerge merge = byType.getOrDefault(type, Map.of()).getOrDefault(jsonName, FieldMerge.NONE);
            String valueType = f.isMap() ? f.mapValue() : f.type();
            return new Field(merge, schema.message(valueType) == null ? null : valueType);
        }
        for (ProtoField candidate : message.fields()) {
            if (candidate.inline()) {
                Field inner = field(candidate.type(), jsonName);
                if (inner.valueType() != null || inner.merge() != FieldMerge.NONE
                        || hasField(candidate.type(), jsonName)) {
                    return inner;
                }
            }
        }
        return new Field(FieldMerge.NONE, null);
    }

    /** Whether the type is declared {@code +structType=atomic} (owned and replaced as a whole). */
    public boolean atomicStruct(String type) {
        FieldMerge whole = byType.getOrDefault(type, Map.of()).get("*");
        return whole != null && "atomic".equals(whole.structType());
    }

    /** The protobuf field behind a JSON field of a type, through inline embeddings; null when unknown. */
    public ProtoField protoField(String type, String jsonName) {
        ProtoMessage message = type == null ? null : schema.message(type);
        if (message == null) {
            return null;
        }
        ProtoField f = message.field(jsonName);
        if (f != null && !f.inline()) {
            return f;
        }
        for (ProtoField candidate : message.fields()) {
            if (candidate.inline()) {
                ProtoField inner = protoField(candidate.type(), jsonName);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    /** Whether {@code type} defines {@code jsonName} itself. */
    private boolean hasField(String type, String jsonName) {
        ProtoMessage m = schema.message(type);
        return m != null && m.field(jsonName) != null;
    }

    private static Map<String, Map<String, FieldMerge>> parse(String text) {
        Map<String, Map<String, FieldMerge>> out = new HashMap<>();
        int lineNo = 0;
        for (String raw : text.split("\n")) {
            lineNo++;
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length < 3) {
                throw new IllegalArgumentException("merge-metadata.txt:" + lineNo + ": cannot read \"" + line + "\"");
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
                    throw new IllegalArgumentException("merge-metadata.txt:" + lineNo + ": " + parts[i]);
                }
                String value = parts[i].substring(eq + 1);
                switch (parts[i].substring(0, eq)) {
                    case "patch" -> patch = value;
                    case "key" -> key = value;
                    case "list" -> list = value;
                    case "keys" -> keys = Arrays.asList(value.split(","));
                    case "map" -> map = value;
                    case "struct" -> struct = value;
                    default -> throw new IllegalArgumentException("merge-metadata.txt:" + lineNo + ": " + parts[i]);
                }
            }
            out.computeIfAbsent(parts[0], t -> new HashMap<>())
                    .put(parts[1], new FieldMerge(patch, key, list, List.copyOf(keys), map, struct));
        }
        return out;
    }

    private static String read(String file) {
        try (InputStream in = MergeMetadata.class.getResourceAsStream(file)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
