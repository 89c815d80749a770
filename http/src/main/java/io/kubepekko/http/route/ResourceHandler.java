package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.Verb;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import io.kubepekko.api.audit.AuditLevel;
import io.kubepekko.api.audit.DecodedRequestObject;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.http.audit.AuditHandle;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.Negotiation;
import io.kubepekko.http.metrics.ServerMetrics;
import io.kubepekko.http.webhook.WebhookAdmission;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;
import org.apache.pekko.http.javadsl.model.ws.WebSocketUpgrade;

/**
 * Serves the resource endpoints: resolves the type, checks scope, verb and path names ({@link
 * ResourcePaths}), and hands the request to {@link ReadHandler} (get, list, watch), {@link
 * WriteHandler} and {@link SubresourceCreateHandler} (the writes), {@link ReviewHandler} (the
 * reviews), or {@link SubresourceHandler} (a subresource's path).
 */
public final class ResourceHandler {

    static final String NOT_ALLOWED =
            "the server does not allow this method on the requested resource";

    private final ControlPlane controlPlane;

    /** get, list and watch. */
    private final ReadHandler reads;

    /** create, update, patch, delete and deletecollection. */
    private final WriteHandler writes;

    /** The creates through a subresource (pods/{name}/binding, bindings). */
    private final SubresourceCreateHandler subresourceCreates;

    /** The reviews and the token subresource, which store nothing. */
    private final ReviewHandler reviews;

    /** The requests on a subresource's path. */
    private final SubresourceHandler subresources;

    /** Which requests reach a deprecated version, and what kube does about them. */
    private final DeprecatedApiRequests deprecatedApis;

    private final Deprecations deprecations;

    /**
     * @param accessReviews what the access and token reviews ask
     * @param tokenIssuer who issues service-account tokens ({@code serviceaccounts/{name}/token})
     * @param metrics where watch events and requests of deprecated versions are counted
     */
    public ResourceHandler(
            ControlPlane controlPlane,
            WatchTimeouts watchTimeouts,
            Clock clock,
            AccessReviews accessReviews,
            TokenIssuer tokenIssuer,
            ServerMetrics metrics) {
        this(
                controlPlane,
                watchTimeouts,
                clock,
                accessReviews,
                tokenIssuer,
                metrics,
                WebhookAdmission.none(controlPlane));
    }

    /**
     * @param webhooks the admission webhooks users' writes call
     */
    public ResourceHandler(
            ControlPlane controlPlane,
            WatchTimeouts watchTimeouts,
            Clock clock,
            AccessReviews accessReviews,
            TokenIssuer tokenIssuer,
            ServerMetrics metrics,
            WebhookAdmission webhooks) {
        this.controlPlane = controlPlane;
        this.deprecatedApis = metrics.deprecatedApis();
        this.reads = new ReadHandler(controlPlane, watchTimeouts, clock, metrics);
        this.writes = new WriteHandler(controlPlane, webhooks);
        this.subresourceCreates = new SubresourceCreateHandler(controlPlane, webhooks);
        this.reviews = new ReviewHandler(controlPlane, accessReviews, tokenIssuer, clock, webhooks);
        this.subresources =
                new SubresourceHandler(
                        controlPlane,
                        writes,
                        subresourceCreates,
                        reviews,
                        new EvictionHandler(controlPlane, webhooks));
        this.deprecations = new Deprecations(controlPlane.registry(), deprecatedApis);
    }

    /**
     * The deprecated APIs requested so far: the data of {@code
     * apiserver_requested_deprecated_apis}.
     */
    public DeprecatedApiRequests deprecatedApis() {
        return deprecatedApis;
    }

    Deprecations deprecations() {
        return deprecations;
    }

    /** Ends every watch stream (see {@link ReadHandler#endWatches}). */
    public void endWatches() {
        reads.endWatches();
    }

    /**
     * The parts of a request the handler reads.
     *
     * @param webSocket the WebSocket upgrade the client asked for (a watch over WebSocket), or null
     * @param user who sent the request; its writes are admitted as this user's
     * @param admission the server's admission, which a create that stores nothing asks itself
     * @param audit the request's audit, which records what admission annotates
     */
    record Request(
            RequestInfo info,
            Query query,
            String contentType,
            byte[] body,
            Negotiation.Representation representation,
            Negotiation.Format statusFormat,
            boolean pretty,
            WebSocketUpgrade webSocket,
            String userAgent,
            UserInfo user,
            WriteAdmission admission,
            AuditHandle audit) {

        /**
         * What follows the webhooks of a body: their audit annotations recorded; their refusal
         * answers, with their warnings; else {@code next} goes on with the body they left and every
         * warning (the decoding's, {@code decodeWarnings}, then theirs).
         */
        CompletionStage<HttpResponse> afterWebhooks(
                CompletionStage<WebhookAdmission.Body> admitted,
                List<String> decodeWarnings,
                BiFunction<ObjectNode, List<String>, CompletionStage<HttpResponse>> next) {
            return admitted.thenCompose(
                    b -> {
                        annotate(b.annotations());
                        if (b.refusal() != null) {
                            // The webhooks' warnings came before their verdict, as kube's
                            // recorder has them.
                            return CompletableFuture.completedFuture(
                                    Encoder.withWarnings(refusal(b.refusal()), b.warnings()));
                        }
                        List<String> warnings = decodeWarnings;
                        if (!b.warnings().isEmpty()) {
                            warnings = new ArrayList<>(decodeWarnings);
                            warnings.addAll(b.warnings());
                        }
                        return next.apply(b.object(), warnings);
                    });
        }

        /**
         * Records the audit annotations the admission webhooks left (a patch's only at level
         * Request and above).
         */
        void annotate(List<WebhookAuditAnnotations.Annotation> annotations) {
            for (WebhookAuditAnnotations.Annotation a : annotations) {
                audit.annotate(
                        a.key(),
                        a.value(),
                        a.requestLevel() ? AuditLevel.REQUEST : AuditLevel.METADATA);
            }
        }

        /** The encoding of the response. */
        Negotiation.Format format() {
            return representation.format();
        }

        /**
         * A refusal's response: a Status in the encoding kube-apiserver negotiates for errors
         * ({@code statusFormat}, which ignores transformations such as {@code as=Table}), as {@link
         * ApiHandler} answers every failed request.
         */
        HttpResponse refusal(ApiStatus status) {
            return Encoder.status(status, statusFormat);
        }

        Request withRepresentation(Negotiation.Representation other) {
            return other == representation ? this : with(info, other);
        }

        Request withInfo(RequestInfo other) {
            return with(other, representation);
        }

        private Request with(RequestInfo i, Negotiation.Representation r) {
            return new Request(
                    i,
                    query,
                    contentType,
                    body,
                    r,
                    statusFormat,
                    pretty,
                    webSocket,
                    userAgent,
                    user,
                    admission,
                    audit);
        }

        Optional<String> param(String name) {
            return query.get(name);
        }
    }

    /**
     * How the request's audit turns a create's or update's body into the object kube records: the
     * object as the served version's codec decodes it, with its defaults. Other requests, and
     * subresources with a body of another kind, record the body as sent.
     */
    UnaryOperator<JsonNode> auditedDecoding(RequestInfo info) {
        boolean objectBody =
                (info.verb() == Verb.CREATE || info.verb() == Verb.UPDATE)
                        && (info.subresource() == null || info.subresource().equals("status"));
        if (!objectBody) {
            return UnaryOperator.identity();
        }
        return controlPlane
                .registry()
                .served(info.group(), info.version(), info.resource())
                .<UnaryOperator<JsonNode>>map(kind -> body -> DecodedRequestObject.of(kind, body))
                .orElse(UnaryOperator.identity());
    }

    CompletionStage<HttpResponse> handle(Request request) {
        RequestInfo info = request.info();
        switch (info.route()) {
            case NO_PATH -> throw ApiStatus.pathNotFound().exception();
            case NO_METHOD -> throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
            case SERVED -> {}
        }
        ServedKind kind =
                controlPlane
                        .registry()
                        .served(info.group(), info.version(), info.resource())
                        .orElseThrow(() -> ApiStatus.pathNotFound().exception());
        ResourceType type = kind.type();
        // Protobuf only for kinds that have a protobuf form; others get the client's fallback, or
        // 406.
        Request r =
                request.withRepresentation(
                        request.representation()
                                .forKind(ProtobufBodies.builtin().supports(type.gvk())));
        ResourcePaths.checkScope(type, info);
        if (info.subresource() != null) {
            return subresources.handle(kind, r);
        }
        ResourcePaths.checkVerb(type, info);
        r = ResourcePaths.withPathNames(r);
        return switch (info.verb()) {
            case GET -> reads.get(kind, r);
            case LIST -> reads.list(kind, r);
            case WATCH -> reads.watch(kind, r);
            case CREATE ->
                    type.review() != null
                            ? reviews.review(type, r)
                            : type.forwardedCreate() != null
                                    ? subresourceCreates.forwarded(type, r)
                                    : writes.create(kind, r);
            case UPDATE -> writes.update(kind, r);
            case PATCH -> writes.patch(kind, r, null, List.of(PatchType.values()));
            case DELETE -> writes.delete(kind, r);
            case DELETECOLLECTION -> writes.deleteCollection(kind, r);
            case UNSUPPORTED -> throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        };
    }
}
