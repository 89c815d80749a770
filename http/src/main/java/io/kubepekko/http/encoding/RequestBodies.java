package io.kubepekko.http.encoding;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.BodyDecoder;
import io.kubepekko.api.codec.DecodedBody;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;

/**
 * Decodes request bodies into object trees against the kind's schema (JSON, YAML, Kubernetes'
 * protobuf; no Content-Type means JSON), applying {@code fieldValidation}: unknown fields are
 * dropped, warned about or refused. Any other Content-Type is refused with 415, as kube-apiserver's
 * {@code NegotiateInputSerializer} does, naming the media types the kind accepts.
 */
public final class RequestBodies {
    private RequestBodies() {}

    private static final String JSON = "application/json";
    private static final String YAML = "application/yaml";

    /** A decoded body and the warnings decoding produced. */
    public record Decoded(ObjectNode object, List<String> warnings) {}

    /**
     * @param contentType the request's Content-Type as sent, parameters included; null or empty
     *     when it sent none (see {@link #contentType})
     */
    public static Decoded decode(
            String contentType, byte[] body, GroupVersionKind kind, FieldValidation validation) {
        String type = mediaType(contentType, kind);
        if (type.equals(ProtobufBodies.MEDIA_TYPE)) {
            // The codec refuses fields it does not define; the schema then applies fieldValidation
            // and
            // types exactly as for JSON.
            DecodedBody d =
                    BodyDecoder.forKind(kind)
                            .prune(ProtobufBodies.builtin().decode(body, kind), validation);
            return new Decoded(d.object(), d.warnings());
        }
        DecodedBody d = BodyDecoder.forKind(kind).decode(body, type, validation);
        return new Decoded(d.object(), d.warnings());
    }

    /** The body's media type, one of those {@code kind} accepts; 415 for any other. */
    static String mediaType(String contentType, GroupVersionKind kind) {
        if (contentType == null || contentType.isBlank()) {
            return JSON;
        }
        List<String> accepted =
                ProtobufBodies.builtin().supports(kind)
                        ? List.of(JSON, YAML, ProtobufBodies.MEDIA_TYPE)
                        : List.of(JSON, YAML);
        return GoMediaType.parse(contentType)
                .filter(accepted::contains)
                .orElseThrow(
                        () ->
                                ApiStatus.unsupportedMediaType(
                                                "the body of the request was in an unknown format - accepted media types include: "
                                                        + String.join(", ", accepted))
                                        .exception());
    }

    /**
     * The Content-Type a request was sent with, or null without one. Pekko HTTP models the header
     * into the entity and gives a body without one {@code application/octet-stream}: that default
     * is its own instance, while a header naming it explicitly is parsed into another, so the two
     * are told apart by identity. A value Pekko cannot model ({@code garbage}, {@code json}) stays
     * a raw header.
     */
    public static String contentType(HttpRequest request) {
        Optional<HttpHeader> raw = request.getHeader("Content-Type");
        if (raw.isPresent()) {
            return raw.get().value();
        }
        ContentType modeled = request.entity().getContentType();
        if (modeled == PARSER_DEFAULT || modeled == ContentTypes.NO_CONTENT_TYPE) {
            return null;
        }
        return modeled.toString();
    }

    /**
     * The instance Pekko's request parser gives a body sent without Content-Type (not the javadsl
     * constant's).
     */
    private static final ContentType PARSER_DEFAULT =
            org.apache.pekko.http.scaladsl.model.ContentTypes.application$divoctet$minusstream();
}
