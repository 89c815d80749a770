package io.kubepekko.agent.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.manifest.ManifestError;
import io.kubepekko.agent.manifest.PostedManifests;
import io.kubepekko.agent.manifest.PostedPodSource;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.Failures;
import io.kubepekko.api.status.Reason;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpMethod;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.RemoteAddress;
import org.apache.pekko.http.javadsl.model.headers.Allow;
import org.apache.pekko.http.javadsl.model.headers.TimeoutAccess;
import org.apache.pekko.http.javadsl.settings.ServerSettings;
import org.apache.pekko.http.scaladsl.model.EntityStreamException;
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.stream.Materializer;
import scala.concurrent.duration.FiniteDuration;

/**
 * The agent's own HTTP server ({@code --address}, {@code --port}), on Pekko HTTP:
 *
 * <ul>
 *   <li>{@code GET /healthz}: {@code ok};
 *   <li>{@code GET /static-pods}: the names of the posted static pod manifests;
 *   <li>{@code PUT /static-pods/{name}}: a manifest (YAML or JSON, one Pod or a List of them)
 *       stored and run ({@link PostedPodSource});
 *   <li>{@code DELETE /static-pods/{name}}: the manifest removed, its pods stopped.
 * </ul>
 *
 * There is no authentication yet and a manifest runs any container: writes are taken only from
 * peers that {@code writers} admits (the node itself: loopback). Every failure is a {@code Status}
 * and changes nothing.
 */
public final class AgentServer {
    private AgentServer() {}

    /** The path prefix of the posted manifests. */
    public static final String STATIC_PODS = "/static-pods";

    private static final GroupResource RESOURCE = new GroupResource("", "static-pods");

    /**
     * How long a request may take: {@code body} to arrive whole, then {@code answer} for the source
     * to answer it. Pekko's own request timeout (whose answer is a plain-text 503) is set past
     * both, so a request that stalls is answered by this server, with a {@code Status}.
     */
    public record Timeouts(Duration body, Duration answer) {
        /**
         * Kube-apiserver reads a body for as long as its 60 s request timeout; ours takes 30 s, as
         * the API server.
         */
        public static final Timeouts DEFAULT =
                new Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(30));

        public Timeouts {
            if (body.isNegative() || body.isZero() || answer.isNegative() || answer.isZero()) {
                throw new IllegalArgumentException(
                        "timeouts must be positive: " + body + ", " + answer);
            }
        }

        /** Pekko's request timeout: past the longest a request can take here. */
        Duration request() {
            return body.plus(answer).plusSeconds(5);
        }
    }

    /** Only the node itself may post manifests (no authentication yet). */
    public static final Predicate<InetAddress> LOOPBACK_WRITERS = InetAddress::isLoopbackAddress;

    /**
     * Binds the server; the binding names the port actually bound ({@code port} 0 picks a free
     * one).
     *
     * @param writers which peers may PUT and DELETE
     * @param limit the largest request body taken, in bytes
     */
    public static CompletionStage<ServerBinding> bind(
            ActorSystem<?> system,
            String address,
            int port,
            ActorRef<PostedPodSource.Command> posted,
            Predicate<InetAddress> writers,
            int limit) {
        return bind(system, address, port, posted, writers, limit, Timeouts.DEFAULT);
    }

    /**
     * As {@link #bind(ActorSystem, String, int, ActorRef, Predicate, int)}, with the given
     * timeouts.
     */
    public static CompletionStage<ServerBinding> bind(
            ActorSystem<?> system,
            String address,
            int port,
            ActorRef<PostedPodSource.Command> posted,
            Predicate<InetAddress> writers,
            int limit,
            Timeouts timeouts) {
        ServerSettings base = ServerSettings.create(system.classicSystem());
        // The peer's own address (never a forwarding header) decides who may write; bodies are
        // capped per request.
        // The connection's idle timeout must not cut a request this server is still waiting for.
        long requestMillis = timeouts.request().toMillis();
        scala.concurrent.duration.Duration idle = base.getTimeouts().idleTimeout();
        ServerSettings settings =
                base.withRemoteAddressAttribute(true)
                        .withParserSettings(base.getParserSettings().withMaxContentLength(limit))
                        .withTimeouts(
                                base.getTimeouts()
                                        .withRequestTimeout(millis(requestMillis))
                                        .withIdleTimeout(
                                                idle.isFinite() && idle.toMillis() <= requestMillis
                                                        ? millis(requestMillis + 5_000)
                                                        : idle));
        Materializer mat = Materializer.matFromSystem(system);
        Function<HttpRequest, CompletionStage<HttpResponse>> handler =
                request ->
                        answered(
                                request,
                                () ->
                                        handle(
                                                request, system, posted, writers, limit, timeouts,
                                                mat),
                                limit);
        return Http.get(system).newServerAt(address, port).withSettings(settings).bind(handler);
    }

    private static FiniteDuration millis(long millis) {
        return FiniteDuration.create(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Every answer a {@code Status}: a failure of the handler (which Pekko would answer with a
     * plain-text 500) and Pekko's own request timeout (a plain-text 503) included.
     */
    private static CompletionStage<HttpResponse> answered(
            HttpRequest request, Supplier<CompletionStage<HttpResponse>> handler, int limit) {
        request.getHeader(TimeoutAccess.class)
                .ifPresent(
                        access ->
                                access.timeoutAccess()
                                        .updateHandler(timedOut -> failure(timeout())));
        CompletionStage<HttpResponse> response;
        try {
            response = handler.get();
        } catch (RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        return response.exceptionally(error -> failure(failed(error, limit)));
    }

    /**
     * The Status for a request that failed: too slow (504, as kube-apiserver's request timeout),
     * too large, broken.
     */
    static ApiStatus failed(Throwable error, int limit) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof TimeoutException) {
            return timeout();
        }
        if (cause instanceof EntityStreamSizeException) {
            return tooLarge(limit);
        }
        if (cause instanceof EntityStreamException malformed) {
            // The body broke HTTP's framing (a chunk size "zz"): the client's fault.
            return ApiStatus.badRequest(malformed.info().summary());
        }
        return ApiStatus.internal(cause.toString());
    }

    /**
     * Kube-apiserver's answer to a request that outlives its timeout ({@code
     * apierrors.NewTimeoutError}: 504, reason Timeout), in our API server's words for a body that
     * does not arrive in time.
     */
    static ApiStatus timeout() {
        return ApiStatus.timeout(
                "Timeout: request did not complete within the allowed duration", 1);
    }

    static CompletionStage<HttpResponse> handle(
            HttpRequest request,
            ActorSystem<?> system,
            ActorRef<PostedPodSource.Command> posted,
            Predicate<InetAddress> writers,
            int limit,
            Timeouts timeouts,
            Materializer mat) {
        String path = request.getUri().path();
        HttpMethod method = request.method();
        if (path.equals("/healthz")) {
            return refuse(
                    request,
                    mat,
                    method.equals(HttpMethods.GET)
                            ? HttpResponse.create().withEntity("ok")
                            : notAllowed(HttpMethods.GET));
        }
        if (path.equals(STATIC_PODS)) {
            if (!method.equals(HttpMethods.GET)) {
                return refuse(request, mat, notAllowed(HttpMethods.GET));
            }
            request.discardEntityBytes(mat);
            return ask(system, posted, timeouts, PostedPodSource.ListNames::new)
                    .thenApply(
                            outcome -> {
                                if (outcome instanceof PostedPodSource.Outcome.Names names) {
                                    ObjectNode body = Json.MAPPER.createObjectNode();
                                    names.names().forEach(body.putArray("names")::add);
                                    return json(200, body);
                                }
                                return response(outcome, "");
                            });
        }
        if (!path.startsWith(STATIC_PODS + "/")
                || path.indexOf('/', STATIC_PODS.length() + 1) >= 0) {
            return refuse(request, mat, failure(ApiStatus.pathNotFound()));
        }
        String name = path.substring(STATIC_PODS.length() + 1);
        if (!method.equals(HttpMethods.PUT) && !method.equals(HttpMethods.DELETE)) {
            return refuse(request, mat, notAllowed(HttpMethods.PUT, HttpMethods.DELETE));
        }
        Optional<InetAddress> peer =
                request.getAttribute(AttributeKeys.remoteAddress)
                        .flatMap(RemoteAddress::getAddress);
        if (peer.isEmpty() || !writers.test(peer.get())) {
            return refuse(
                    request,
                    mat,
                    failure(
                            ApiStatus.forbidden(
                                    RESOURCE,
                                    name,
                                    "static pod manifests are accepted"
                                            + " only from the node itself (loopback), not from "
                                            + peer.map(InetAddress::getHostAddress)
                                                    .orElse("an unknown peer"))));
        }
        List<String> nameErrors = PostedManifests.nameErrors(name);
        if (!nameErrors.isEmpty()) {
            return refuse(
                    request,
                    mat,
                    failure(
                            ApiStatus.badRequest(
                                    "invalid static pod manifest name \""
                                            + name
                                            + "\": "
                                            + String.join("; ", nameErrors))));
        }
        if (method.equals(HttpMethods.DELETE)) {
            request.discardEntityBytes(mat);
            return ask(system, posted, timeouts, reply -> new PostedPodSource.Delete(name, reply))
                    .thenApply(outcome -> response(outcome, name));
        }
        OptionalLong declared = request.entity().getContentLengthOption();
        if (declared.isPresent() && declared.getAsLong() > limit) {
            return refuse(request, mat, failure(tooLarge(limit)));
        }
        // withSizeLimit answers a body past the limit (EntityStreamSizeException); toStrict's own
        // cap (8 MiB by
        // default) is lifted just above it so that it never decides.
        // A body that stalls fails with a TimeoutException once the body timeout is up (answered by
        // answered()).
        return request.entity()
                .withSizeLimit(limit)
                .toStrict(timeouts.body().toMillis(), limit + 1L, mat)
                .thenCompose(
                        strict ->
                                ask(
                                        system,
                                        posted,
                                        timeouts,
                                        reply ->
                                                new PostedPodSource.Put(
                                                        name, strict.getData().toArray(), reply)))
                .thenApply(outcome -> response(outcome, name));
    }

    /**
     * The source's answer; a source that does not answer in time fails it with a TimeoutException
     * (504).
     */
    private static CompletionStage<PostedPodSource.Outcome> ask(
            ActorSystem<?> system,
            ActorRef<PostedPodSource.Command> posted,
            Timeouts timeouts,
            Function<ActorRef<PostedPodSource.Outcome>, PostedPodSource.Command> message) {
        return AskPattern.ask(posted, message, timeouts.answer(), system.scheduler());
    }

    /** The answer to a source's outcome. */
    static HttpResponse response(PostedPodSource.Outcome outcome, String name) {
        if (outcome instanceof PostedPodSource.Outcome.Stored stored) {
            ObjectNode list = Json.MAPPER.createObjectNode();
            list.put("apiVersion", "v1").put("kind", "PodList").putObject("metadata");
            stored.pods().forEach(list.putArray("items")::add);
            return json(stored.created() ? 201 : 200, list);
        }
        if (outcome instanceof PostedPodSource.Outcome.Deleted) {
            return json(200, ApiStatus.success(RESOURCE, name, null));
        }
        if (outcome instanceof PostedPodSource.Outcome.Missing) {
            return failure(
                    new ApiStatus(
                            404,
                            Reason.NOT_FOUND,
                            RESOURCE + " \"" + name + "\" not found",
                            new ApiStatus.Details(
                                    name, null, RESOURCE.resource(), null, List.of(), null)));
        }
        if (outcome instanceof PostedPodSource.Outcome.Refused refused) {
            return failure(refusal(refused.error(), name));
        }
        if (outcome instanceof PostedPodSource.Outcome.Duplicate duplicate) {
            // 409 as for any write that the current state forbids; it names the manifest that has
            // the pod.
            return failure(
                    ApiStatus.conflict(
                            RESOURCE,
                            name,
                            "pod \""
                                    + duplicate.pod()
                                    + "\" is already in the"
                                    + " posted manifest \""
                                    + duplicate.manifest()
                                    + "\" (one static pod per namespace and name)"));
        }
        if (outcome instanceof PostedPodSource.Outcome.Failed failed) {
            return failure(ApiStatus.internal(failed.reason()));
        }
        return failure(ApiStatus.internal("unexpected answer " + outcome));
    }

    /**
     * A manifest that cannot run: 400 when it is no pod at all, 422 when the pod is invalid, 413
     * too large.
     */
    static ApiStatus refusal(ManifestError error, String name) {
        return switch (error.problem()) {
            case MALFORMED, NOT_A_POD -> ApiStatus.badRequest(error.toString());
            case INVALID ->
                    new ApiStatus(
                            422,
                            Reason.INVALID,
                            error.toString(),
                            new ApiStatus.Details(
                                    name, null, RESOURCE.resource(), null, List.of(), null));
            case TOO_LARGE -> ApiStatus.requestEntityTooLarge(error.toString());
        };
    }

    /** kube-apiserver's words for a body over its limit. */
    static ApiStatus tooLarge(int limit) {
        return ApiStatus.requestEntityTooLarge("Request entity too large: limit is " + limit);
    }

    private static HttpResponse notAllowed(HttpMethod... allowed) {
        return failure(
                        ApiStatus.methodNotAllowed(
                                "the server does not allow this method on the requested resource"))
                .addHeader(Allow.create(allowed));
    }

    static HttpResponse failure(ApiStatus status) {
        return json(status.code(), status.toJson());
    }

    private static HttpResponse json(int code, JsonNode body) {
        byte[] bytes;
        try {
            bytes = Json.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree always serializes", e);
        }
        return HttpResponse.create()
                .withStatus(code)
                .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, bytes));
    }

    /** Answers without reading the body (drained, so the connection can serve the next request). */
    private static CompletionStage<HttpResponse> refuse(
            HttpRequest request, Materializer mat, HttpResponse response) {
        request.discardEntityBytes(mat);
        return CompletableFuture.completedFuture(response);
    }
}
