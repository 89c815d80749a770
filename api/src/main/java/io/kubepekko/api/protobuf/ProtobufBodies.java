package io.kubepekko.api.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.status.ApiStatus;

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
     * apiVersion and kind, when set, become the object's, so the usual checks against the URL apply.
     *
     * @throws io.kubepekko.api.status.ApiException 415 for a kind without a protobuf form, 400 for a
     *         body without the magic prefix, a malformed one, or one with a field this server does not know
     */
    public ObjectNode decode(byte[] body, GroupVersionKind expected) {
        String message = message(expected);
        if (message == null) {
            throw ApiStatus.unsupportedMediaType("the body of the request was in an unknown format - accepted media "
                    + "types include: application/json, application/yaml").exception();
        }
        Envelope.Unknown unknown = Envelope.decode(body);
        if (!unknown.contentEncoding().isEmpty()) {
            throw ApiStatus.badRequest("the object provided is unrecognized: content encoding "
                    + unknown.contentEncoding() + " is not supported").exception();
        }
        String kind = unknown.kind().isEmpty() ? expected.kind() : unknown.kind();
        String version = unknown.apiVersion().isEmpty() ? expected.apiVersion() : unknown.apiVersion();
        if (!kind.equals(expected.kind())) {
            throw ApiStatus.badRequest(kind + " in version \"" + version + "\" cannot be handled as a "
                    + expected.kind() + ": the protobuf body carries another kind").exception();
        }
        ObjectNode decoded = codec.decode(unknown.raw(), message,
                kind + " in version \"" + version + "\" cannot be handled as a " + expected.kind() + ": ");
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

    /** An object of {@code kind} as a protobuf body. */
    public byte[] encode(JsonNode object, GroupVersionKind kind) {
        String message = message(kind);
        if (message == null) {
            throw new IllegalArgumentException(kind + " has no protobuf form");
        }
        return Envelope.encode(kind.apiVersion(), kind.kind(), codec.encode(object, message));
    }
}
