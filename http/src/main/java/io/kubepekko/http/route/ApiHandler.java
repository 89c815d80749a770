package io.kubepekko.http.route;

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
import org.apache.pekko.http.scaladsl.model.EntityStreamException;
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException;
import org.apache.pekko.stream.Materializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API server's request handler: passes the request through the {@link Gate}, hands a resource
 * request with its body ({@link RequestBodyReader}) to the {@link ResourceHandler} and any other to
 * the {@link NonResourceHandler} (metrics, health, version, discovery, OpenAPI), adds the request's
 * warnings, records its metrics, and turns every failure into a {@code Status}.
 */
public final class ApiHandler implements Function<HttpRequest, CompletionStage<HttpResponse>> {
    private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

    private final RequestBodyReader bodies;
    private final ResourceHandler resources;
    private final NonResourceHandler nonResources;
    private final Gate gate;
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
        this.metering = metrics == null ? null : new RequestMetering(metrics);
        this.bodies = new RequestBodyReader(materializer);
        this.resources = resources;
        this.nonResources = new NonResourceHandler(documents, livez, readyz, metrics);
    }

    @Override
    public CompletionStage<HttpResponse> apply(HttpRequest request) {
        long start = System.nanoTime();
        String accept = AcceptHeader.of(request);
        Negotiation.Format statusFormat = AcceptHeader.statusFormat(accept);
        CompletionStage<HttpResponse> response;
        try {
            response = route(request, accept, statusFormat, start);
        } catch (RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        return response.exceptionally(e -> failure(e, statusFormat));
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
        if (info.isPresent()) {
            Query query = request.getUri().query();
            Negotiation.Representation representation = Negotiation.representation(accept);
            boolean pretty =
                    query.get("pretty")
                            .map(v -> v.isEmpty() || v.equals("true") || v.equals("1"))
                            .orElse(false);
            String contentType = RequestBodies.contentType(request);
            return bodies.read(request.entity())
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
        return nonResources.handle(request, path, accept);
    }

    /** The body, told to the request's audit (which records what its level asks for). */
    private HttpEntity.Strict audited(
            HttpEntity.Strict body, RequestInfo info, String contentType, AuditHandle audit) {
        audit.requestBody(
                info.verb(), contentType, body.getData(), resources.auditedDecoding(info));
        return body;
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
            status = RequestBodyReader.tooLarge();
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
