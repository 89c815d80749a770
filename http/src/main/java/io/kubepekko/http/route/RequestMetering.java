package io.kubepekko.http.route;

import io.kubepekko.api.metrics.RequestLabels;
import io.kubepekko.http.encoding.RequestBodies;
import io.kubepekko.http.metrics.ServerMetrics;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.apache.pekko.NotUsed;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.scaladsl.model.ResponseEntity;
import org.apache.pekko.http.scaladsl.model.UniversalEntity;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.util.ByteString;

/**
 * Records each routed resource request in the server's request metrics as kube's {@code
 * MonitorRequest} does, once its answer is known: a whole body at once; a streamed one (a watch, a
 * large list) when its stream ends, with its bytes counted as they go and, for a long-running
 * request, counted in {@code apiserver_longrunning_requests} while it runs.
 */
final class RequestMetering {

    private final ServerMetrics metrics;

    RequestMetering(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    private static final ContentType EXPOSITION = ContentTypes.parse(ServerMetrics.CONTENT_TYPE);

    /** The answer to {@code DELETE /metrics}, as kube's: Go's sniffed type for its text. */
    static HttpResponse resetDone() {
        return HttpResponse.create()
                .withStatus(200)
                .withEntity(
                        ContentTypes.create(MediaTypes.TEXT_PLAIN, HttpCharsets.UTF_8),
                        "metrics reset\n");
    }

    /** The answer to {@code GET /metrics}: the metrics in Prometheus' text format. */
    static HttpResponse exposition(byte[] text) {
        return HttpResponse.create().withStatus(200).withEntity(EXPOSITION, text);
    }

    /**
     * Records a routed resource request's response (see {@link #recorded}).
     *
     * @param start when the request arrived ({@link System#nanoTime()})
     */
    UnaryOperator<HttpResponse> recorder(
            HttpRequest request, RequestInfo info, String path, long start) {
        RequestLabels labels = labels(request, info);
        boolean longRunning = LongRunningRequests.check(Optional.of(info), path);
        return response -> recorded(response, labels, start, longRunning);
    }

    /** The request's labels: what kube reports for its verb, scope and dry run. */
    static RequestLabels labels(HttpRequest request, RequestInfo info) {
        // As kube, the query is taken apart again only when it names a dry run.
        List<String> dryRun =
                request.getUri().rawQueryString().orElse("").contains("dryRun")
                        ? request.getUri().query().getAll("dryRun")
                        : List.of();
        return RequestLabels.of(
                info.verb(),
                request.method().value(),
                info.group(),
                info.version(),
                info.resource(),
                info.subresource(),
                info.namespace(),
                info.name(),
                // Read for an apply patch only: the header is taken apart again to be read.
                request.method().value().equals("PATCH")
                        ? RequestBodies.contentType(request)
                        : null,
                dryRun);
    }

    /**
     * {@code response}, recorded now or, for a body still to be streamed, when its stream ends.
     *
     * @param startNanos when the request arrived ({@link System#nanoTime()})
     * @param longRunning whether the request is long-running (a watch)
     */
    HttpResponse recorded(
            HttpResponse response, RequestLabels labels, long startNanos, boolean longRunning) {
        int code = response.status().intValue();
        if (response.entity() instanceof HttpEntity.Strict strict) {
            metrics.served(labels, code, strict.getData().size(), System.nanoTime() - startNanos);
            return response;
        }
        if (response.entity().isKnownEmpty() || code == 101) {
            // No body, or a WebSocket's: the request is done as far as HTTP goes.
            metrics.served(labels, code, 0, System.nanoTime() - startNanos);
            return response;
        }
        Flow<ByteString, ByteString, NotUsed> metered =
                metered(labels, code, startNanos, longRunning);
        // As AuditedResponses: the Scala model transforms a response entity, the Java one does
        // not; a length known stays known.
        @SuppressWarnings("rawtypes")
        org.apache.pekko.stream.scaladsl.Flow scalaFlow =
                (org.apache.pekko.stream.scaladsl.Flow) metered.asScala();
        @SuppressWarnings("unchecked")
        ResponseEntity entity =
                response.entity() instanceof UniversalEntity sized
                        ? (ResponseEntity)
                                sized.transformDataBytes(sized.contentLength(), scalaFlow)
                        : ((ResponseEntity) response.entity()).transformDataBytes(scalaFlow);
        return response.withEntity(entity);
    }

    /**
     * The body's bytes, passed on unchanged and counted; the request recorded once they end, and
     * counted as long-running while they flow.
     */
    private Flow<ByteString, ByteString, NotUsed> metered(
            RequestLabels labels, int code, long startNanos, boolean longRunning) {
        return Flow.fromMaterializer(
                        (materializer, attributes) -> {
                            long[] bytes = new long[1];
                            AtomicReference<Runnable> open =
                                    new AtomicReference<>(
                                            longRunning ? metrics.longRunning(labels) : () -> {});
                            return Flow.<ByteString>create()
                                    .map(
                                            piece -> {
                                                bytes[0] += piece.size();
                                                return piece;
                                            })
                                    .watchTermination(
                                            (mat, done) -> {
                                                done.whenComplete(
                                                        (d, failed) -> {
                                                            open.getAndSet(() -> {}).run();
                                                            metrics.served(
                                                                    labels,
                                                                    code,
                                                                    bytes[0],
                                                                    System.nanoTime() - startNanos);
                                                        });
                                                return mat;
                                            });
                        })
                .mapMaterializedValue(m -> NotUsed.notUsed());
    }
}
