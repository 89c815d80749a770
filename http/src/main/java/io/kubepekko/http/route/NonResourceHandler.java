package io.kubepekko.http.route;

import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.Negotiation;
import io.kubepekko.http.metrics.ServerMetrics;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;

/**
 * The paths that name no resource, once the gate let the request through: {@code /metrics}, the
 * health endpoints ({@code /healthz}, {@code /livez}, {@code /readyz} and their checks), and the
 * documents (version, discovery, OpenAPI) of {@link DocumentHandler}.
 */
final class NonResourceHandler {

    /** kube-apiserver's metrics endpoint. */
    private static final String METRICS = "/metrics";

    private final DocumentHandler documents;
    private final HealthChecks livez;
    private final HealthChecks readyz;

    /** What {@code /metrics} serves, or null for none. */
    private final ServerMetrics metrics;

    NonResourceHandler(
            DocumentHandler documents,
            HealthChecks livez,
            HealthChecks readyz,
            ServerMetrics metrics) {
        this.documents = documents;
        this.livez = livez;
        this.readyz = readyz;
        this.metrics = metrics;
    }

    CompletionStage<HttpResponse> handle(HttpRequest request, String path, String accept) {
        Query query = request.getUri().query();
        String method = request.method().value();
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

    /** The first segment of a path that starts with one slash ("" for "//x"). */
    private static String firstSegment(String path) {
        int next = path.indexOf('/', 1);
        return path.length() < 2 ? "" : path.substring(1, next < 0 ? path.length() : next);
    }

    /**
     * {@code /healthz} or {@code /healthz/{check}} exactly, as kube-apiserver registers them (check
     * names may hold a slash, {@code poststarthook/...}): any other path under it names no check.
     */
    private static HttpResponse health(
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
}
