package io.kubepekko.http.route;

import io.kubepekko.actors.Futures;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.Failures;
import io.kubepekko.http.audit.AuditHandle;
import io.kubepekko.http.audit.AuditedResponses;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.Negotiation;
import io.kubepekko.http.encoding.RequestBodies;
import io.kubepekko.http.metrics.ServerMetrics;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;
import org.apache.pekko.http.javadsl.model.RequestEntity;
import org.apache.pekko.http.javadsl.model.headers.Accept;
import org.apache.pekko.http.scaladsl.model.EntityStreamException;
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server's request handler: reads the body, routes by path to version, health, discovery,
 * OpenAPI or resource handling, and turns every failure into a {@code Status}.
 */
public final class ApiHandler implements Function<HttpRequest, CompletionStage<HttpResponse>> {
    private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

    /** Kubernetes' request body limit. */
    static final long MAX_BODY_BYTES = 3 * 1024 * 1024;

    private final Materializer materializer;
    private final ResourceHandler resources;
    private final DocumentHandler documents;
    private final HealthChecks livez;
    private final HealthChecks readyz;
    private final Gate gate;
    private final ServerMetrics metrics;
    private final RequestMetering metering;

    /** A handler that keeps no metrics and serves no {@code /metrics} (tests of other parts). */
    public ApiHandler(
            Materializer materializer,
            ResourceHandler resources,
            DocumentHandler documents,
            HealthChecks livez,
            HealthChecks readyz,
            Gate gate) {
        this(materializer, resources, documents, livez, readyz, gate, null);
    }

    /**
     * @param gate who may send what through the listener this handler serves
     * @param metrics what the resource requests are recorded in and {@code /metrics} serves
     */
    public ApiHandler(
            Materializer materializer,
            ResourceHandler resources,
            DocumentHandler documents,
            HealthChecks livez,
            HealthChecks readyz,
            Gate gate,
            ServerMetrics metrics) {
        this.gate = gate;
        this.metrics = metrics;
        this.metering = metrics == null ? null : new RequestMetering(metrics);
        this.materializer = materializer;
        this.resources = resources;
        this.documents = documents;
        this.livez = livez;
        this.readyz = readyz;
    }

    @Override
    public CompletionStage<HttpResponse> apply(HttpRequest request) {
        long start = System.nanoTime();
        String accept = accept(request);
        Negotiation.Format statusFormat = statusFormat(accept);
        CompletionStage<HttpResponse> response;
        try {
            response = route(request, accept, statusFormat, start);
        } catch (RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        return response.exceptionally(e -> failure(e, statusFormat));
    }

    /**
     * The encoding of a Status answering this request, read once from the Accept header: the
     * handlers answer a refusal in it, and so does {@link #failure}.
     */
    private static Negotiation.Format statusFormat(String accept) {
        try {
            return Negotiation.objectFormat(accept);
        } catch (RuntimeException unreadable) {
            // An Accept header this server could not read: the error still goes out, as JSON.
            return Negotiation.Format.JSON;
        }
    }

    /**
     * The Accept header's value. Pekko parses a well-formed one into media ranges and renders it
     * back with each q rounded to three decimals ({@code q=0.0001} became {@code q=0.0}, not
     * acceptable), so the ranges are written out again here with their q in full.
     */
    static String accept(HttpRequest request) {
        Optional<Accept> modeled = request.getHeader(Accept.class);
        if (modeled.isEmpty()) {
            return request.getHeader("Accept").map(h -> h.value()).orElse("");
        }
        StringBuilder b = new StringBuilder();
        for (org.apache.pekko.http.javadsl.model.MediaRange range :
                modeled.get().getMediaRanges()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(
                    ((org.apache.pekko.http.scaladsl.model.MediaRange) range.withQValue(1f))
                            .value());
            if (range.qValue() != 1f) {
                b.append(";q=")
                        .append(new BigDecimal(Float.toString(range.qValue())).toPlainString());
            }
        }
        return b.toString();
    }

    private CompletionStage<HttpResponse> route(
            HttpRequest request, String accept, Negotiation.Format statusFormat, long start) {
        String path = RequestPath.of(request);
        Query query = request.getUri().query();
        String method = request.method().value();
        Optional<RequestInfo> info = RequestInfoParser.parse(method, path, query.get("watch"));
        Gate.Passage passage = gate.pass(request, info, path);
        AuditHandle audit = passage.audit();
        // In the blocking audit modes the request goes on once its RequestReceived event is
        // written, and its response once its outcome is: chained, no thread waits.
        return audit.ready()
                .thenCompose(
                        goOn ->
                                goOn
                                        ? answered(
                                                request,
                                                accept,
                                                statusFormat,
                                                info,
                                                path,
                                                passage,
                                                start)
                                        : CompletableFuture.completedFuture(
                                                AuditedResponses.notStored(request, audit)));
    }

    /**
     * The passage's answer, reported to the request's audit; a failure is answered as {@link
     * #failure} answers it, and audited so.
     */
    private CompletionStage<HttpResponse> answered(
            HttpRequest request,
            String accept,
            Negotiation.Format statusFormat,
            Optional<RequestInfo> info,
            String path,
            Gate.Passage passage,
            long start) {
        CompletionStage<HttpResponse> answer =
                passage instanceof Gate.Passage.Through through
                        ? through(request, accept, statusFormat, info, path, through, start)
                        : CompletableFuture.completedFuture(
                                Encoder.status(
                                        ((Gate.Passage.Stopped) passage).status(), statusFormat));
        return answer.exceptionally(e -> failure(e, statusFormat))
                .thenCompose(response -> AuditedResponses.report(response, passage.audit()));
    }

    private CompletionStage<HttpResponse> through(
            HttpRequest request,
            String accept,
            Negotiation.Format statusFormat,
            Optional<RequestInfo> info,
            String path,
            Gate.Passage.Through through,
            long start) {
        CompletionStage<HttpResponse> answer;
        try {
            answer =
                    passed(
                            request,
                            accept,
                            statusFormat,
                            info,
                            path,
                            through.user(),
                            through.audit());
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        List<String> warnings = through.warnings();
        List<String> deprecation =
                info.map(i -> resources.deprecations().of(i, through.audit())).orElse(List.of());
        if (!deprecation.isEmpty()) {
            // kube's route handler warns before it serves: refusals and errors carry it too.
            answer =
                    answer.exceptionally(e -> failure(e, statusFormat))
                            .thenApply(r -> Encoder.withWarningsFirst(r, deprecation));
        }
        if (!warnings.isEmpty()) {
            answer = answer.thenApply(r -> Encoder.withWarnings(r, warnings));
        }
        // Every warning is there: bounded as kube's one recorder of the request bounds them.
        answer = answer.thenApply(Encoder::recordedWarnings);
        return metered(answer, request, info, path, statusFormat, start);
    }

    /**
     * The answer, recorded in the request metrics when it is a routed resource request's: kube
     * records what its routes serve, not what its filters refuse.
     */
    private CompletionStage<HttpResponse> metered(
            CompletionStage<HttpResponse> answer,
            HttpRequest request,
            Optional<RequestInfo> info,
            String path,
            Negotiation.Format statusFormat,
            long start) {
        if (metering == null || info.isEmpty() || info.get().route() != RequestInfo.Route.SERVED) {
            return answer;
        }
        UnaryOperator<HttpResponse> recorded = metering.recorder(request, info.get(), path, start);
        return answer.exceptionally(e -> failure(e, statusFormat)).thenApply(recorded);
    }

    private CompletionStage<HttpResponse> passed(
            HttpRequest request,
            String accept,
            Negotiation.Format statusFormat,
            Optional<RequestInfo> info,
            String path,
            UserInfo user,
            AuditHandle audit) {
        Query query = request.getUri().query();
        String method = request.method().value();
        if (info.isPresent()) {
            Negotiation.Representation representation = Negotiation.representation(accept);
            boolean pretty =
                    query.get("pretty")
                            .map(v -> v.isEmpty() || v.equals("true") || v.equals("1"))
                            .orElse(false);
            String contentType = RequestBodies.contentType(request);
            long length = request.entity().getContentLengthOption().orElse(0L);
            if (length > MAX_BODY_BYTES) {
                return refuseUnread(request.entity(), length);
            }
            return strictEntity(request.entity())
                    .thenApply(strict -> audited(strict, info.get(), contentType, audit))
                    .thenCompose(
                            strict ->
                                    resources.handle(
                                            new ResourceHandler.Request(
                                                    info.get(),
                                                    query,
                                                    contentType,
                                                    // read only from here on: no copy needed
                                                    strict.getData().toArrayUnsafe(),
                                                    representation,
                                                    statusFormat,
                                                    pretty,
                                                    request.getAttribute(
                                                                    AttributeKeys.webSocketUpgrade)
                                                            .orElse(null),
                                                    request.getHeader("User-Agent")
                                                            .map(h -> h.value())
                                                            .orElse(null),
                                                    user,
                                                    gate.admission(),
                                                    audit)));
        }
        if (metrics != null && path.equals(METRICS) && method.equals("DELETE")) {
            // kube's MetricsWithReset (its --profiling is on by default); the authorizer let
            // through a non-resource delete of /metrics.
            metrics.reset();
            return CompletableFuture.completedFuture(RequestMetering.resetDone());
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return CompletableFuture.completedFuture(documents.notFound(accept));
        }
        if (metrics != null && path.equals(METRICS)) {
            return metrics.scrape().thenApply(RequestMetering::exposition);
        }
        return switch (firstSegment(path)) {
            case "healthz" ->
                    CompletableFuture.completedFuture(health("healthz", path, query, livez, true));
            case "livez" ->
                    CompletableFuture.completedFuture(health("livez", path, query, livez, true));
            case "readyz" ->
                    CompletableFuture.completedFuture(health("readyz", path, query, readyz, false));
            default -> documents.handle(path, query, request, accept);
        };
    }

    /** kube-apiserver's metrics endpoint. */
    private static final String METRICS = "/metrics";

    /** The body, told to the request's audit (which records what its level asks for). */
    private HttpEntity.Strict audited(
            HttpEntity.Strict body, RequestInfo info, String contentType, AuditHandle audit) {
        audit.requestBody(
                info.verb(), contentType, body.getData(), resources.auditedDecoding(info));
        return body;
    }

    /** Bodies up to this size are read and dropped before a 413, so the client sees the answer. */
    private static final long DRAIN_TOO_LARGE_UP_TO = 16L * 1024 * 1024;

    /**
     * A 413 for a body over the limit. Answering while the client is still sending can reset the
     * connection before it reads the answer, so a moderately large body is read and dropped first,
     * as Go's server also reads some of an unread body before closing.
     */
    private CompletionStage<HttpResponse> refuseUnread(RequestEntity entity, long length) {
        if (length > DRAIN_TOO_LARGE_UP_TO) {
            return CompletableFuture.failedFuture(tooLarge().exception());
        }
        return entity.withoutSizeLimit()
                .getDataBytes()
                .runWith(Sink.ignore(), materializer)
                .handle(
                        (done, failure) -> {
                            throw tooLarge().exception();
                        });
    }

    /**
     * The body as one piece. Most requests arrive whole: those are used as they are, because {@code
     * toStrict} on an already strict entity still materializes a stream (about a tenth of the CPU
     * of a small write).
     */
    private CompletionStage<HttpEntity.Strict> strictEntity(RequestEntity entity) {
        if (entity instanceof HttpEntity.Strict strict) {
            return CompletableFuture.completedFuture(strict);
        }
        return Futures.plain(entity.toStrict(30_000, MAX_BODY_BYTES, materializer));
    }

    /** The first segment of a path that starts with one slash ("" for "//x"). */
    private static String firstSegment(String path) {
        int next = path.indexOf('/', 1);
        return path.length() < 2 ? "" : path.substring(1, next < 0 ? path.length() : next);
    }

    /**
     * {@code /healthz} or {@code /healthz/{check}} exactly, as kube-apiserver registers them (check
     * names may hold a slash, {@code poststarthook/...}): any other path under it names no check.
     */
    private HttpResponse health(
            String endpoint, String path, Query query, HealthChecks checks, boolean live) {
        String root = "/" + endpoint;
        if (path.startsWith(root + "/")) {
            String check = path.substring(root.length() + 1);
            if (check.isEmpty()) {
                return Encoder.status(ApiStatus.pathNotFound(), Negotiation.Format.JSON);
            }
            return checks.one(check, live)
                    .map(r -> Encoder.text(r.code(), r.body()))
                    .orElseGet(
                            () ->
                                    Encoder.status(
                                            ApiStatus.pathNotFound(), Negotiation.Format.JSON));
        }
        if (!path.equals(root)) {
            return Encoder.status(ApiStatus.pathNotFound(), Negotiation.Format.JSON);
        }
        boolean verbose = query.get("verbose").isPresent();
        List<String> exclude = query.getAll("exclude");
        HealthChecks.Result r = checks.all(endpoint, verbose, exclude, live);
        return Encoder.text(r.code(), r.body());
    }

    private static ApiStatus tooLarge() {
        return ApiStatus.requestEntityTooLarge(
                "the request body is larger than " + MAX_BODY_BYTES + " bytes");
    }

    private HttpResponse failure(Throwable e, Negotiation.Format statusFormat) {
        Throwable cause = Failures.unwrap(e);
        ApiStatus status;
        if (cause instanceof ApiException api) {
            status = api.status();
        } else if (cause instanceof TimeoutException) {
            status =
                    ApiStatus.timeout(
                            "Timeout: request did not complete within the allowed duration", 1);
        } else if (cause instanceof EntityStreamSizeException
                || (cause instanceof EntityStreamException
                        && String.valueOf(cause.getMessage()).contains("too large"))) {
            status = tooLarge();
        } else if (cause instanceof EntityStreamException malformed) {
            // The body broke HTTP's framing (a chunk size "zz"): the client's fault, not the
            // server's.
            status = ApiStatus.badRequest(malformed.info().summary());
        } else {
            log.error("request failed", cause);
            status =
                    ApiStatus.internal(
                            cause.getClass().getSimpleName() + ": " + cause.getMessage());
        }
        return Encoder.status(status, statusFormat);
    }
}
