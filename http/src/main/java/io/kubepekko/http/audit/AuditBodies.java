package io.kubepekko.http.audit;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.audit.AuditBody;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.Envelope;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bodies as an audit event records them: JSON trees, whatever encoding they travelled in. kube
 * encodes the objects it records to JSON with its codecs; here a body in JSON, YAML or Kubernetes'
 * protobuf is decoded with the server's own codecs (protobuf by the kind its envelope names). A
 * body in any other encoding, or one that does not decode, has no tree, and the event leaves the
 * field out, as kube records nothing for a body it could not decode.
 *
 * <p>The bodies are the server's immutable {@link ByteString}s, read in place (no copy), except a
 * protobuf body, which is copied into one array for the codec.
 */
final class AuditBodies {
    private static final Logger log = LoggerFactory.getLogger(AuditBodies.class);

    private AuditBodies() {}

    static final String JSON = "application/json";
    static final String YAML = "application/yaml";
    static final String PROTOBUF = ProtobufBodies.MEDIA_TYPE;

    /** What a protobuf body's first bytes are read for its kind: the envelope's TypeMeta. */
    private static final int PROTOBUF_HEAD = 512;

    /**
     * The media type of a Content-Type value, without its parameters, lower case; JSON for none, as
     * the server reads a request without Content-Type.
     */
    static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return JSON;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
                .trim()
                .toLowerCase(Locale.ROOT);
    }

    /** {@code body} as a body decoded when the event is written. */
    static AuditBody lazy(String mediaType, ByteString body) {
        return () -> decode(mediaType, body);
    }

    /**
     * A patch as kube records it, as JSON: a JSON, merge or strategic merge patch is JSON already;
     * an apply patch is YAML (or JSON, which YAML includes), decoded into JSON as kube does since
     * it validates patches before auditing them.
     */
    static AuditBody patch(String patchMediaType, ByteString patch) {
        return switch (patchMediaType) {
            case "application/json-patch+json",
                    "application/merge-patch+json",
                    "application/strategic-merge-patch+json" ->
                    lazy(JSON, patch);
            case "application/apply-patch+yaml" -> lazy(YAML, patch);
            default -> Optional::empty;
        };
    }

    /** {@code body} decoded now; empty when it is in another encoding or does not decode. */
    static Optional<JsonNode> decode(String mediaType, ByteString body) {
        try {
            return switch (mediaType) {
                case JSON -> Optional.of(Json.MAPPER.readTree(stream(body)));
                case YAML -> Optional.ofNullable(Json.YAML.readTree(stream(body)));
                case PROTOBUF -> Optional.of(protobuf(body.toArray()));
                default -> Optional.empty();
            };
        } catch (IOException | RuntimeException undecodable) {
            log.debug(
                    "an audited body in {} does not decode: {}", mediaType, undecodable.toString());
            return Optional.empty();
        }
    }

    private static JsonNode protobuf(byte[] body) {
        Envelope.Unknown envelope = Envelope.decode(body);
        String apiVersion = envelope.apiVersion();
        int slash = apiVersion.indexOf('/');
        GroupVersionKind kind =
                new GroupVersionKind(
                        slash < 0 ? "" : apiVersion.substring(0, slash),
                        apiVersion.substring(slash + 1),
                        envelope.kind());
        return ProtobufBodies.builtin().decode(body, kind);
    }

    /**
     * How many top-level fields are read for a body's kind: every object this server writes names
     * its kind among its first two, and a document without a kind (an OpenAPI document of several
     * megabytes) is not scanned to its end on the request's thread.
     */
    private static final int KIND_WITHIN_FIELDS = 4;

    /**
     * One top-level field of an object body, read without decoding the rest (for protobuf, the
     * whole body is decoded): {@link MissingNode} when the object has no such field; empty when the
     * body is not an object in JSON, YAML or protobuf.
     */
    static Optional<JsonNode> field(String mediaType, ByteString body, String name) {
        return field(mediaType, body, name, Integer.MAX_VALUE);
    }

    /** {@link #field(String, ByteString, String)} among the first {@code maxFields} only. */
    private static Optional<JsonNode> field(
            String mediaType, ByteString body, String name, int maxFields) {
        ObjectMapper mapper =
                switch (mediaType) {
                    case JSON -> Json.MAPPER;
                    case YAML -> Json.YAML;
                    default -> null;
                };
        if (mapper == null) {
            return decode(mediaType, body).filter(JsonNode::isObject).map(tree -> tree.path(name));
        }
        try (JsonParser p = mapper.getFactory().createParser(stream(body))) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            for (int read = 0; read < maxFields && p.nextToken() == JsonToken.FIELD_NAME; read++) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals(name)) {
                    JsonNode value = mapper.readTree(p);
                    return Optional.of(value == null ? MissingNode.getInstance() : value);
                }
                p.skipChildren();
            }
            return Optional.of(MissingNode.getInstance());
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /**
     * The kind an object body names at its top level, read from as little of it as can be (the
     * first fields of JSON or YAML, a protobuf envelope's head); empty when unknown.
     */
    static String kind(String mediaType, ByteString body) {
        if (mediaType.equals(PROTOBUF)) {
            return protobufKind(body.take(PROTOBUF_HEAD).toArray());
        }
        return field(mediaType, body, "kind", KIND_WITHIN_FIELDS).map(k -> k.asText("")).orElse("");
    }

    /** The kind in a protobuf envelope's TypeMeta (its first field), from the body's head. */
    private static String protobufKind(byte[] head) {
        if (!Envelope.hasMagic(head)) {
            return "";
        }
        try {
            CodedInputStream in =
                    CodedInputStream.newInstance(
                            Arrays.copyOfRange(head, Envelope.MAGIC.length, head.length));
            int tag = in.readTag();
            if (WireFormat.getTagFieldNumber(tag) != 1) {
                return "";
            }
            CodedInputStream typeMeta = CodedInputStream.newInstance(in.readByteArray());
            for (int t = typeMeta.readTag(); t != 0; t = typeMeta.readTag()) {
                if (WireFormat.getTagFieldNumber(t) == 2) {
                    return typeMeta.readString();
                }
                typeMeta.skipField(t);
            }
            return "";
        } catch (IOException truncatedOrMalformed) {
            return "";
        }
    }

    private static InputStream stream(ByteString body) {
        return body.iterator().asInputStream();
    }
}
