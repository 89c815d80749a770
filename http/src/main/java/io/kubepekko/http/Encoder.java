package io.kubepekko.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
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

    /** Writes JSON bytes produced elsewhere; re-encodes only for YAML or {@code pretty}. */
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

    /** A list body assembled from the items' stored bytes, without parsing them. */
    static byte[] listBytes(String apiVersion, String listKind, long resourceVersion, List<byte[]> items) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + items.stream().mapToInt(i -> i.length + 1).sum());
        out.writeBytes(("{\"kind\":\"" + listKind + "\",\"apiVersion\":\"" + apiVersion
                + "\",\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\"},\"items\":[")
                .getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.writeBytes(items.get(i));
        }
        out.writeBytes("]}".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
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
