package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.Verb;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.meta.GoStrconv;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.registry.ForwardedCreate;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.store.DeleteOptionsType;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.api.store.StorageKeys;
import io.kubepekko.api.store.SubresourceRoute;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.Negotiation;
import io.kubepekko.http.encoding.RequestBodies;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;
import org.apache.pekko.http.javadsl.model.ws.WebSocketUpgrade;

/**
 * Serves the resource endpoints: a named pipeline per verb — resolve the type, check scope and
 * verb, decode, call the {@link ControlPlane}, encode.
 */
public final class ResourceHandler {

    static final String NOT_ALLOWED =
            "the server does not allow this method on the requested resource";

    /** The verbs kube-apiserver routes on an object's own path ({@code .../{resource}/{name}}). */
    private static final List<String> ITEM_VERBS =
            List.of(
                    Verb.GET.wireName(),
                    Verb.UPDATE.wireName(),
                    Verb.PATCH.wireName(),
                    Verb.DELETE.wireName());

    private final ControlPlane controlPlane;

    /** get, list and watch. */
    private final ReadHandler reads;

    /** The reviews and the token subresource, which store nothing. */
    private final ReviewHandler reviews;

    /**
     * @param accessReviews what the access and token reviews ask
     * @param tokenIssuer who issues service-account tokens ({@code serviceaccounts/{name}/token})
     */
    public ResourceHandler(
            ControlPlane controlPlane,
            WatchTimeouts watchTimeouts,
            Clock clock,
            AccessReviews accessReviews,
            TokenIssuer tokenIssuer) {
        this.controlPlane = controlPlane;
        this.reads = new ReadHandler(controlPlane, watchTimeouts, clock);
        this.reviews = new ReviewHandler(controlPlane, accessReviews, tokenIssuer, clock);
    }

    /** Ends every watch stream (see {@link ReadHandler#endWatches}). */
    public void endWatches() {
        reads.endWatches();
    }

    /**
     * The parts of a request the handler reads.
     *
     * @param webSocket the WebSocket upgrade the client asked for (a watch over WebSocket), or null
     * @param user who sent the request
     */
    record Request(
            RequestInfo info,
            Query query,
            String contentType,
            byte[] body,
            Negotiation.Representation representation,
            boolean pretty,
            WebSocketUpgrade webSocket,
            String userAgent,
            UserInfo user) {
        /** A request from the interim requester, until authentication is wired in. */
        Request(
                RequestInfo info,
                Query query,
                String contentType,
                byte[] body,
                Negotiation.Representation representation,
                boolean pretty,
                WebSocketUpgrade webSocket,
                String userAgent) {
            this(
                    info,
                    query,
                    contentType,
                    body,
                    representation,
                    pretty,
                    webSocket,
                    userAgent,
                    ReviewHandler.INTERIM_REQUESTER);
        }

        Request(
                RequestInfo info,
                Query query,
                String contentType,
                byte[] body,
                Negotiation.Format format,
                boolean pretty) {
            this(
                    info,
                    query,
                    contentType,
                    body,
                    format == Negotiation.Format.YAML
                            ? Negotiation.Representation.YAML
                            : Negotiation.Representation.JSON,
                    pretty,
                    null,
                    null,
                    ReviewHandler.INTERIM_REQUESTER);
        }

        /** The encoding of the response. */
        Negotiation.Format format() {
            return representation.format();
        }

        Request withRepresentation(Negotiation.Representation other) {
            return other == representation
                    ? this
                    : new Request(
                            info,
                            query,
                            contentType,
                            body,
                            other,
                            pretty,
                            webSocket,
                            userAgent,
                            user);
        }

        Request withInfo(RequestInfo other) {
            return new Request(
                    other,
                    query,
                    contentType,
                    body,
                    representation,
                    pretty,
                    webSocket,
                    userAgent,
                    user);
        }

        Optional<String> param(String name) {
            return query.get(name);
        }
    }

    CompletionStage<HttpResponse> handle(Request request) {
        RequestInfo info = request.info();
        KindDefinition kind =
                controlPlane
                        .registry()
                        .definition(info.group(), info.version(), info.resource())
                        .orElseThrow(() -> ApiStatus.pathNotFound().exception());
        ResourceType type = kind.type();
        // Protobuf only for kinds that have a protobuf form; others get the client's fallback, or
        // 406.
        Request r =
                request.withRepresentation(
                        request.representation()
                                .forKind(ProtobufBodies.builtin().supports(type.gvk())));
        checkScope(type, info);
        if (info.subresource() != null) {
            return subresource(type, r);
        }
        if (info.hasName() && ITEM_VERBS.stream().noneMatch(type::supports)) {
            // kube-apiserver registers no route under a resource it only creates (bindings/{name}).
            throw ApiStatus.pathNotFound().exception();
        }
        if (!type.supports(info.verb().wireName())) {
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        boolean itemVerb = info.verb() == Verb.UPDATE || info.verb() == Verb.PATCH;
        if ((itemVerb && !info.hasName()) || (info.verb() == Verb.CREATE && info.hasName())) {
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        r = withPathNames(r);
        return switch (info.verb()) {
            case GET -> reads.get(kind, r);
            case LIST -> reads.list(kind, r);
            case WATCH -> reads.watch(kind, r);
            case CREATE ->
                    type.review() != null
                            ? reviews.review(type, r)
                            : type.forwardedCreate() != null
                                    ? forwardedCreate(type, r)
                                    : create(type, r);
            case UPDATE -> update(type, r);
            case PATCH -> patch(type, r, null, List.of(PatchType.values()));
            case DELETE -> delete(type, r);
            case DELETECOLLECTION -> deleteCollection(type, r);
            case UNSUPPORTED -> throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        };
    }

    /**
     * The request with its namespace and name segments checked as kube-apiserver's storage keys
     * them: an object name may not be {@code .} or {@code ..} nor hold {@code /} or {@code %}
     * ({@code Name parameter invalid}), an empty name segment ({@code pods//status}) names nothing,
     * and an empty namespace segment ({@code namespaces//configmaps}) is no namespace: every
     * namespace for a list or watch, an error otherwise. A namespace {@code .} or {@code ..} is
     * refused with 400 too (kube-apiserver fails with 500 {@code invalid key} there).
     */
    static Request withPathNames(Request r) {
        RequestInfo info = r.info();
        String namespace = info.namespace();
        if (namespace != null && namespace.isEmpty()) {
            if (info.verb() != Verb.LIST && info.verb() != Verb.WATCH) {
                throw ApiStatus.badRequest("Namespace parameter required.").exception();
            }
            r =
                    r.withInfo(
                            new RequestInfo(
                                    info.verb(),
                                    info.group(),
                                    info.version(),
                                    info.resource(),
                                    null,
                                    info.name(),
                                    info.subresource()));
        } else if (namespace != null) {
            StorageKeys.checkNamespace(namespace);
        }
        String name = info.name();
        if (name != null) {
            if (name.isEmpty()) {
                throw ApiStatus.badRequest("name must be provided").exception();
            }
            StorageKeys.checkName(name);
        }
        return r;
    }

    private static void checkScope(ResourceType type, RequestInfo info) {
        if (!type.namespaced() && info.namespace() != null) {
            throw ApiStatus.pathNotFound().exception();
        }
        if (type.namespaced() && info.namespace() == null) {
            // Across namespaces kube-apiserver routes only list and watch, of kinds that have them.
            if (info.hasName() || !type.supports("list")) {
                throw ApiStatus.pathNotFound().exception();
            }
            if (info.verb() != Verb.LIST && info.verb() != Verb.WATCH) {
                throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
            }
        }
    }

    private CompletionStage<HttpResponse> create(ResourceType type, Request r) {
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(type, r, options);
        return write(type, r, new WriteOp.Create(d.object(), options), d.warnings());
    }

    /**
     * A create of a resource without objects (bindings): the create of its subresource
     * (pods/binding) on the object the body names.
     */
    private CompletionStage<HttpResponse> forwardedCreate(ResourceType type, Request r) {
        ForwardedCreate forward = type.forwardedCreate();
        ResourceType target =
                controlPlane
                        .registry()
                        .find(type.group(), type.version(), forward.resource())
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                type.resource()
                                                        + " forwards to an unserved resource"));
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(type, r, options);
        String name = ObjectMeta.name(d.object());
        return write(
                target,
                r,
                new WriteOp.CreateSubresource(
                        name == null ? "" : name,
                        forward.subresource(),
                        d.object(),
                        type.resource(),
                        options),
                d.warnings());
    }

    /** A create through a subresource of the named object (pods/{name}/binding). */
    private CompletionStage<HttpResponse> createSubresource(
            ResourceType type, Request r, SubresourceCreate creation) {
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d =
                RequestBodies.decode(
                        r.contentType(), r.body(), creation.bodyKind(), options.fieldValidation());
        return write(
                type,
                r,
                new WriteOp.CreateSubresource(
                        r.info().name(), r.info().subresource(), d.object(), null, options),
                d.warnings());
    }

    private CompletionStage<HttpResponse> update(ResourceType type, Request r) {
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(type, r, options);
        return write(
                type,
                r,
                new WriteOp.Update(r.info().name(), d.object(), null, options),
                d.warnings());
    }

    /**
     * A patch of the object ({@code subresource} null) or of a subresource, in one of {@code
     * accepted}.
     */
    private CompletionStage<HttpResponse> patch(
            ResourceType type, Request r, String subresource, List<PatchType> accepted) {
        // As kube-apiserver's PatchResource: the value up to its first ";", compared as it is.
        String mediaType = r.contentType() == null ? "" : r.contentType();
        int semicolon = mediaType.indexOf(';');
        String patchMediaType = semicolon > 0 ? mediaType.substring(0, semicolon) : mediaType;
        PatchType patchType =
                PatchType.fromMediaType(patchMediaType)
                        .filter(t -> t.mediaType.equals(patchMediaType))
                        .orElseThrow(
                                () -> unknownPatchFormat(List.of(PatchType.values())).exception());
        if (!accepted.contains(patchType)) {
            throw unknownPatchFormat(accepted).exception();
        }
        boolean apply = patchType == PatchType.APPLY_PATCH;
        // kube-apiserver's ValidatePatchOptions: these first, then the options every write has.
        List<FieldError> leading = new ArrayList<>();
        if (apply && r.param("fieldManager").filter(m -> !m.isEmpty()).isEmpty()) {
            leading.add(FieldError.required("fieldManager", "is required for apply patch"));
        }
        if (!apply && r.param("force").isPresent()) {
            leading.add(FieldError.forbidden("force", "may not be specified for non-apply patch"));
        }
        WriteOptions options = writeOptions(r, leading);
        boolean force =
                r.param("force").filter(v -> !v.isEmpty()).map(GoStrconv::parseBool).orElse(false);
        return write(
                type,
                r,
                new WriteOp.Patch(
                        r.info().name(), patchType, r.body(), subresource, options, force));
    }

    private static ApiStatus unknownPatchFormat(List<PatchType> accepted) {
        return ApiStatus.unsupportedMediaType(
                "the body of the request was in an unknown format - accepted media "
                        + "types include: "
                        + String.join(", ", accepted.stream().map(t -> t.mediaType).toList()));
    }

    private CompletionStage<HttpResponse> delete(ResourceType type, Request r) {
        return write(type, r, WriteOp.Delete.of(r.info().name(), deletionOptions(r)));
    }

    private CompletionStage<HttpResponse> deleteCollection(ResourceType type, Request r) {
        // The list options are validated as kube-apiserver does (400 malformed numbers, 422 invalid
        // combinations) before the delete options, and the parsed value is what selects the
        // objects.
        ReadOptions listed =
                ReadOptions.parse(
                        ReadOptions.Verb.LIST, r.query().toMultiMap(), controlPlane.featureGates());
        return controlPlane
                .deleteCollection(type, r.info().namespace(), listed, deletionOptions(r))
                .thenApply(
                        l ->
                                Encoder.list(
                                        type.gvk(),
                                        type.listKind(),
                                        new ListChunk(l.items(), l.resourceVersion(), null, null),
                                        null,
                                        null,
                                        r.format(),
                                        r.pretty()));
    }

    private CompletionStage<HttpResponse> subresource(ResourceType type, Request r) {
        SubresourceRoute route =
                SubresourceRoute.of(type, r.info().subresource())
                        .orElseThrow(() -> ApiStatus.pathNotFound().exception());
        if (route instanceof SubresourceRoute.IssuesToken) {
            return reviews.issueToken(type, r);
        }
        if (route instanceof SubresourceRoute.Creates creates) {
            // Only created (kube's NamedCreater): any other method finds the POST route and is
            // refused.
            if (r.info().verb() != Verb.CREATE) {
                throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
            }
            withPathNames(r);
            return createSubresource(type, r, creates.creation());
        }
        SubresourceRoute.ObjectPart part = (SubresourceRoute.ObjectPart) route;
        if (!part.allows(r.info().verb())) {
            // No route for the method (Kubernetes' FinalizeREST only updates).
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        withPathNames(
                r); // a subresource is never listed: the request comes back unchanged or not at all
        return switch (r.info().verb()) {
            case GET ->
                    controlPlane
                            .get(type, r.info().namespace(), r.info().name())
                            .thenApply(
                                    found -> {
                                        byte[] obj =
                                                found.orElseThrow(
                                                        () ->
                                                                ApiStatus.notFound(
                                                                                type
                                                                                        .groupResource(),
                                                                                r.info().name())
                                                                        .exception());
                                        return Encoder.json(
                                                200,
                                                ReadHandler.partialObject(
                                                        type,
                                                        part.bodyKind().kind(),
                                                        r,
                                                        part.read(type, obj)),
                                                r.format(),
                                                r.pretty(),
                                                List.of());
                                    });
            case UPDATE -> {
                WriteOptions options = writeOptions(r, List.of());
                ObjectNode body =
                        RequestBodies.decode(
                                        r.contentType(),
                                        r.body(),
                                        part.bodyKind(),
                                        options.fieldValidation())
                                .object();
                yield write(
                        type, r, new WriteOp.Update(r.info().name(), body, part.name(), options));
            }
            case PATCH -> patch(type, r, part.name(), part.patchTypes());
            default -> throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        };
    }

    private CompletionStage<HttpResponse> write(ResourceType type, Request r, WriteOp op) {
        return write(type, r, op, List.of());
    }

    private CompletionStage<HttpResponse> write(
            ResourceType type, Request r, WriteOp op, List<String> decodeWarnings) {
        return controlPlane
                .write(type, r.info().namespace(), op)
                .thenApply(result -> response(result, r, decodeWarnings));
    }

    /**
     * The one place a write's answer becomes its HTTP status and body. A refusal answers as every
     * failed request does: {@link ApiHandler} encodes a Status as negotiated for errors, not for
     * the object.
     */
    private static HttpResponse response(
            WriteResult result, Request r, List<String> decodeWarnings) {
        if (result instanceof WriteResult.Refused refused) {
            throw refused.status().exception();
        }
        WriteResult.Success w = (WriteResult.Success) result;
        int code =
                w instanceof WriteResult.Created
                        ? 201
                        : w instanceof WriteResult.Accepted ? 202 : 200;
        List<String> warnings = decodeWarnings;
        if (!w.warnings().isEmpty()) {
            warnings = new ArrayList<>(decodeWarnings);
            warnings.addAll(w.warnings());
        }
        return Encoder.json(code, w.body(), r.format(), r.pretty(), warnings);
    }

    /**
     * The body decoded as the already validated {@code fieldValidation} of {@code options} asks.
     */
    private RequestBodies.Decoded decodeWithWarnings(
            ResourceType type, Request r, WriteOptions options) {
        return RequestBodies.decode(
                r.contentType(), r.body(), type.gvk(), options.fieldValidation());
    }

    /**
     * The write's options, validated before the body is read (422 on the options kind); {@code
     * leading} are a patch's own problems. Without {@code fieldManager} the User-Agent names the
     * manager.
     */
    private static WriteOptions writeOptions(Request r, List<FieldError> leading) {
        WriteOptions o =
                WriteOptions.parse(
                        optionsKind(r.info().verb()),
                        leading,
                        r.param("fieldManager").orElse(null),
                        values(r, "dryRun"),
                        r.param("fieldValidation").orElse(""));
        return o.fieldManager() != null
                ? o
                : new WriteOptions(
                        o.dryRun(), managerFromUserAgent(r.userAgent()), o.fieldValidation());
    }

    /**
     * Without {@code fieldManager}, the manager is the User-Agent up to its first "/", as
     * kube-apiserver names it.
     */
    static String managerFromUserAgent(String userAgent) {
        if (userAgent == null || userAgent.isEmpty()) {
            return null;
        }
        int slash = userAgent.indexOf('/');
        String name = slash < 0 ? userAgent : userAgent.substring(0, slash);
        return name.length() > 128 ? name.substring(0, 128) : name;
    }

    private static String optionsKind(Verb verb) {
        return switch (verb) {
            case CREATE -> "CreateOptions";
            case PATCH -> "PatchOptions";
            default -> "UpdateOptions";
        };
    }

    private static final GroupVersionKind DELETE_OPTIONS =
            new GroupVersionKind("meta.k8s.io", "v1", "DeleteOptions");

    /**
     * As kube-apiserver reads them: the body when there is one, else the query. The body must
     * declare DeleteOptions (or nothing); it is decoded against its schema leniently, as kube's
     * delete handler uses the non-strict decoder (unknown fields are dropped).
     */
    private static DeletionOptions deletionOptions(Request r) {
        if (r.body().length == 0) {
            return DeletionOptions.fromQuery(name -> values(r, name));
        }
        ObjectNode body =
                RequestBodies.decode(
                                r.contentType(), r.body(), DELETE_OPTIONS, FieldValidation.IGNORE)
                        .object();
        DeleteOptionsType.check(body, r.body());
        return DeletionOptions.fromBody(body);
    }

    /**
     * Every value of a query parameter in the order the client sent them, as Go's query parser
     * keeps them ({@code Query.getAll} answers them reversed): the first is the one a single-valued
     * option takes, and a 422 lists them as sent.
     */
    private static List<String> values(Request r, String name) {
        return r.query().toMultiMap().getOrDefault(name, List.of());
    }
}
