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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
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
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.stream.Materializer;

/**
 * The floor's requests: {@code GET /readyz}, {@code POST /api/v1/namespaces} (accepted, nothing
 * kept) and {@code POST /api/v1/namespaces/<ns>/configmaps}, which parses the body, sets the
 * metadata a server sets (namespace, uid, creation time, resourceVersion), writes it through the
 * namespace's {@link FloorIntake} and answers 201 with the object. Anything else is 404.
 */
final class FloorRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CREATE =
            Pattern.compile("/api/v1/namespaces/([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)/configmaps");
    private static final long BODY_TIMEOUT_MILLIS = 10_000;

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
                        .thenCompose(body -> create(namespace, body.getData().toArray()));
            }
            if (path.equals("/api/v1/namespaces")) {
                request.discardEntityBytes(materializer);
                return done(HttpResponse.create().withStatus(StatusCodes.CREATED));
            }
        }
        request.discardEntityBytes(materializer);
        return done(HttpResponse.create().withStatus(StatusCodes.NOT_FOUND));
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
                return done(HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST));
            }
            object = o;
            name = meta.get("name").asText();
            meta.put("namespace", namespace);
            meta.put("uid", UUID.randomUUID().toString());
            meta.put("creationTimestamp", Instant.now().toString());
        } catch (IOException e) {
            return done(HttpResponse.create().withStatus(StatusCodes.BAD_REQUEST));
        }
        CompletableFuture<Long> written = new CompletableFuture<>();
        intake(namespace)
                .tell(
                        new FloorIntake.Offer(
                                new FloorCollection.Create(name, bytes(object)), written));
        return written.thenApply(
                revision -> {
                    ((ObjectNode) object.get("metadata"))
                            .put("resourceVersion", Long.toString(revision));
                    return HttpResponse.create()
                            .withStatus(StatusCodes.CREATED)
                            .withEntity(ContentTypes.APPLICATION_JSON, bytes(object));
                });
    }

    private ActorRef<FloorIntake.Message> intake(String namespace) {
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
