package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.BodyDecoder;
import io.kubepekko.api.codec.DecodedBody;
import io.kubepekko.api.codec.FieldValidation;

import java.util.List;

/**
 * Decodes request bodies into object trees against the kind's schema (JSON, YAML; no Content-Type
 * means JSON), applying {@code fieldValidation}: unknown fields are dropped, warned about or refused.
 */
final class RequestBodies {
    private RequestBodies() {}

    /** A decoded body and the warnings decoding produced. */
    record Decoded(ObjectNode object, List<String> warnings) {}

    static Decoded decode(String mediaType, byte[] body, GroupVersionKind kind, FieldValidation validation) {
        String type = mediaType == null || mediaType.equals("application/octet-stream") ? "" : mediaType;
        DecodedBody d = BodyDecoder.forKind(kind).decode(body, type, validation);
        return new Decoded(d.object(), d.warnings());
    }
}
