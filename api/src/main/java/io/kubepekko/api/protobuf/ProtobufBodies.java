package io.kubepekko.api.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedOutputStream;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.ListBody;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Request and response bodies in Kubernetes' protobuf ({@value #MEDIA_TYPE}): the envelope around
 * the kind's message, converted to and from our JSON object model by the {@link ProtoCodec}.
 */
public final class ProtobufBodies {

    /** The media type of protobuf bodies. */
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

    private static final ProtobufBodies BUILTIN = new ProtobufBodies(ProtoSchema.builtin());

    private final ProtoSchema schema;
    private final ProtoCodec codec;

    ProtobufBodies(ProtoSchema schema) {
        this.schema = schema;
        this.codec = new ProtoCodec(schema);
    }

    /** The built-in kinds' bodies. */
    public static ProtobufBodies builtin() {
        return BUILTIN;
    }

    /** Whether a kind has a protobuf form (built-in kinds do; custom resources do not). */
    public boolean supports(GroupVersionKind kind) {
        return message(kind) != null;
    }

    private String message(GroupVersionKind kind) {
        return ProtoKinds.message(schema, kind.group(), kind.version(), kind.kind());
    }

    /**
     * Decodes a request body sent for {@code expected} (the kind the URL addresses). The envelope's
     * apiVersion and kind, when set, become the object's, so the usual checks against the URL
     * apply.
     *
     * @throws io.kubepekko.api.status.ApiException 415 for a kind without a protobuf form, 400 for
     *     a body without the magic prefix, a malformed one, or one with a field this server does
     *     not know
     */
    public ObjectNode decode(byte[] body, GroupVersionKind expected) {
        String message = message(expected);
        if (message == null) {
            throw ApiStatus.unsupportedMediaType(
                            "the body of the request was in an unknown format - accepted media "
                                    + "types include: application/json, application/yaml")
                    .exception();
        }
        Envelope.Unknown unknown = Envelope.decode(body);
        if (!unknown.contentEncoding().isEmpty()) {
            throw ApiStatus.badRequest(
                            "the object provided is unrecognized: content encoding "
                                    + unknown.contentEncoding()
                                    + " is not supported")
                    .exception();
        }
        String kind = unknown.kind().isEmpty() ? expected.kind() : unknown.kind();
        String version =
                unknown.apiVersion().isEmpty() ? expected.apiVersion() : unknown.apiVersion();
        if (!kind.equals(expected.kind())) {
            throw ApiStatus.badRequest(
                            kind
                                    + " in version \""
                                    + version
                                    + "\" cannot be handled as a "
                                    + expected.kind()
                                    + ": the protobuf body carries another kind")
                    .exception();
        }
        ObjectNode decoded =
                codec.decode(
                        unknown.raw(),
                        message,
                        kind
                                + " in version \""
                                + version
                                + "\" cannot be handled as a "
                                + expected.kind()
                                + ": ");
        ObjectNode object = decoded.objectNode();
        if (!unknown.apiVersion().isEmpty()) {
            object.put("apiVersion", unknown.apiVersion());
        }
        if (!unknown.kind().isEmpty()) {
            object.put("kind", unknown.kind());
        }
        object.setAll(decoded);
        return object;
    }

    /** The kind an object names in its {@code apiVersion} and {@code kind}. */
    public static GroupVersionKind kindOf(JsonNode object) {
        String apiVersion = object.path("apiVersion").asText("");
        int slash = apiVersion.indexOf('/');
        return new GroupVersionKind(
                slash < 0 ? "" : apiVersion.substring(0, slash),
                apiVersion.substring(slash + 1),
                object.path("kind").asText(""));
    }

    /**
     * A list as a protobuf body: Kubernetes' list messages are all {@code metadata} = 1 (ListMeta)
     * and {@code items} = 2 (the kind's message, repeated).
     */
    public byte[] encodeList(
            GroupVersionKind itemKind, String listKind, JsonNode listMeta, List<byte[]> items) {
        String message = message(itemKind);
        if (message == null) {
            throw new IllegalArgumentException(itemKind + " has no protobuf form");
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeByteArray(1, codec.encode(listMeta, "meta.ListMeta"));
            for (byte[] item : items) {
                out.writeByteArray(2, codec.encode(Json.parseTrusted(item), message));
            }
            out.flush();
            return Envelope.encode(itemKind.apiVersion(), listKind, bytes.toByteArray());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A list as a protobuf body written item by item, byte for byte {@link #encodeList}'s. Every
     * item is encoded here once (the length prefixes need their sizes, and an item that cannot be
     * encoded fails here, before anything is written); the encoded items are kept while they add up
     * to at most {@code keepUpTo} bytes, else each is encoded again as the body is written.
     *
     * @param perItem applied to each item's stored JSON before it is encoded (a conversion to the
     *     served version), or null
     */
    public ListBody listBody(
            GroupVersionKind itemKind,
            String listKind,
            JsonNode listMeta,
            List<byte[]> items,
            UnaryOperator<byte[]> perItem,
            long keepUpTo) {
        String message = message(itemKind);
        if (message == null) {
            throw new IllegalArgumentException(itemKind + " has no protobuf form");
        }
        return new ProtobufListBody(
                codec,
                message,
                itemKind.apiVersion(),
                listKind,
                listFields(itemKind, listKind),
                codec.encode(listMeta, "meta.ListMeta"),
                items,
                perItem,
                keepUpTo);
    }

    /**
     * Where the list message of {@code listKind} has its metadata and items (kinds' lists have no
     * message here).
     */
    private ProtobufListBody.Fields listFields(GroupVersionKind itemKind, String listKind) {
        String name = ProtoKinds.message(schema, itemKind.group(), itemKind.version(), listKind);
        ProtoMessage list = name == null ? null : schema.message(name);
        if (list == null || list.field("metadata") == null || list.field("items") == null) {
            return ProtobufListBody.Fields.USUAL;
        }
        return new ProtobufListBody.Fields(
                list.field("metadata").number(), list.field("items").number());
    }

    /**
     * An object's message bytes without the envelope (a watch event's object is enveloped on its
     * own).
     */
    public byte[] encodeRaw(JsonNode object, GroupVersionKind kind) {
        return codec.encode(object, message(kind));
    }

    /** An object of {@code kind} as a protobuf body. */
    public byte[] encode(JsonNode object, GroupVersionKind kind) {
        String message = message(kind);
        if (message == null) {
            throw new IllegalArgumentException(kind + " has no protobuf form");
        }
        return Envelope.encode(kind.apiVersion(), kind.kind(), codec.encode(object, message));
    }
}
