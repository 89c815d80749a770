package io.kubepekko.api.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;

/**
 * Converts between Kubernetes' protobuf messages and our JSON object model, driven by the message
 * definitions of a {@link ProtoSchema}: no generated classes. Decoding follows Go's JSON semantics:
 * zero scalars of fields without presence are left out (as {@code omitempty}), bytes become base64,
 * the special messages their JSON forms. A field number the definitions do not know is a 400: no
 * field is dropped silently.
 */
public final class ProtoCodec {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * Buffer of each nested message's stream: most are a few dozen bytes, and protobuf-java's
     * default of 4 KiB per stream made encoding a pod five times slower than writing its JSON.
     */
    private static final int SMALL_BUFFER = 128;

    private final ProtoSchema schema;

    public ProtoCodec(ProtoSchema schema) {
        this.schema = schema;
    }

    /** Decodes one message's bytes as the JSON object of {@code messageName}. */
    public ObjectNode decode(byte[] bytes, String messageName, String errorPrefix) {
        ProtoErrors errors = new ProtoErrors(errorPrefix);
        try {
            return decodeMessage(bytes, message(messageName), errors);
        } catch (InvalidProtocolBufferException e) {
            throw errors.malformed("malformed protobuf: " + e.getMessage());
        } catch (IOException e) {
            throw errors.malformed(e.getMessage());
        }
    }

    /**
     * Encodes a JSON object as the bytes of message {@code messageName}; fields it does not define
     * are left out.
     */
    public byte[] encode(JsonNode object, String messageName) {
        try {
            return encodeMessage(object, message(messageName), new ProtoErrors("cannot encode: "));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private ProtoMessage message(String name) {
        ProtoMessage m = schema.message(name);
        if (m == null) {
            throw new IllegalArgumentException("no message definition " + name);
        }
        return m;
    }

    private ObjectNode decodeMessage(byte[] bytes, ProtoMessage message, ProtoErrors errors)
            throws IOException {
        ObjectNode out = NODES.objectNode();
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                return out;
            }
            int number = WireFormat.getTagFieldNumber(tag);
            int wireType = WireFormat.getTagWireType(tag);
            ProtoField field = message.field(number);
            if (field == null) {
                throw errors.unknownField(message.name(), number);
            }
            if (field.inline()) {
                expect(wireType, WireFormat.WIRETYPE_LENGTH_DELIMITED, message, field, errors);
                out.setAll(decodeMessage(in.readByteArray(), message(field.type()), errors));
            } else if (field.isMap()) {
                expect(wireType, WireFormat.WIRETYPE_LENGTH_DELIMITED, message, field, errors);
                decodeMapEntry(in.readByteArray(), field, message, out, errors);
            } else if (field.repeated()) {
                ArrayNode array =
                        out.has(field.jsonName())
                                ? (ArrayNode) out.get(field.jsonName())
                                : out.putArray(field.jsonName());
                if (wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED && isPackable(field.type())) {
                    CodedInputStream packed = CodedInputStream.newInstance(in.readByteArray());
                    while (!packed.isAtEnd()) {
                        array.add(scalar(packed, field.type()));
                    }
                } else {
                    JsonNode value = value(in, wireType, field.type(), message, field, errors);
                    array.add(value == null ? NODES.nullNode() : value);
                }
            } else {
                JsonNode value = value(in, wireType, field.type(), message, field, errors);
                if (value != null
                        && (field.presence()
                                || !isZero(value)
                                || RequiredFields.of(message).contains(field.jsonName()))) {
                    out.set(field.jsonName(), value);
                } else {
                    out.remove(field.jsonName());
                }
            }
        }
    }

    private void decodeMapEntry(
            byte[] entry,
            ProtoField field,
            ProtoMessage message,
            ObjectNode out,
            ProtoErrors errors)
            throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(entry);
        String key = "";
        JsonNode value = null;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            int number = WireFormat.getTagFieldNumber(tag);
            if (number == 1) {
                key = in.readString();
            } else if (number == 2) {
                value =
                        value(
                                in,
                                WireFormat.getTagWireType(tag),
                                field.mapValue(),
                                message,
                                field,
                                errors);
            } else {
                throw errors.unknownField(
                        message.name() + "." + field.jsonName() + " entry", number);
            }
        }
        ObjectNode map =
                out.has(field.jsonName())
                        ? (ObjectNode) out.get(field.jsonName())
                        : out.putObject(field.jsonName());
        map.set(key, value != null ? value : zero(field.mapValue()));
    }

    /** One value of a field: a scalar, a special message's JSON, or a nested object. */
    private JsonNode value(
            CodedInputStream in,
            int wireType,
            String type,
            ProtoMessage message,
            ProtoField field,
            ProtoErrors errors)
            throws IOException {
        if (ProtoField.isScalar(type)) {
            int expected =
                    switch (type) {
                        case "string", "bytes" -> WireFormat.WIRETYPE_LENGTH_DELIMITED;
                        case "double" -> WireFormat.WIRETYPE_FIXED64;
                        default -> WireFormat.WIRETYPE_VARINT;
                    };
            expect(wireType, expected, message, field, errors);
            return scalar(in, type);
        }
        expect(wireType, WireFormat.WIRETYPE_LENGTH_DELIMITED, message, field, errors);
        byte[] bytes = in.readByteArray();
        if (SpecialTypes.isSpecial(type)) {
            return SpecialTypes.decode(type, bytes, errors);
        }
        return decodeMessage(bytes, message(type), errors);
    }

    private static JsonNode scalar(CodedInputStream in, String type) throws IOException {
        return switch (type) {
            case "string" -> NODES.textNode(in.readString());
            case "bytes" -> NODES.textNode(Base64.getEncoder().encodeToString(in.readByteArray()));
            case "bool" -> NODES.booleanNode(in.readBool());
            case "int32" -> NODES.numberNode(in.readInt32());
            case "int64" -> number(in.readInt64());
            case "double" -> NODES.numberNode(in.readDouble());
            default -> throw new IllegalStateException(type);
        };
    }

    /**
     * An int64 as the JSON parser would make it: an int node when it fits, so trees compare equal.
     */
    private static JsonNode number(long value) {
        return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
    }

    private static JsonNode zero(String type) {
        return switch (type) {
            case "string", "bytes" -> NODES.textNode("");
            case "bool" -> NODES.booleanNode(false);
            case "int32", "int64" -> NODES.numberNode(0);
            case "double" -> NODES.numberNode(0d);
            default -> NODES.objectNode();
        };
    }

    private static boolean isPackable(String type) {
        return switch (type) {
            case "bool", "int32", "int64", "double" -> true;
            default -> false;
        };
    }

    private static boolean isZero(JsonNode value) {
        if (value.isTextual()) {
            return value.asText().isEmpty();
        }
        if (value.isBoolean()) {
            return !value.booleanValue();
        }
        if (value.isNumber()) {
            return value.doubleValue() == 0;
        }
        return false; // messages are kept even when empty: Go's JSON never omits a struct
    }

    private static void expect(
            int wireType,
            int expected,
            ProtoMessage message,
            ProtoField field,
            ProtoErrors errors) {
        if (wireType != expected) {
            throw errors.wrongWireType(message.name(), field.jsonName(), wireType);
        }
    }

    // ------------------------------------------------------------------ encoding

    private byte[] encodeMessage(JsonNode object, ProtoMessage message, ProtoErrors errors)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes, SMALL_BUFFER);
        for (ProtoField field : message.fields()) {
            if (field.inline()) {
                // The embedded struct's fields sit in this object; written only when it has some.
                byte[] embedded = encodeMessage(object, message(field.type()), errors);
                if (embedded.length > 0) {
                    out.writeByteArray(field.number(), embedded);
                }
                continue;
            }
            JsonNode value = object.get(field.jsonName());
            if (value == null || value.isNull()) {
                continue;
            }
            if (field.isMap()) {
                Iterator<Map.Entry<String, JsonNode>> entries = value.properties().iterator();
                while (entries.hasNext()) {
                    Map.Entry<String, JsonNode> e = entries.next();
                    ByteArrayOutputStream entryBytes = new ByteArrayOutputStream();
                    CodedOutputStream entry =
                            CodedOutputStream.newInstance(entryBytes, SMALL_BUFFER);
                    entry.writeString(1, e.getKey());
                    writeValue(entry, 2, field.mapValue(), e.getValue(), errors);
                    entry.flush();
                    out.writeByteArray(field.number(), entryBytes.toByteArray());
                }
            } else if (field.repeated()) {
                for (JsonNode item : value) {
                    writeValue(out, field.number(), field.type(), item, errors);
                }
            } else {
                writeValue(out, field.number(), field.type(), value, errors);
            }
        }
        out.flush();
        return bytes.toByteArray();
    }

    private void writeValue(
            CodedOutputStream out, int number, String type, JsonNode value, ProtoErrors errors)
            throws IOException {
        switch (type) {
            case "string" -> out.writeString(number, value.asText());
            case "bytes" -> out.writeByteArray(number, Base64.getDecoder().decode(value.asText()));
            case "bool" -> out.writeBool(number, value.asBoolean());
            case "int32" -> out.writeInt32(number, value.asInt());
            case "int64" -> out.writeInt64(number, value.asLong());
            case "double" -> out.writeDouble(number, value.asDouble());
            default ->
                    out.writeByteArray(
                            number,
                            SpecialTypes.isSpecial(type)
                                    ? SpecialTypes.encode(type, value, errors)
                                    : encodeMessage(value, message(type), errors));
        }
    }
}
