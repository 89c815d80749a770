package io.kubepekko.http.route;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.Verb;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.SubresourceRoute;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.route.ResourceHandler.Request;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * Serves a request on a subresource's path as its {@link SubresourceRoute} says: an object's part
 * (its status, its Scale) read here and written by the {@link WriteHandler}; the token, eviction
 * and creating subresources handed to their handlers.
 */
final class SubresourceHandler {

    private final ControlPlane controlPlane;
    private final WriteHandler writes;
    private final SubresourceCreateHandler subresourceCreates;
    private final ReviewHandler reviews;
    private final EvictionHandler evictions;

    SubresourceHandler(
            ControlPlane controlPlane,
            WriteHandler writes,
            SubresourceCreateHandler subresourceCreates,
            ReviewHandler reviews,
            EvictionHandler evictions) {
        this.controlPlane = controlPlane;
        this.writes = writes;
        this.subresourceCreates = subresourceCreates;
        this.reviews = reviews;
        this.evictions = evictions;
    }

    CompletionStage<HttpResponse> handle(ServedKind kind, Request r) {
        ResourceType type = kind.type();
        SubresourceRoute route =
                SubresourceRoute.of(type, r.info().subresource())
                        .orElseThrow(() -> ApiStatus.pathNotFound().exception());
        if (route instanceof SubresourceRoute.IssuesToken) {
            return reviews.issueToken(type, r);
        }
        if (route instanceof SubresourceRoute.Evicts) {
            return evictions.evict(type, r);
        }
        if (route instanceof SubresourceRoute.Creates creates) {
            // Only created (kube's NamedCreater): any other method finds the POST route and is
            // refused.
            if (r.info().verb() != Verb.CREATE) {
                throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
            }
            ResourcePaths.withPathNames(r);
            return subresourceCreates.throughSubresource(type, r, creates.creation());
        }
        SubresourceRoute.ObjectPart part = (SubresourceRoute.ObjectPart) route;
        if (!part.allows(r.info().verb())) {
            // No route for the method (Kubernetes' FinalizeREST only updates).
            throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
        }
        ResourcePaths.withPathNames(
                r); // a subresource is never listed: the request comes back unchanged or not at all
        return switch (r.info().verb()) {
            case GET -> readPart(kind, r, part);
            case UPDATE -> writes.updatePart(kind, r, part);
            case PATCH -> writes.patch(kind, r, part.name(), part.patchTypes());
            default -> throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
        };
    }

    /**
     * An object's part (its status, its Scale) as the client asked for it, read from the object in
     * the served version; 404 when it is absent.
     */
    private CompletionStage<HttpResponse> readPart(
            ServedKind kind, Request r, SubresourceRoute.ObjectPart part) {
        ResourceType type = kind.type();
        String name = r.info().name();
        return controlPlane
                .get(kind.storageType(), r.info().namespace(), name)
                .thenApply(
                        found ->
                                found.map(obj -> partResponse(type, r, part, kind.fromStorage(obj)))
                                        .orElseGet(
                                                () ->
                                                        r.refusal(
                                                                ApiStatus.notFound(
                                                                        type.groupResource(),
                                                                        name))));
    }

    private static HttpResponse partResponse(
            ResourceType type, Request r, SubresourceRoute.ObjectPart part, byte[] obj) {
        byte[] body =
                ReadHandler.partialObject(type, part.bodyKind().kind(), r, part.read(type, obj));
        return Encoder.json(200, body, r.format(), r.pretty(), List.of());
    }
}
