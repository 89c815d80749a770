package io.kubepekko.http.audit;

import io.kubepekko.api.status.FieldError;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.scaladsl.model.ResponseEntity;
import org.apache.pekko.http.scaladsl.model.UniversalEntity;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.util.ByteString;
import org.apache.pekko.util.ByteStringBuilder;

/**
 * Tells a request's audit how its response went, and hands the response on once the audit's events
 * are stored as the mode asks. Every response carries kube's {@code Audit-Id} header.
 *
 * <ul>
 *   <li>A whole body (a strict entity) is reported with the response: its bytes are what the event
 *       records, not a copy.
 *   <li>A stream is reported when it starts ({@code ResponseStarted} of a watch) and again when it
 *       ends. Its body is kept only where kube records it: a list sent in pieces, at level
 *       RequestResponse, is gathered as it goes out (the pieces themselves, not copies) and
 *       recorded when it ends; a watch's stream is never kept.
 * </ul>
 */
public final class AuditedResponses {
    private AuditedResponses() {}

    /** {@code response}, reported to {@code audit}, once the audit has stored what it must. */
    public static CompletionStage<HttpResponse> report(HttpResponse response, AuditHandle audit) {
        int code = response.status().intValue();
        HttpResponse withId = response.addHeader(RawHeader.create("Audit-Id", audit.auditID()));
        String contentType = response.entity().getContentType().mediaType().toString();
        if (response.entity().isKnownEmpty()) {
            return audit.responseComplete(code, null).thenApply(stored -> withId);
        }
        if (response.entity() instanceof HttpEntity.Strict strict) {
            return audit.responseComplete(code, contentType, strict.getData())
                    .thenApply(stored -> withId);
        }
        Flow<ByteString, ByteString, NotUsed> ending = ending(audit, code, contentType);
        // The Java model has no transformDataBytes on a response entity; the Scala one does. The
        // bytes pass unchanged: a body whose length is known keeps it (a large list's
        // Content-Length), any other stays chunked.
        @SuppressWarnings("rawtypes")
        org.apache.pekko.stream.scaladsl.Flow scalaFlow =
                (org.apache.pekko.stream.scaladsl.Flow) ending.asScala();
        @SuppressWarnings("unchecked")
        ResponseEntity watched =
                response.entity() instanceof UniversalEntity sized
                        ? (ResponseEntity)
                                sized.transformDataBytes(sized.contentLength(), scalaFlow)
                        : ((ResponseEntity) response.entity()).transformDataBytes(scalaFlow);
        return audit.responseStarted(code).thenApply(stored -> withId.withEntity(watched));
    }

    /**
     * The bytes of a stream, passed on unchanged, and its end reported to the audit: with the whole
     * body when the audit keeps this stream's body (gathered per run of the stream: a body sent
     * twice is kept twice), without it otherwise or when the stream failed.
     */
    private static Flow<ByteString, ByteString, NotUsed> ending(
            AuditHandle audit, int code, String contentType) {
        boolean keep = audit.recordsStreamedBody();
        return Flow.fromMaterializer(
                        (materializer, attributes) -> {
                            ByteStringBuilder kept = keep ? ByteString.createBuilder() : null;
                            return Flow.<ByteString>create()
                                    .map(piece -> kept == null ? piece : gathered(kept, piece))
                                    .watchTermination(
                                            (mat, done) -> {
                                                done.whenComplete(
                                                        (d, failed) ->
                                                                audit.responseComplete(
                                                                        code,
                                                                        contentType,
                                                                        kept == null
                                                                                        || failed
                                                                                                != null
                                                                                ? null
                                                                                : kept.result()));
                                                return mat;
                                            });
                        })
                .mapMaterializedValue(m -> NotUsed.notUsed());
    }

    /** {@code piece}, also added to {@code kept} (a reference to it, not a copy). */
    private static ByteString gathered(ByteStringBuilder kept, ByteString piece) {
        kept.append(piece);
        return piece;
    }

    /**
     * kube's answer to a request whose {@code RequestReceived} event {@code
     * --audit-log-mode=blocking-strict} could not store: its plain-text 500 ({@code
     * responsewriters.InternalError}), with no more events.
     */
    public static HttpResponse notStored(HttpRequest request, AuditHandle audit) {
        String uri =
                request.getUri().getPathString()
                        + request.getUri().rawQueryString().map(q -> "?" + q).orElse("");
        String text =
                ("Internal Server Error: "
                                + FieldError.quote(uri)
                                + ": failed to store audit event")
                        .replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;");
        return HttpResponse.create()
                .withStatus(500)
                .withEntity(
                        ContentTypes.TEXT_PLAIN_UTF8,
                        (text + "\n").getBytes(StandardCharsets.UTF_8))
                .addHeader(RawHeader.create("X-Content-Type-Options", "nosniff"))
                .addHeader(RawHeader.create("Audit-Id", audit.auditID()));
    }
}
