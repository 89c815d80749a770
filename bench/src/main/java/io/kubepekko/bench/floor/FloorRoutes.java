package io.kubepekko.bench.floor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.scaladsl.model.EntityStreamSizeException;
import org.apache.pekko.stream.Materializer;

/**
 * The floor's requests: {@code GET /readyz}, {@code POST /api/v1/namespaces} (accepted, nothing
 * kept) and {@code POST /api/v1/namespaces/<ns>/configmaps}, which parses the body, sets the
 * metadata a server sets (namespace, uid, creation time, resourceVersion), writes it through the
 * namespace's {@link FloorIntake} and answers 201 with the object. Anything else is 404. Refusals
 * carry a {@code Status} body as the server's do: 400 for a body that is not a ConfigMap-shaped
 * JSON object, 413 for one over the server's {@code max-content-length}, 429 when too much waits to
 * be written or too many namespaces have an intake, 504 when the write did not complete in time.
 * Like etcd, the floor keeps whatever a create sends under its name: a second create of a name
 * replaces the first (no 409), since the floor measures the stack, not the API.
 */
final class FloorRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CREATE =
            Pattern.compile("/api/v1/namespaces/([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)/configmaps");
    private static final long BODY_TIMEOUT_MILLIS = 10_000;

    /** The most namespaces with an intake actor: each further one is refused with 429. */
    static final int MAX_NAMESPACES = 10_000;

    private final ActorSystem<?> system;
    private final ClusterSharding sharding;
    private final Materializer materializer;
    private final Map<String, ActorRef<FloorIntake.Message>> intakes = new ConcurrentHashMap<>();

    FloorRoutes(ActorSystem<?> system, ClusterSharding sharding) {
        this.system = system;
        this.sharding = sharding;
        this.materializer = Materializer.matFromSystem(system);
    }

    CompletionStage<HttpResponse> handle(HttpRequest request) {
        String path = request.getUri().path();
        if (request.method() == HttpMethods.GET && path.equals("/readyz")) {
            return done(HttpResponse.create().withEntity("ok"));
        }
        if (request.method() == HttpMethods.POST) {
            Matcher create = CREATE.matcher(path);
            if (create.matches()) {
                String namespace = create.group(1);
                return request.entity()
                        .toStrict(BODY_TIMEOUT_MILLIS, materializer)
                        .handle(
                                (body, failure) ->
                                        failure == null
                                                ? create(namespace, body.getData().toArray())
                                                : done(unreadable(failure)))
                        .thenCompose(response -> response);
            }
            if (path.equals("/api/v1/namespaces")) {
                request.discardEntityBytes(materializer);
                return done(HttpResponse.create().withStatus(StatusCodes.CREATED));
            }
        }
        request.discardEntityBytes(materializer);
        return done(status(StatusCodes.NOT_FOUND, "NotFound", "the floor serves no " + path));
    }

    /** A body that could not be read: too large (413), or stalled or cut off (408). */
    private static HttpResponse unreadable(Throwable failure) {
        if (cause(failure) instanceof EntityStreamSizeException) {
            return status(
                    StatusCodes.PAYLOAD_TOO_LARGE,
                    "RequestEntityTooLarge",
                    "the request body is too large");
        }
        return status(
                StatusCodes.REQUEST_TIMEOUT,
                "Timeout",
                "the request body was not received in time");
    }

    /** A create that was not written: refused for load (429), or not done in time (504). */
    private static HttpResponse unwritten(Throwable failure) {
        Throwable cause = cause(failure);
        if (cause instanceof FloorIntake.Busy) {
            return status(StatusCodes.TOO_MANY_REQUESTS, "TooManyRequests", cause.getMessage());
        }
        if (cause instanceof TimeoutException) {
            return status(
                    StatusCodes.GATEWAY_TIMEOUT, "Timeout", "the write did not complete in time");
        }
        return status(
                StatusCodes.SERVICE_UNAVAILABLE,
                "ServiceUnavailable",
                "the write failed: " + cause);
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
    }

    private static HttpResponse status(StatusCode code, String reason, String message) {
        ObjectNode status = JSON.createObjectNode();
        status.put("kind", "Status").put("apiVersion", "v1").put("status", "Failure");
        status.put("message", message).put("reason", reason).put("code", code.intValue());
        return HttpResponse.create()
                .withStatus(code)
                .withEntity(ContentTypes.APPLICATION_JSON, bytes(status));
    }

    /**
     * Writes one ConfigMap: whichever parse or shape fails is a 400, as the server answers a body
     * it cannot decode.
     */
    private CompletionStage<HttpResponse> create(String namespace, byte[] body) {
        ObjectNode object;
        String name;
        try {
            JsonNode parsed = JSON.readTree(body);
            if (!(parsed instanceof ObjectNode o)
                    || !(o.get("metadata") instanceof ObjectNode meta)
                    || !meta.path("name").isTextual()) {
                return done(notAConfigMap());
            }
            object = o;
            name = meta.get("name").asText();
            meta.put("namespace", namespace);
            meta.put("uid", UUID.randomUUID().toString());
            meta.put("creationTimestamp", Instant.now().toString());
        } catch (IOException e) {
            return done(notAConfigMap());
        }
        ActorRef<FloorIntake.Message> intake = intake(namespace);
        if (intake == null) {
            return done(
                    status(
                            StatusCodes.TOO_MANY_REQUESTS,
                            "TooManyRequests",
                            "too many namespaces"));
        }
        CompletableFuture<Long> written = new CompletableFuture<>();
        intake.tell(
                new FloorIntake.Offer(new FloorCollection.Create(name, bytes(object)), written));
        return written.thenApply(
                        revision -> {
                            ((ObjectNode) object.get("metadata"))
                                    .put("resourceVersion", Long.toString(revision));
                            return HttpResponse.create()
                                    .withStatus(StatusCodes.CREATED)
                                    .withEntity(ContentTypes.APPLICATION_JSON, bytes(object));
                        })
                .exceptionally(FloorRoutes::unwritten);
    }

    private static HttpResponse notAConfigMap() {
        return status(
                StatusCodes.BAD_REQUEST,
                "BadRequest",
                "the body is not a JSON object with metadata.name");
    }

    /** The namespace's intake, made on its first create; null when there are too many already. */
    private ActorRef<FloorIntake.Message> intake(String namespace) {
        ActorRef<FloorIntake.Message> known = intakes.get(namespace);
        if (known != null || intakes.size() >= MAX_NAMESPACES) {
            return known;
        }
        return intakes.computeIfAbsent(
                namespace,
                ns ->
                        system.systemActorOf(
                                FloorIntake.create(sharding.entityRefFor(FloorCollection.KEY, ns)),
                                "floor-intake-" + ns,
                                Props.empty()));
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CompletionStage<HttpResponse> done(HttpResponse response) {
        return CompletableFuture.completedFuture(response);
    }
}
