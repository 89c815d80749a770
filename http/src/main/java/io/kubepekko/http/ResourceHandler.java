package io.kubepekko.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.ControlPlane;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.PartialObjects;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ForwardedCreate;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.NameValidation;
import io.kubepekko.api.store.DeleteOptionsType;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.ScaleConversion;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.Query;

import io.kubepekko.api.meta.SelfLinks;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ReadOptions;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.ws.Message;
import org.apache.pekko.http.javadsl.model.ws.TextMessage;
import org.apache.pekko.http.javadsl.model.ws.WebSocketUpgrade;
import org.apache.pekko.stream.javadsl.Sink;

import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.table.IncludeObject;
import io.kubepekko.api.table.TablePrinters;
import io.kubepekko.api.table.Tables;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;

/**
 * Serves the resource endpoints: a named pipeline per verb — resolve the type, check scope and verb,
 * decode, call the {@link ControlPlane}, encode.
 */
final class ResourceHandler {

    private static final org.apache.pekko.http.javadsl.model.ContentType PROTOBUF_WATCH = ContentTypes.create(
            org.apache.pekko.http.javadsl.model.MediaTypes.customBinary("application", "vnd.kubernetes.protobuf",
                    false, java.util.Map.of("stream", "watch"),
                    false));

    private static final String NOT_ALLOWED = "the server does not allow this method on the requested resource";

    /** The verbs kube-apiserver routes on an object's own path ({@code .../{resource}/{name}}). */
    private static final List<String> ITEM_VERBS = List.of("get", "update", "patch", "delete");

    private final ControlPlane controlPlane;
    private final WatchTimeouts watchTimeouts;
    /** Ends every watch stream at shutdown ({@link #endWatches}). */
    private final org.apache.pekko.stream.SharedKillSwitch watches = org.apache.pekko.stream.KillSwitches.shared("watches");
    /** RemoveSelfLink off: reads carry {@code metadata.selfLink} again. */
    private final boolean selfLinks;

    /** Ages in Tables are measured to this clock's now. */
    private final Clock clock;

    ResourceHandler(ControlPlane controlPlane, WatchTimeouts watchTimeouts, Clock clock) {
        this.controlPlane = controlPlane;
        this.watchTimeouts = watchTimeouts;
        this.clock = clock;
        this.selfLinks = !controlPlane.featureGates().enabled(FeatureGates.REMOVE_SELF_LINK);
    }

    /**
     * The parts of a request the handler reads.
     *
     * @param webSocket the WebSocket upgrade the client asked for (a watch over WebSocket), or null
     */
    record Request(RequestInfo info, Query query, String contentType, byte[] body,
                   Negotiation.Representation representation, boolean pretty, WebSocketUpgrade webSocket,
                   String userAgent) {
        Request(RequestInfo info, Query query, String contentType, byte[] body, Negotiation.Format format,
                boolean pretty) {
            this(info, query, contentType, body, format == Negotiation.Format.YAML ? Negotiation.Representation.YAML
                    : Negotiation.Representation.JSON, pretty, null, null);
        }

        /** The encoding of the response. */
        Negotiation.Format format() {
            return representation.format();
        }

        Request withRepresentation(Negotiation.Representation other) {
            return other == representation ? this
                    : new Request(info, query, contentType, body, other, pretty, webSocket, userAgent);
        }

        Request withInfo(RequestInfo other) {
            return new Request(other, query, contentType, body, representation, pretty, webSocket, userAgent);
        }

        Optional<String> param(String name) {
            return query.get(name);
        }
    }

    CompletionStage<HttpResponse> handle(Request request) {
        RequestInfo info = request.info();
        ResourceType type = controlPlane.registry().find(info.group(), info.version(), info.resource())
                .orElseThrow(() -> ApiStatus.pathNotFound().exception());
        // Protobuf only for kinds that have a protobuf form; others get the client's fallback, or 406.
        Request r = request.withRepresentation(request.representation()
                .forKind(ProtobufBodies.builtin().supports(type.gvk())));
        checkScope(type, info);
        if (info.subresource() != null) {
            return subresource(type, r);
        }
        if (info.hasName() && ITEM_VERBS.stream().noneMatch(type::supports)) {
            // kube-apiserver registers no route under a resource it only creates (bindings/{name}).
            throw ApiStatus.pathNotFound().exception();
        }
        if (!type.supports(info.verb())) {
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        boolean itemVerb = info.verb().equals("update") || info.verb().equals("patch");
        if ((itemVerb && !info.hasName()) || (info.verb().equals("create") && info.hasName())) {
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        r = withPathNames(r);
        if (info.verb().equals("deletecollection")) {
            // Validates the list options as kube-apiserver does (400 malformed numbers, 422 invalid combinations).
            readOptions("list", r);
        }
        return switch (info.verb()) {
            case "get" -> get(type, r);
            case "list" -> list(type, r);
            case "watch" -> watch(type, r);
            case "create" -> type.forwardedCreate() != null ? forwardedCreate(type, r) : create(type, r);
            case "update" -> update(type, r);
            case "patch" -> patch(type, r, null);
            case "delete" -> delete(type, r);
            case "deletecollection" -> deleteCollection(type, r);
            default -> throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
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
    private static Request withPathNames(Request r) {
        RequestInfo info = r.info();
        String namespace = info.namespace();
        if (namespace != null && namespace.isEmpty()) {
            if (!info.verb().equals("list") && !info.verb().equals("watch")) {
                throw ApiStatus.badRequest("Namespace parameter required.").exception();
            }
            r = r.withInfo(new RequestInfo(info.verb(), info.group(), info.version(), info.resource(), null,
                    info.name(), info.subresource()));
        } else if (namespace != null && (namespace.equals(".") || namespace.equals(".."))) {
            throw ApiStatus.badRequest("Namespace parameter invalid: " + FieldError.quote(namespace) + ": may not be '"
                    + namespace + "'").exception();
        }
        String name = info.name();
        if (name != null) {
            if (name.isEmpty()) {
                throw ApiStatus.badRequest("name must be provided").exception();
            }
            List<String> problems = NameValidation.pathSegmentName(name);
            if (!problems.isEmpty()) {
                throw ApiStatus.badRequest("Name parameter invalid: " + FieldError.quote(name) + ": "
                        + String.join(";", problems)).exception();
            }
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
            if (!info.verb().equals("list") && !info.verb().equals("watch")) {
                throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
            }
        }
    }

    private ReadOptions readOptions(String verb, Request r) {
        return ReadOptions.parse(verb, r.query().toMultiMap(), controlPlane.featureGates());
    }

    private CompletionStage<HttpResponse> get(ResourceType type, Request r) {
        String name = r.info().name();
        IncludeObject include = includeObject(r);
        return controlPlane.get(type, r.info().namespace(), name, readOptions("get", r)).thenApply(found -> {
            byte[] obj = found.orElseThrow(() -> ApiStatus.notFound(type.groupResource(), name).exception());
            obj = selfLinks ? SelfLinks.withSelfLink(type, obj) : obj;
            if (r.representation().table()) {
                return Encoder.json(200, Tables.renderObject(r.representation().metaVersion(), printer(type), obj,
                        include, clock.instant()), r.format(), r.pretty(), List.of());
            }
            return Encoder.json(200, partialObject(type, type.kind(), r, obj), r.format(), r.pretty(), List.of());
        });
    }

    /**
     * A single object as the client asked: itself, or its PartialObjectMetadata; a
     * PartialObjectMetadataList of it is a 406, as in kube-apiserver (the object is not a list).
     */
    private static byte[] partialObject(ResourceType type, String kind, Request r, byte[] obj) {
        String partial = r.representation().partial();
        if (partial == null) {
            return obj;
        }
        if (!partial.equals(PartialObjects.KIND)) {
            throw PartialObjects.mismatch(true, PartialObjects.goType(hasProtobuf(type), type.version(), kind, false))
                    .exception();
        }
        return PartialObjects.of(r.representation().metaVersion(), obj);
    }

    private static boolean hasProtobuf(ResourceType type) {
        return ProtobufBodies.builtin().supports(type.gvk());
    }

    /** The includeObject of a Table read (validated on every read, as kube-apiserver does for Tables). */
    private static IncludeObject includeObject(Request r) {
        return r.representation().table() ? IncludeObject.parse(r.param("includeObject").orElse(null))
                : IncludeObject.METADATA;
    }

    private static io.kubepekko.api.table.TablePrinter printer(ResourceType type) {
        return TablePrinters.of(type.groupResource().group(), type.kind());
    }

    private CompletionStage<HttpResponse> list(ResourceType type, Request r) {
        IncludeObject include = includeObject(r);
        return controlPlane.list(type, r.info().namespace(), readOptions("list", r)).thenApply(chunk -> {
            // The selfLink goes into each item as it is written: never a second copy of the list.
            UnaryOperator<byte[]> links = selfLinks ? json -> SelfLinks.withSelfLink(type, json) : null;
            if (r.representation().table()) {
                return Encoder.table(Tables.listBody(Encoder.textFormat(r.format(), r.pretty()),
                        r.representation().metaVersion(), printer(type), chunk.items(), include,
                        new Tables.ListMeta(Long.toString(chunk.resourceVersion()), chunk.continueToken(),
                                chunk.remainingItemCount()), clock.instant(), links), r.format());
            }
            String partial = r.representation().partial();
            if (partial != null) {
                if (!partial.equals(PartialObjects.LIST_KIND)) {
                    throw PartialObjects.mismatch(false, PartialObjects.goType(hasProtobuf(type), type.version(),
                            type.listKind(), true)).exception();
                }
                String metaVersion = r.representation().metaVersion();
                UnaryOperator<byte[]> partialItem = links == null ? json -> PartialObjects.of(metaVersion, json)
                        : json -> PartialObjects.of(metaVersion, links.apply(json));
                return Encoder.list(new GroupVersionKind(PartialObjects.GROUP, metaVersion, PartialObjects.KIND),
                        PartialObjects.LIST_KIND, chunk, null, partialItem, r.format(), r.pretty());
            }
            return Encoder.list(type.gvk(), type.listKind(), chunk,
                    selfLinks ? SelfLinks.collection(type, r.info().namespace()) : null, links, r.format(),
                    r.pretty());
        });
    }

    /**
     * A chunked stream of JSON watch events, or the same events as WebSocket text messages when the
     * client asked to upgrade. A watch of a named object ({@code GET .../name?watch})
     * is a watch of the collection selected by {@code metadata.name}, as in kube-apiserver.
     */
    private CompletionStage<HttpResponse> watch(ResourceType type, Request r) {
        if (r.format() == Negotiation.Format.YAML || (r.format() == Negotiation.Format.PROTOBUF
                && (r.webSocket() != null || r.representation().table()))) {
            throw ApiStatus.notAcceptable("only the following media types are accepted: application/json, "
                    + "application/json;stream=watch, application/vnd.kubernetes.protobuf, "
                    + "application/vnd.kubernetes.protobuf;stream=watch").exception();
        }
        ReadOptions options = readOptions("watch", r);
        if (r.info().hasName()) {
            options = options.withFieldSelector(ReadOptions.namedSelector(options.fieldSelector(), r.info().name()));
        }
        Duration timeout = watchTimeouts.of(options.timeoutSeconds());
        java.util.function.UnaryOperator<byte[]> objects = selfLinks ? json -> SelfLinks.withSelfLink(type, json)
                : json -> json;
        String kind = type.kind();
        String apiVersion = type.apiVersion();
        if (PartialObjects.KIND.equals(r.representation().partial())) {
            // Each event's object as its PartialObjectMetadata; a PartialObjectMetadataList watch gets the
            // objects themselves, as kube-apiserver falls back when the per-event conversion fails.
            String metaVersion = r.representation().metaVersion();
            java.util.function.UnaryOperator<byte[]> whole = objects;
            objects = json -> PartialObjects.of(metaVersion, whole.apply(json));
            kind = PartialObjects.KIND;
            apiVersion = PartialObjects.apiVersion(metaVersion);
        }
        WatchFraming framing = r.format() == Negotiation.Format.PROTOBUF
                ? WatchFraming.protobuf(kind, apiVersion, objects)
                : r.representation().table()
                ? WatchFraming.table(type.kind(), type.apiVersion(), objects, new WatchFraming.TableRows(
                        r.representation().metaVersion(), printer(type), includeObject(r), clock))
                : new WatchFraming(kind, apiVersion, objects);
        return controlPlane.watch(type, r.info().namespace(), options, timeout).thenApply(events -> {
            if (r.webSocket() != null) {
                // As kube-apiserver: one text message per event (clients like fabric8 watch this way).
                return r.webSocket().handleMessagesWith(Sink.ignore(), events.takeWithin(timeout).via(watches.flow())
                        .map(e -> (Message) TextMessage.create(framing.frame(e).utf8String())));
            }
            return HttpResponse.create().withStatus(200).withEntity(HttpEntities.createChunked(
                    r.format() == Negotiation.Format.PROTOBUF ? PROTOBUF_WATCH : ContentTypes.APPLICATION_JSON,
                    events.takeWithin(timeout).via(watches.flow()).map(framing::frame)));
        });
    }

    /**
     * Ends every watch stream as if its timeout had come (the chunked body or the WebSocket closes in order),
     * and any watch started later at once: the server is stopping, and clients watch again elsewhere. Streams
     * still open when the actor system terminates would be torn down and logged as failures.
     */
    void endWatches() {
        watches.shutdown();
    }

    private CompletionStage<HttpResponse> create(ResourceType type, Request r) {
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(type, r, "CreateOptions");
        return write(type, r, new WriteOp.Create(d.object(), options), d.warnings());
    }

    /**
     * A create of a resource without objects (bindings): the create of its subresource (pods/binding) on
     * the object the body names.
     */
    private CompletionStage<HttpResponse> forwardedCreate(ResourceType type, Request r) {
        ForwardedCreate forward = type.forwardedCreate();
        ResourceType target = controlPlane.registry().find(type.group(), type.version(), forward.resource())
                .orElseThrow(() -> new IllegalStateException(type.resource() + " forwards to an unserved resource"));
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(type, r, "CreateOptions");
        String name = ObjectMeta.name(d.object());
        return write(target, r, new WriteOp.CreateSubresource(name == null ? "" : name, forward.subresource(),
                d.object(), type.resource(), options), d.warnings());
    }

    /** A create through a subresource of the named object (pods/{name}/binding). */
    private CompletionStage<HttpResponse> createSubresource(ResourceType type, Request r, SubresourceCreate creation) {
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d = RequestBodies.decode(r.contentType(), r.body(), creation.bodyKind(),
                FieldValidation.parse(fieldValidation(r), "CreateOptions"));
        return write(type, r, new WriteOp.CreateSubresource(r.info().name(), r.info().subresource(), d.object(), null,
                options), d.warnings());
    }

    private CompletionStage<HttpResponse> update(ResourceType type, Request r) {
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(type, r, "UpdateOptions");
        return write(type, r, new WriteOp.Update(r.info().name(), d.object(), null, options), d.warnings());
    }

    private CompletionStage<HttpResponse> patch(ResourceType type, Request r, String subresource) {
        // As kube-apiserver's PatchResource: the value up to its first ";", compared as it is.
        String mediaType = r.contentType() == null ? "" : r.contentType();
        int semicolon = mediaType.indexOf(';');
        String patchMediaType = semicolon > 0 ? mediaType.substring(0, semicolon) : mediaType;
        PatchType patchType = PatchType.fromMediaType(patchMediaType).filter(t -> t.mediaType.equals(patchMediaType))
                .orElseThrow(() -> ApiStatus.unsupportedMediaType("the body of the request was in an unknown format - "
                        + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                        + "application/strategic-merge-patch+json, application/apply-patch+yaml").exception());
        boolean apply = patchType == PatchType.APPLY_PATCH;
        if (apply && "scale".equals(subresource)) {
            throw ApiStatus.unsupportedMediaType("the body of the request was in an unknown format - accepted media "
                    + "types include: application/json-patch+json, application/merge-patch+json, "
                    + "application/strategic-merge-patch+json").exception();
        }
        // kube-apiserver's ValidatePatchOptions: these first, then the options every write has.
        List<io.kubepekko.api.status.FieldError> leading = new java.util.ArrayList<>();
        if (apply && r.param("fieldManager").filter(m -> !m.isEmpty()).isEmpty()) {
            leading.add(io.kubepekko.api.status.FieldError.required("fieldManager", "is required for apply patch"));
        }
        if (!apply && r.param("force").isPresent()) {
            leading.add(io.kubepekko.api.status.FieldError.forbidden("force", "may not be specified for non-apply patch"));
        }
        WriteOptions options = writeOptions(r, leading);
        boolean force = r.param("force").filter(v -> !v.isEmpty()).map(io.kubepekko.api.meta.GoStrconv::parseBool)
                .orElse(false);
        return write(type, r, new WriteOp.Patch(r.info().name(), patchType, r.body(), subresource, options, force));
    }

    private CompletionStage<HttpResponse> delete(ResourceType type, Request r) {
        return write(type, r, WriteOp.Delete.of(r.info().name(), deletionOptions(r)));
    }

    private CompletionStage<HttpResponse> deleteCollection(ResourceType type, Request r) {
        return controlPlane.deleteCollection(type, r.info().namespace(), r.param("labelSelector").orElse(null),
                        r.param("fieldSelector").orElse(null), deletionOptions(r))
                .thenApply(l -> Encoder.list(type.gvk(), type.listKind(),
                        new ListChunk(l.items(), l.resourceVersion(), null, null), null, null, r.format(),
                        r.pretty()));
    }

    private CompletionStage<HttpResponse> subresource(ResourceType type, Request r) {
        String sub = r.info().subresource();
        SubresourceCreate creation = type.subresources().contains(sub) ? type.strategy().subresourceCreate(sub) : null;
        if (creation != null) {
            // Only created (kube's NamedCreater): any other method finds the POST route and is refused.
            if (!r.info().verb().equals("create")) {
                throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
            }
            withPathNames(r);
            return createSubresource(type, r, creation);
        }
        if (!type.subresources().contains(sub)
                || !(sub.equals("status") || sub.equals("scale") || sub.equals("finalize"))) {
            throw ApiStatus.pathNotFound().exception();
        }
        if (sub.equals("finalize") && !r.info().verb().equals("update")) {
            // Kubernetes' FinalizeREST only updates.
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        withPathNames(r); // a subresource is never listed: the request comes back unchanged or not at all
        boolean scale = sub.equals("scale");
        return switch (r.info().verb()) {
            case "get" -> controlPlane.get(type, r.info().namespace(), r.info().name()).thenApply(found -> {
                byte[] obj = found.orElseThrow(() -> ApiStatus.notFound(type.groupResource(), r.info().name()).exception());
                byte[] answer = scale ? Json.bytes(ScaleConversion.toScale(type, Json.parseTrusted(obj))) : obj;
                return Encoder.json(200, partialObject(type, scale ? ScaleConversion.GVK.kind() : type.kind(), r,
                        answer), r.format(), r.pretty(), List.of());
            });
            case "update" -> {
                GroupVersionKind kind = scale ? ScaleConversion.GVK : type.gvk();
                WriteOptions options = writeOptions(r, List.of());
                ObjectNode body = RequestBodies.decode(r.contentType(), r.body(), kind,
                        FieldValidation.parse(fieldValidation(r), "UpdateOptions")).object();
                yield write(type, r, new WriteOp.Update(r.info().name(), body, sub, options));
            }
            case "patch" -> patch(type, r, sub);
            default -> throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        };
    }

    private CompletionStage<HttpResponse> write(ResourceType type, Request r, WriteOp op) {
        return write(type, r, op, List.of());
    }

    private CompletionStage<HttpResponse> write(ResourceType type, Request r, WriteOp op, List<String> decodeWarnings) {
        return controlPlane.write(type, r.info().namespace(), op).thenApply(w -> {
            List<String> warnings = decodeWarnings;
            if (!w.warnings().isEmpty()) {
                warnings = new java.util.ArrayList<>(decodeWarnings);
                warnings.addAll(w.warnings());
            }
            return Encoder.json(w.code(), w.body(), r.format(), r.pretty(), warnings);
        });
    }

    private RequestBodies.Decoded decodeWithWarnings(ResourceType type, Request r, String optionsKind) {
        return RequestBodies.decode(r.contentType(), r.body(), type.gvk(),
                FieldValidation.parse(fieldValidation(r), optionsKind));
    }

    /** The raw {@code fieldValidation} value; {@link FieldValidation#parse} validates it (422 when unsupported). */
    static String fieldValidation(Request r) {
        return r.param("fieldValidation").orElse("");
    }


    /**
     * The write's options, validated before the body is read (422 on the options kind); {@code leading}
     * are a patch's own problems. Without {@code fieldManager} the User-Agent names the manager.
     */
    private static WriteOptions writeOptions(Request r, List<io.kubepekko.api.status.FieldError> leading) {
        WriteOptions o = WriteOptions.parse(optionsKind(r.info().verb()), leading, r.param("fieldManager").orElse(null),
                values(r, "dryRun"), fieldValidation(r));
        return o.fieldManager() != null ? o
                : new WriteOptions(o.dryRun(), managerFromUserAgent(r.userAgent()), o.fieldValidation());
    }

    /** Without {@code fieldManager}, the manager is the User-Agent up to its first "/", as kube-apiserver names it. */
    static String managerFromUserAgent(String userAgent) {
        if (userAgent == null || userAgent.isEmpty()) {
            return null;
        }
        int slash = userAgent.indexOf('/');
        String name = slash < 0 ? userAgent : userAgent.substring(0, slash);
        return name.length() > 128 ? name.substring(0, 128) : name;
    }

    private static String optionsKind(String verb) {
        return switch (verb) {
            case "create" -> "CreateOptions";
            case "patch" -> "PatchOptions";
            default -> "UpdateOptions";
        };
    }

    private static final GroupVersionKind DELETE_OPTIONS = new GroupVersionKind("meta.k8s.io", "v1", "DeleteOptions");

    /**
     * As kube-apiserver reads them: the body when there is one, else the query. The body must
     * declare DeleteOptions (or nothing); it is decoded against its schema leniently, as kube's
     * delete handler uses the non-strict decoder (unknown fields are dropped).
     */
    private static DeletionOptions deletionOptions(Request r) {
        if (r.body().length == 0) {
            return DeletionOptions.fromQuery(name -> values(r, name));
        }
        ObjectNode body = RequestBodies.decode(r.contentType(), r.body(), DELETE_OPTIONS, FieldValidation.IGNORE)
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
