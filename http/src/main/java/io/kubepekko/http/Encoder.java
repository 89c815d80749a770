package io.kubepekko.http;

import io.kubepekko.api.protobuf.ProtobufBodies;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import io.kubepekko.api.watch.ListChunk;
import org.apache.pekko.NotUsed;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Turns objects, lists and Status values into HTTP responses in the negotiated format. */
final class Encoder {
    private Encoder() {}

    static final ContentType YAML = MediaTypes.applicationWithOpenCharset("yaml")
            .toContentType(org.apache.pekko.http.javadsl.model.HttpCharsets.UTF_8);

    /** Kubernetes' protobuf media type. */
    static final ContentType PROTOBUF = ContentTypes.create(
            MediaTypes.customBinary("application", "vnd.kubernetes.protobuf", false));

    /**
     * Writes JSON bytes produced elsewhere; re-encodes only for YAML, protobuf or {@code pretty}.
     * An object whose kind has no protobuf form is written as JSON even when protobuf was asked for
     * (the handlers have already refused it when the client accepts nothing else).
     */
    static HttpResponse json(int code, byte[] json, Negotiation.Format format, boolean pretty, List<String> warnings) {
        HttpResponse r = HttpResponse.create().withStatus(code);
        if (!warnings.isEmpty()) {
            List<HttpHeader> headers = new ArrayList<>();
            for (String w : warnings) {
                headers.add(RawHeader.create("Warning", "299 - " + io.kubepekko.api.status.FieldError.quote(w)));
            }
            r = r.addHeaders(headers);
        }
        if (format == Negotiation.Format.YAML) {
            return r.withEntity(YAML, yaml(json));
        }
        if (format == Negotiation.Format.PROTOBUF) {
            com.fasterxml.jackson.databind.node.ObjectNode object = Json.parseTrusted(json);
            io.kubepekko.api.GroupVersionKind kind = ProtobufBodies.kindOf(object);
            if (ProtobufBodies.builtin().supports(kind)) {
                return r.withEntity(PROTOBUF, ProtobufBodies.builtin().encode(object, kind));
            }
        }
        if (pretty) {
            return r.withEntity(ContentTypes.APPLICATION_JSON, prettyJson(json));
        }
        return r.withEntity(ContentTypes.APPLICATION_JSON, json);
    }

    static HttpResponse json(int code, JsonNode node, Negotiation.Format format, boolean pretty) {
        return json(code, Json.bytes(node), format, pretty, List.of());
    }

    /** A Status response: the HTTP code is the Status' code; 429 and 504 carry Retry-After. */
    static HttpResponse status(ApiStatus status, Negotiation.Format format) {
        HttpResponse r = json(status.code(), Json.bytes(status.toJson()), format, false, List.of());
        Integer retry = status.details().retryAfterSeconds();
        if (retry != null) {
            r = r.addHeader(RawHeader.create("Retry-After", retry.toString()));
        }
        return r;
    }

    static HttpResponse text(int code, String body) {
        return HttpResponse.create().withStatus(code)
                .withEntity(ContentTypes.TEXT_PLAIN_UTF8, body.getBytes(StandardCharsets.UTF_8))
                .addHeader(RawHeader.create("X-Content-Type-Options", "nosniff"));
    }

    /** Lists above this size are streamed from the items' bytes instead of being copied into one array. */
    static final int STREAM_LISTS_ABOVE = 256 * 1024;

    /** A list body assembled from the items' stored bytes, without parsing them. */
    static byte[] listBytes(String apiVersion, String listKind, long resourceVersion, List<byte[]> items) {
        return listBytes(apiVersion, listKind, new ListChunk(items, resourceVersion, null, null), null);
    }

    static byte[] listBytes(String apiVersion, String listKind, ListChunk chunk, String selfLink) {
        byte[] head = listHead(apiVersion, listKind, chunk, selfLink);
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + 2
                + chunk.items().stream().mapToInt(i -> i.length + 1).sum());
        out.writeBytes(head);
        List<byte[]> items = chunk.items();
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.writeBytes(items.get(i));
        }
        out.writeBytes(LIST_TAIL);
        return out.toByteArray();
    }

    private static final byte[] LIST_TAIL = "]}".getBytes(StandardCharsets.UTF_8);
    private static final ByteString COMMA = ByteString.fromString(",");

    private static byte[] listHead(String apiVersion, String listKind, ListChunk chunk, String selfLink) {
        StringBuilder b = new StringBuilder(128).append("{\"kind\":\"").append(listKind)
                .append("\",\"apiVersion\":\"").append(apiVersion).append("\",\"metadata\":{");
        if (selfLink != null) {
            b.append("\"selfLink\":\"").append(selfLink).append("\",");
        }
        b.append("\"resourceVersion\":\"").append(chunk.resourceVersion()).append('"');
        if (chunk.continueToken() != null) {
            b.append(",\"continue\":\"").append(chunk.continueToken()).append('"');
        }
        if (chunk.remainingItemCount() != null) {
            b.append(",\"remainingItemCount\":").append(chunk.remainingItemCount());
        }
        return b.append("},\"items\":[").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A list response. A large JSON list is streamed from the items' stored bytes (with its length
     * known up front), so the response is never a second copy of the data.
     */
    static HttpResponse list(io.kubepekko.api.GroupVersionKind itemKind, String listKind, ListChunk chunk,
                             String selfLink, Negotiation.Format format, boolean pretty) {
        String apiVersion = itemKind.apiVersion();
        long size = 0;
        for (byte[] item : chunk.items()) {
            size += item.length + 1;
        }
        if (format == Negotiation.Format.PROTOBUF) {
            return protobufList(itemKind, listKind, chunk, selfLink);
        }
        if (format != Negotiation.Format.JSON || pretty || size < STREAM_LISTS_ABOVE) {
            return json(200, listBytes(apiVersion, listKind, chunk, selfLink), format, pretty, List.of());
        }
        byte[] head = listHead(apiVersion, listKind, chunk, selfLink);
        long length = head.length + Math.max(0, size - 1) + LIST_TAIL.length;
        List<byte[]> items = chunk.items();
        Source<ByteString, NotUsed> body = Source.single(ByteString.fromArrayUnsafe(head))
                .concat(Source.fromIterator(() -> new Pieces(items)))
                .concat(Source.single(ByteString.fromArrayUnsafe(LIST_TAIL)));
        return HttpResponse.create().withStatus(200)
                .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, length, body));
    }

    /**
     * The items, comma-separated, in pieces of about {@link #PIECE} bytes: one stream element per
     * item would cost more than the copy it avoids. The pieces are ropes over the items' own arrays.
     */
    private static final class Pieces implements java.util.Iterator<ByteString> {
        static final int PIECE = 512 * 1024;
        private final List<byte[]> items;
        private int next;

        Pieces(List<byte[]> items) {
            this.items = items;
        }

        @Override
        public boolean hasNext() {
            return next < items.size();
        }

        @Override
        public ByteString next() {
            org.apache.pekko.util.ByteStringBuilder piece = ByteString.createBuilder();
            while (next < items.size() && piece.length() < PIECE) {
                if (next > 0) {
                    piece.append(COMMA);
                }
                piece.append(ByteString.fromArrayUnsafe(items.get(next++)));
            }
            return piece.result();
        }
    }

    private static HttpResponse protobufList(io.kubepekko.api.GroupVersionKind itemKind, String listKind,
                                             ListChunk chunk, String selfLink) {
        com.fasterxml.jackson.databind.node.ObjectNode meta = Json.MAPPER.createObjectNode();
        if (selfLink != null) {
            meta.put("selfLink", selfLink);
        }
        meta.put("resourceVersion", Long.toString(chunk.resourceVersion()));
        if (chunk.continueToken() != null) {
            meta.put("continue", chunk.continueToken());
        }
        if (chunk.remainingItemCount() != null) {
            meta.put("remainingItemCount", chunk.remainingItemCount());
        }
        return HttpResponse.create().withStatus(200).withEntity(PROTOBUF,
                ProtobufBodies.builtin().encodeList(itemKind, listKind, meta, chunk.items()));
    }

    private static byte[] yaml(byte[] json) {
        try {
            return Json.YAML.writeValueAsBytes(Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Go's {@code json.MarshalIndent(v, "", "  ")} layout, which {@code ?pretty} produces in Kubernetes. */
    private static final com.fasterxml.jackson.core.util.DefaultPrettyPrinter GO_INDENT =
            new com.fasterxml.jackson.core.util.DefaultPrettyPrinter(
                    com.fasterxml.jackson.core.util.Separators.createDefaultInstance()
                            .withObjectFieldValueSpacing(com.fasterxml.jackson.core.util.Separators.Spacing.AFTER)
                            .withObjectEmptySeparator("")
                            .withArrayEmptySeparator(""))
                    .withArrayIndenter(new com.fasterxml.jackson.core.util.DefaultIndenter("  ", "\n"))
                    .withObjectIndenter(new com.fasterxml.jackson.core.util.DefaultIndenter("  ", "\n"));

    private static byte[] prettyJson(byte[] json) {
        try {
            return Json.MAPPER.writer(GO_INDENT).writeValueAsBytes(Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
