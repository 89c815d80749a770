package io.kubepekko.http;

import io.kubepekko.api.protobuf.ProtobufBodies;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.BodyDecoder;
import io.kubepekko.api.codec.DecodedBody;
import io.kubepekko.api.codec.FieldValidation;

import java.util.List;

/**
 * Decodes request bodies into object trees against the kind's schema (JSON, YAML, Kubernetes'
 * protobuf; no Content-Type means JSON), applying {@code fieldValidation}: unknown fields are
 * dropped, warned about or refused.
 */
final class RequestBodies {
    private RequestBodies() {}

    /** A decoded body and the warnings decoding produced. */
    record Decoded(ObjectNode object, List<String> warnings) {}

    static Decoded decode(String mediaType, byte[] body, GroupVersionKind kind, FieldValidation validation) {
        String type = mediaType == null || mediaType.equals("application/octet-stream") ? "" : mediaType;
        if (type.equals(ProtobufBodies.MEDIA_TYPE)) {
            // The codec refuses fields it does not define; the schema then applies fieldValidation and
            // types exactly as for JSON.
            DecodedBody d = BodyDecoder.forKind(kind).prune(ProtobufBodies.builtin().decode(body, kind), validation);
            return new Decoded(d.object(), d.warnings());
        }
        DecodedBody d = BodyDecoder.forKind(kind).decode(body, type, validation);
        return new Decoded(d.object(), d.warnings());
    }
}
