package io.kubepekko.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.ControlPlane;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.DryRun;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.ScaleConversion;
import io.kubepekko.api.store.TypeMeta;
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

    private final ControlPlane controlPlane;
    private final WatchTimeouts watchTimeouts;
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
        if (!type.supports(info.verb()) && !info.verb().equals("watch")) {
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        boolean itemVerb = info.verb().equals("update") || info.verb().equals("patch");
        if ((itemVerb && !info.hasName()) || (info.verb().equals("create") && info.hasName())) {
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        if (info.verb().equals("deletecollection")) {
            // Validates the list options as kube-apiserver does (400 malformed numbers, 422 invalid combinations).
            readOptions("list", r);
        }
        return switch (info.verb()) {
            case "get" -> get(type, r);
            case "list" -> list(type, r);
            case "watch" -> watch(type, r);
            case "create" -> create(type, r);
            case "update" -> update(type, r);
            case "patch" -> patch(type, r, null);
            case "delete" -> delete(type, r);
            case "deletecollection" -> deleteCollection(type, r);
            default -> throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        };
    }

    private static void checkScope(ResourceType type, RequestInfo info) {
        if (!type.namespaced() && info.namespace() != null) {
            throw ApiStatus.pathNotFound().exception();
        }
        if (type.namespaced() && info.namespace() == null) {
            if (info.hasName()) {
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
            return Encoder.json(200, obj, r.format(), r.pretty(), List.of());
        });
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
        WatchFraming framing = r.format() == Negotiation.Format.PROTOBUF
                ? WatchFraming.protobuf(type.kind(), type.apiVersion(), objects)
                : r.representation().table()
                ? WatchFraming.table(type.kind(), type.apiVersion(), objects, new WatchFraming.TableRows(
                        r.representation().metaVersion(), printer(type), includeObject(r), clock))
                : new WatchFraming(type.kind(), type.apiVersion(), objects);
        return controlPlane.watch(type, r.info().namespace(), options).thenApply(events -> {
            if (r.webSocket() != null) {
                // As kube-apiserver: one text message per event (clients like fabric8 watch this way).
                return r.webSocket().handleMessagesWith(Sink.ignore(), events.takeWithin(timeout)
                        .map(e -> (Message) TextMessage.create(framing.frame(e).utf8String())));
            }
            return HttpResponse.create().withStatus(200).withEntity(HttpEntities.createChunked(
                    r.format() == Negotiation.Format.PROTOBUF ? PROTOBUF_WATCH : ContentTypes.APPLICATION_JSON,
                    events.takeWithin(timeout).map(framing::frame)));
        });
    }

    private CompletionStage<HttpResponse> create(ResourceType type, Request r) {
        RequestBodies.Decoded d = decodeWithWarnings(type, r, "CreateOptions");
        return write(type, r, new WriteOp.Create(d.object(), writeOptions(r)), d.warnings());
    }

    private CompletionStage<HttpResponse> update(ResourceType type, Request r) {
        RequestBodies.Decoded d = decodeWithWarnings(type, r, "UpdateOptions");
        return write(type, r, new WriteOp.Update(r.info().name(), d.object(), null, writeOptions(r)), d.warnings());
    }

    private CompletionStage<HttpResponse> patch(ResourceType type, Request r, String subresource) {
        String mediaType = r.contentType();
        PatchType patchType = PatchType.fromMediaType(mediaType == null ? "" : mediaType)
                .orElseThrow(() -> ApiStatus.unsupportedMediaType("the body of the request was in an unknown format - "
                        + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                        + "application/strategic-merge-patch+json, application/apply-patch+yaml").exception());
        boolean apply = patchType == PatchType.APPLY_PATCH;
        if (apply && "scale".equals(subresource)) {
            throw ApiStatus.unsupportedMediaType("the body of the request was in an unknown format - accepted media "
                    + "types include: application/json-patch+json, application/merge-patch+json, "
                    + "application/strategic-merge-patch+json").exception();
        }
        if (apply && r.param("fieldManager").filter(m -> !m.isEmpty()).isEmpty()) {
            throw ApiStatus.invalidRequest("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: "
                    + "is required for apply patch", List.of(io.kubepekko.api.status.FieldError.required("fieldManager",
                    "is required for apply patch"))).exception();
        }
        if (!apply && r.param("force").isPresent()) {
            throw ApiStatus.invalidRequest("PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be "
                    + "specified for non-apply patch", List.of(io.kubepekko.api.status.FieldError.forbidden("force",
                    "may not be specified for non-apply patch"))).exception();
        }
        boolean force = r.param("force").filter(v -> !v.isEmpty()).map(io.kubepekko.api.meta.GoStrconv::parseBool)
                .orElse(false);
        return write(type, r, new WriteOp.Patch(r.info().name(), patchType, r.body(), subresource, writeOptions(r),
                force));
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
        if (!type.subresources().contains(sub)
                || !(sub.equals("status") || sub.equals("scale") || sub.equals("finalize"))) {
            throw ApiStatus.pathNotFound().exception();
        }
        if (sub.equals("finalize") && !r.info().verb().equals("update")) {
            // Kubernetes' FinalizeREST only updates.
            throw ApiStatus.methodNotAllowed(NOT_ALLOWED).exception();
        }
        boolean scale = sub.equals("scale");
        return switch (r.info().verb()) {
            case "get" -> controlPlane.get(type, r.info().namespace(), r.info().name()).thenApply(found -> {
                byte[] obj = found.orElseThrow(() -> ApiStatus.notFound(type.groupResource(), r.info().name()).exception());
                return scale
                        ? Encoder.json(200, ScaleConversion.toScale(type, Json.parseTrusted(obj)), r.format(), r.pretty())
                        : Encoder.json(200, obj, r.format(), r.pretty(), List.of());
            });
            case "update" -> {
                GroupVersionKind kind = scale ? ScaleConversion.GVK : type.gvk();
                ObjectNode body = RequestBodies.decode(r.contentType(), r.body(), kind,
                        FieldValidation.parse(fieldValidation(r), "UpdateOptions")).object();
                TypeMeta.check(kind.apiVersion(), kind.kind(), body);
                yield write(type, r, new WriteOp.Update(r.info().name(), body, sub, writeOptions(r)));
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
        RequestBodies.Decoded d = RequestBodies.decode(r.contentType(), r.body(), type.gvk(),
                FieldValidation.parse(fieldValidation(r), optionsKind));
        TypeMeta.check(type.apiVersion(), type.kind(), d.object());
        return d;
    }

    /** The raw {@code fieldValidation} value; {@link FieldValidation#parse} validates it (422 when unsupported). */
    static String fieldValidation(Request r) {
        return r.param("fieldValidation").orElse("");
    }


    private static WriteOptions writeOptions(Request r) {
        String kind = optionsKind(r.info().verb());
        String fv = FieldValidation.parse(fieldValidation(r), kind).queryValue();
        return new WriteOptions(DryRun.parse(values(r, "dryRun"), kind),
                r.param("fieldManager").orElseGet(() -> managerFromUserAgent(r.userAgent())), fv);
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

    /** As kube-apiserver reads them: the body (decoded against its schema) when there is one, else the query. */
    private static DeletionOptions deletionOptions(Request r) {
        return r.body().length > 0
                ? DeletionOptions.fromBody(RequestBodies.decode(r.contentType(), r.body(), DELETE_OPTIONS,
                        FieldValidation.STRICT).object())
                : DeletionOptions.fromQuery(name -> values(r, name));
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
