package io.kubepekko.api.protobuf;

import static io.kubepekko.api.protobuf.WellKnownTypes.DURATION;
import static io.kubepekko.api.protobuf.WellKnownTypes.EXTRA_VALUE;
import static io.kubepekko.api.protobuf.WellKnownTypes.FIELDS_V1;
import static io.kubepekko.api.protobuf.WellKnownTypes.INT_OR_STRING;
import static io.kubepekko.api.protobuf.WellKnownTypes.MICRO_TIME;
import static io.kubepekko.api.protobuf.WellKnownTypes.QUANTITY;
import static io.kubepekko.api.protobuf.WellKnownTypes.RAW_EXTENSION;
import static io.kubepekko.api.protobuf.WellKnownTypes.TIME;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import io.kubepekko.api.meta.GoDurations;
import io.kubepekko.api.meta.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Set;

/**
 * The messages whose JSON form is not an object of their fields: times, durations, IntOrString,
 * Quantity, FieldsV1, RawExtension and the reviews' ExtraValue. Each converts between its wire
 * message and its JSON value.
 */
final class SpecialTypes {
    private SpecialTypes() {}

    private static final Set<String> ALL =
            Set.of(
                    TIME,
                    MICRO_TIME,
                    DURATION,
                    INT_OR_STRING,
                    QUANTITY,
                    FIELDS_V1,
                    RAW_EXTENSION,
                    EXTRA_VALUE);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final DateTimeFormatter MICROS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    static boolean isSpecial(String type) {
        return ALL.contains(type);
    }

    /**
     * The JSON value of one special message, or null when it is the zero value that Go's JSON
     * leaves out (a zero time).
     */
    static JsonNode decode(String type, byte[] bytes, ProtoErrors errors) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        long seconds = 0;
        long int1 = 0;
        int int2 = 0;
        String text = null;
        byte[] raw = null;
        ArrayNode items = NODES.arrayNode();
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            int number = tag >>> 3;
            switch (type) {
                case TIME, MICRO_TIME -> {
                    if (number == 1) {
                        seconds = in.readInt64();
                    } else if (number == 2) {
                        int2 = in.readInt32();
                    } else {
                        throw errors.unknownField(type, number);
                    }
                }
                case DURATION -> {
                    if (number != 1) {
                        throw errors.unknownField(type, number);
                    }
                    int1 = in.readInt64();
                }
                case INT_OR_STRING -> {
                    switch (number) {
                        case 1 -> int1 = in.readInt64();
                        case 2 -> int2 = in.readInt32();
                        case 3 -> text = in.readString();
                        default -> throw errors.unknownField(type, number);
                    }
                }
                case QUANTITY -> {
                    if (number != 1) {
                        throw errors.unknownField(type, number);
                    }
                    text = in.readString();
                }
                case FIELDS_V1, RAW_EXTENSION -> {
                    if (number != 1) {
                        throw errors.unknownField(type, number);
                    }
                    raw = in.readByteArray();
                }
                case EXTRA_VALUE -> {
                    if (number != 1) {
                        throw errors.unknownField(type, number);
                    }
                    items.add(in.readString());
                }
                default -> throw new IllegalStateException(type);
            }
        }
        return switch (type) {
            case TIME ->
                    seconds == 0 && int2 == 0
                            ? null
                            : NODES.textNode(Instant.ofEpochSecond(seconds).toString());
            case MICRO_TIME ->
                    seconds == 0 && int2 == 0
                            ? null
                            : NODES.textNode(
                                    MICROS.format(
                                            Instant.ofEpochSecond(seconds, int2)
                                                    .truncatedTo(ChronoUnit.MICROS)));
            case DURATION -> NODES.textNode(GoDurations.format(int1));
            case INT_OR_STRING ->
                    int1 == 1 ? NODES.textNode(text == null ? "" : text) : NODES.numberNode(int2);
            case QUANTITY -> NODES.textNode(text == null ? "" : text);
            case EXTRA_VALUE -> items;
            default -> raw == null || raw.length == 0 ? null : json(type, raw, errors);
        };
    }

    private static JsonNode json(String type, byte[] raw, ProtoErrors errors) {
        try {
            return Json.MAPPER.readTree(raw);
        } catch (IOException e) {
            throw errors.malformed(type + " does not hold JSON");
        }
    }

    /** The wire message of one special value. */
    static byte[] encode(String type, JsonNode value, ProtoErrors errors) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes, 64);
        switch (type) {
            case TIME, MICRO_TIME -> {
                Instant t = Instant.parse(value.asText());
                out.writeInt64(1, t.getEpochSecond());
                if (type.equals(MICRO_TIME) && t.getNano() != 0) {
                    out.writeInt32(2, t.getNano());
                }
            }
            case DURATION -> out.writeInt64(1, GoDurations.parse(value.asText()));
            case INT_OR_STRING -> {
                if (value.isTextual()) {
                    out.writeInt64(1, 1);
                    out.writeString(3, value.asText());
                } else {
                    out.writeInt64(1, 0);
                    out.writeInt32(2, value.asInt());
                }
            }
            case QUANTITY -> out.writeString(1, value.asText());
            case FIELDS_V1, RAW_EXTENSION ->
                    out.writeByteArray(1, Json.MAPPER.writeValueAsBytes(value));
            case EXTRA_VALUE -> {
                for (JsonNode item : value) {
                    out.writeString(1, item.asText());
                }
            }
            default -> throw new IllegalStateException(type);
        }
        out.flush();
        return bytes.toByteArray();
    }
}
