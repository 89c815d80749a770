package io.kubepekko.http.encoding;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.ListBodies;
import io.kubepekko.api.codec.ListBody;
import io.kubepekko.api.codec.ListHead;
import io.kubepekko.api.codec.TextFormat;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.WarningRecorder;
import io.kubepekko.api.watch.ListChunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;
import org.apache.pekko.util.ByteStringBuilder;

/** Turns objects, lists and Status values into HTTP responses in the negotiated format. */
public final class Encoder {
    private Encoder() {}

    static final ContentType YAML =
            MediaTypes.applicationWithOpenCharset("yaml").toContentType(HttpCharsets.UTF_8);

    /** Kubernetes' protobuf media type. */
    static final ContentType PROTOBUF =
            ContentTypes.create(
                    MediaTypes.customBinary("application", "vnd.kubernetes.protobuf", false));

    /** {@code response} with kube's {@code Warning: 299 - "text"} header for each warning. */
    /**
     * {@code response} with {@code warnings} before the warnings it has: those recorded before the
     * handler ran (authentication's, a deprecated version's) come first, as kube's warning recorder
     * writes them in the order they were added.
     */
    public static HttpResponse withWarningsFirst(HttpResponse response, List<String> warnings) {
        if (warnings.isEmpty()) {
            return response;
        }
        List<HttpHeader> headers = new ArrayList<>();
        for (String w : warnings) {
            headers.add(new WarningHeader(w));
        }
        for (HttpHeader h : response.getHeaders()) {
            headers.add(h);
        }
        return response.withHeaders(headers);
    }

    public static HttpResponse withWarnings(HttpResponse response, List<String> warnings) {
        if (warnings.isEmpty()) {
            return response;
        }
        List<HttpHeader> headers = new ArrayList<>();
        for (String w : warnings) {
            headers.add(new WarningHeader(w));
        }
        return response.addHeaders(headers);
    }

    /**
     * {@code response} with its warnings as kube's warning recorder leaves them ({@link
     * WarningRecorder}: the same text once, bounded in size, none a header cannot carry), where the
     * first was. Applied once to each answer, when every warning is there.
     */
    public static HttpResponse recordedWarnings(HttpResponse response) {
        List<String> texts = new ArrayList<>();
        for (HttpHeader h : response.getHeaders()) {
            if (h instanceof WarningHeader w) {
                texts.add(w.text());
            }
        }
        List<String> recorded = WarningRecorder.of(texts);
        if (recorded.equals(texts)) {
            return response;
        }
        List<HttpHeader> headers = new ArrayList<>();
        boolean placed = false;
        for (HttpHeader h : response.getHeaders()) {
            if (!(h instanceof WarningHeader)) {
                headers.add(h);
            } else if (!placed) {
                placed = true;
                for (String text : recorded) {
                    headers.add(new WarningHeader(text));
                }
            }
        }
        return response.withHeaders(headers);
    }

    /**
     * Writes JSON bytes produced elsewhere; re-encodes only for YAML, protobuf or {@code pretty}.
     * An object whose kind has no protobuf form is written as JSON even when protobuf was asked for
     * (the handlers have already refused it when the client accepts nothing else).
     */
    public static HttpResponse json(
            int code,
            byte[] json,
            Negotiation.Format format,
            boolean pretty,
            List<String> warnings) {
        HttpResponse r = withWarnings(HttpResponse.create().withStatus(code), warnings);
        if (format == Negotiation.Format.YAML) {
            return r.withEntity(YAML, yaml(json));
        }
        if (format == Negotiation.Format.PROTOBUF) {
            ObjectNode object = Json.parseTrusted(json);
            GroupVersionKind kind = ProtobufBodies.kindOf(object);
            if (ProtobufBodies.builtin().supports(kind)) {
                return r.withEntity(PROTOBUF, ProtobufBodies.builtin().encode(object, kind));
            }
        }
        // The bytes are never written to once made (stored objects, fresh encodings): the entity
        // may keep the array instead of a copy.
        return r.withEntity(
                HttpEntities.create(
                        ContentTypes.APPLICATION_JSON,
                        ByteString.fromArrayUnsafe(pretty ? prettyJson(json) : json)));
    }

    public static HttpResponse json(
            int code, JsonNode node, Negotiation.Format format, boolean pretty) {
        return json(code, Json.bytes(node), format, pretty, List.of());
    }

    /** A Status response: the HTTP code is the Status' code; 429 and 504 carry Retry-After. */
    public static HttpResponse status(ApiStatus status, Negotiation.Format format) {
        HttpResponse r = json(status.code(), Json.bytes(status.toJson()), format, false, List.of());
        Integer retry = status.details().retryAfterSeconds();
        if (retry != null) {
            r = r.addHeader(RawHeader.create("Retry-After", retry.toString()));
        }
        return r;
    }

    public static HttpResponse text(int code, String body) {
        return HttpResponse.create()
                .withStatus(code)
                .withEntity(ContentTypes.TEXT_PLAIN_UTF8, body.getBytes(StandardCharsets.UTF_8))
                .addHeader(RawHeader.create("X-Content-Type-Options", "nosniff"));
    }

    /**
     * Compact JSON lists above this size are streamed from the items' bytes instead of being copied
     * into one array.
     */
    public static final int STREAM_LISTS_ABOVE = 256 * 1024;

    /**
     * Encoded list bodies (YAML, pretty JSON, Tables, protobuf) up to this size are sent whole;
     * larger ones are sent as they are encoded, so a list response holds about this much and one
     * item, never the list. Also the most a protobuf list keeps of its items encoded while sizing
     * them (a list within it is encoded once).
     */
    public static final int BUFFER_UP_TO = 4 * 1024 * 1024;

    /**
     * A list response. A large compact JSON list is streamed from the items' stored bytes (with its
     * length known up front), so the response is never a second copy of the data; other encodings
     * are written item by item ({@link #body}).
     *
     * @param perItem applied to each item's stored JSON before it is written (a conversion to the
     *     served version), or null
     */
    public static HttpResponse list(
            GroupVersionKind itemKind,
            String listKind,
            ListChunk chunk,
            UnaryOperator<byte[]> perItem,
            Negotiation.Format format,
            boolean pretty) {
        ListHead head =
                new ListHead(
                        itemKind.apiVersion(),
                        listKind,
                        chunk.resourceVersion(),
                        chunk.continueToken(),
                        chunk.remainingItemCount());
        List<byte[]> items = chunk.items();
        if (format == Negotiation.Format.PROTOBUF) {
            return body(
                    PROTOBUF,
                    ProtobufBodies.builtin()
                            .listBody(
                                    itemKind,
                                    listKind,
                                    head.metadata(),
                                    items,
                                    perItem,
                                    BUFFER_UP_TO));
        }
        TextFormat text = textFormat(format, pretty);
        if (text != TextFormat.JSON || perItem != null) {
            return body(contentType(format), ListBodies.of(text, head, items, perItem));
        }
        long size = 0;
        for (byte[] item : items) {
            size += item.length + 1;
        }
        if (size < STREAM_LISTS_ABOVE) {
            return HttpResponse.create()
                    .withStatus(200)
                    .withEntity(ContentTypes.APPLICATION_JSON, ListBodies.json(head, items));
        }
        long length = ListBodies.of(TextFormat.JSON, head, items, null).length();
        Source<ByteString, NotUsed> stream =
                Source.single(ByteString.fromArrayUnsafe(head.json()))
                        .concat(Source.fromIterator(() -> new Pieces(items)))
                        .concat(Source.single(ByteString.fromArrayUnsafe(LIST_TAIL)));
        return HttpResponse.create()
                .withStatus(200)
                .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, length, stream));
    }

    /** A list as a Table (a {@code meta.k8s.io} Table is JSON or YAML). */
    public static HttpResponse table(ListBody table, Negotiation.Format format) {
        return body(contentType(format), table);
    }

    /** The text encoding of a list or Table response. */
    public static TextFormat textFormat(Negotiation.Format format, boolean pretty) {
        return format == Negotiation.Format.YAML
                ? TextFormat.YAML
                : pretty ? TextFormat.PRETTY_JSON : TextFormat.JSON;
    }

    private static ContentType contentType(Negotiation.Format format) {
        return format == Negotiation.Format.YAML ? YAML : ContentTypes.APPLICATION_JSON;
    }

    /**
     * A body written item by item. Written into a buffer first: a body that ends within {@link
     * #BUFFER_UP_TO} is sent whole; a longer one goes on being written as the client reads it, in
     * pieces of about {@link Pieces#PIECE} bytes, with its length when known before (protobuf),
     * else chunked, as kube-apiserver streams large lists. Whatever may fail has failed before this
     * (protobuf sizes every item when the body is made; the text encodings write stored JSON, and
     * Table printers never fail on a stored object), so no error can come after the first byte.
     */
    static HttpResponse body(ContentType type, ListBody body) {
        BodyBuffer buffer = new BodyBuffer();
        ListBody.Writer writer = body.open(buffer);
        boolean more = true;
        while (more && buffer.length() <= BUFFER_UP_TO) {
            more = writer.writeNext();
        }
        if (!more) {
            return HttpResponse.create()
                    .withStatus(200)
                    .withEntity(HttpEntities.create(type, buffer.take()));
        }
        AtomicBoolean started = new AtomicBoolean();
        Source<ByteString, NotUsed> stream =
                Source.fromIterator(
                        () -> {
                            if (started.compareAndSet(false, true)) {
                                return new Parts(buffer, writer);
                            }
                            // Materialized again: the body from its start.
                            BodyBuffer again = new BodyBuffer();
                            return new Parts(again, body.open(again));
                        });
        return HttpResponse.create()
                .withStatus(200)
                .withEntity(
                        body.length() >= 0
                                ? HttpEntities.create(type, body.length(), stream)
                                : HttpEntities.createChunked(type, stream));
    }

    /** A body's writer drained in pieces of about {@link Pieces#PIECE} bytes. */
    private static final class Parts implements Iterator<ByteString> {
        private final BodyBuffer buffer;
        private final ListBody.Writer writer;
        private boolean more = true;

        Parts(BodyBuffer buffer, ListBody.Writer writer) {
            this.buffer = buffer;
            this.writer = writer;
        }

        @Override
        public boolean hasNext() {
            return more || buffer.length() > 0;
        }

        @Override
        public ByteString next() {
            while (more && buffer.length() < Pieces.PIECE) {
                more = writer.writeNext();
            }
            return buffer.take();
        }
    }

    private static final byte[] LIST_TAIL = "]}".getBytes(StandardCharsets.UTF_8);
    private static final ByteString COMMA = ByteString.fromString(",");

    /**
     * The items, comma-separated, in pieces of about {@link #PIECE} bytes: one stream element per
     * item would cost more than the copy it avoids. The pieces are ropes over the items' own
     * arrays.
     */
    private static final class Pieces implements Iterator<ByteString> {
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
            ByteStringBuilder piece = ByteString.createBuilder();
            while (next < items.size() && piece.length() < PIECE) {
                if (next > 0) {
                    piece.append(COMMA);
                }
                piece.append(ByteString.fromArrayUnsafe(items.get(next++)));
            }
            return piece.result();
        }
    }

    private static byte[] yaml(byte[] json) {
        try {
            return TextFormat.YAML.bytes(Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] prettyJson(byte[] json) {
        try {
            return TextFormat.PRETTY_JSON.bytes(Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
