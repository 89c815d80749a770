package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.Verb;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.GoStrconv;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ForwardedCreate;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.status.WarningRecorder;
import io.kubepekko.api.store.DeleteOptionsType;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.api.store.SubresourceRoute;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.RequestBodies;
import io.kubepekko.http.route.ResourceHandler.Request;
import io.kubepekko.http.webhook.ServerRefusal;
import io.kubepekko.http.webhook.WebhookAdmission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * The writes of {@link ResourceHandler}: create, update, patch, delete and deletecollection, of an
 * object or through a subresource. Each reads its options and body, hands one {@link WriteOp} to
 * the {@link ControlPlane} as the request's user's (whose admission the collection runs inside the
 * write, after the admission webhooks the request calls) and renders the {@link WriteResult} it
 * answers.
 */
final class WriteHandler {

    private final ControlPlane controlPlane;
    private final WebhookAdmission webhooks;

    WriteHandler(ControlPlane controlPlane, WebhookAdmission webhooks) {
        this.controlPlane = controlPlane;
        this.webhooks = webhooks;
    }

    CompletionStage<HttpResponse> create(ServedKind kind, Request r) {
        WriteOptions options = writeOptions(kind, r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(kind.type(), r, options);
        // What the plugins look up live comes first, so that the write's admission reads it.
        return r.admission()
                .prepareCreate(kind.type().groupResource(), r.info().namespace(), d.object())
                .thenCompose(
                        prepared ->
                                write(
                                        kind,
                                        r,
                                        new WriteOp.Create(d.object(), options),
                                        d.warnings()));
    }

    /**
     * A create of a resource without objects (bindings): the create of its subresource
     * (pods/binding) on the object the body names.
     */
    CompletionStage<HttpResponse> forwardedCreate(ResourceType type, Request r) {
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
        // kube admits a create of bindings as one of that resource, named as the body.
        return r.afterWebhooks(
                webhooks.create(
                        type,
                        "",
                        r.info().namespace(),
                        name == null ? "" : name,
                        type.gvk(),
                        d.object(),
                        options.dryRun(),
                        options.fieldManager(),
                        r.user(),
                        ServerRefusal.dryRun(
                                controlPlane,
                                target,
                                r.info().namespace(),
                                r.user(),
                                new WriteOp.CreateSubresource(
                                        name == null ? "" : name,
                                        forward.subresource(),
                                        d.object(),
                                        type.resource(),
                                        options))),
                d.warnings(),
                (object, warnings) ->
                        write(
                                target,
                                r,
                                new WriteOp.CreateSubresource(
                                        name == null ? "" : name,
                                        forward.subresource(),
                                        object,
                                        type.resource(),
                                        options),
                                warnings));
    }

    /** A create through a subresource of the named object (pods/{name}/binding). */
    CompletionStage<HttpResponse> createSubresource(
            ResourceType type, Request r, SubresourceCreate creation) {
        WriteOptions options = writeOptions(r, List.of());
        RequestBodies.Decoded d =
                RequestBodies.decode(
                        r.contentType(), r.body(), creation.bodyKind(), options.fieldValidation());
        return r.afterWebhooks(
                webhooks.create(
                        type,
                        r.info().subresource(),
                        r.info().namespace(),
                        r.info().name(),
                        creation.bodyKind(),
                        d.object(),
                        options.dryRun(),
                        options.fieldManager(),
                        r.user(),
                        ServerRefusal.dryRun(
                                controlPlane,
                                type,
                                r.info().namespace(),
                                r.user(),
                                new WriteOp.CreateSubresource(
                                        r.info().name(),
                                        r.info().subresource(),
                                        d.object(),
                                        null,
                                        options))),
                d.warnings(),
                (object, warnings) ->
                        write(
                                type,
                                r,
                                new WriteOp.CreateSubresource(
                                        r.info().name(),
                                        r.info().subresource(),
                                        object,
                                        null,
                                        options),
                                warnings));
    }

    CompletionStage<HttpResponse> update(ServedKind kind, Request r) {
        WriteOptions options = writeOptions(kind, r, List.of());
        RequestBodies.Decoded d = decodeWithWarnings(kind.type(), r, options);
        return write(
                kind,
                r,
                new WriteOp.Update(r.info().name(), d.object(), null, options),
                d.warnings());
    }

    /**
     * A patch of the object ({@code subresource} null) or of a subresource, in one of {@code
     * accepted}.
     */
    CompletionStage<HttpResponse> patch(
            ServedKind kind, Request r, String subresource, List<PatchType> accepted) {
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
        WriteOptions options = writeOptions(kind, r, leading);
        boolean force =
                r.param("force").filter(v -> !v.isEmpty()).map(GoStrconv::parseBool).orElse(false);
        // The collection applies the patch to the stored object (in the patch's version) and
        // admits its result there.
        return write(
                kind,
                r,
                new WriteOp.Patch(
                        r.info().name(), patchType, r.body(), subresource, options, force),
                List.of());
    }

    private static ApiStatus unknownPatchFormat(List<PatchType> accepted) {
        return ApiStatus.unsupportedMediaType(
                "the body of the request was in an unknown format - accepted media "
                        + "types include: "
                        + String.join(", ", accepted.stream().map(t -> t.mediaType).toList()));
    }

    CompletionStage<HttpResponse> delete(ServedKind kind, Request r) {
        return write(kind, r, WriteOp.Delete.of(r.info().name(), deletionOptions(r)), List.of());
    }

    CompletionStage<HttpResponse> deleteCollection(ServedKind kind, Request r) {
        // The list options are validated as kube-apiserver does (400 malformed numbers, 422 invalid
        // combinations) before the delete options, and the parsed value is what selects the
        // objects.
        ReadOptions listed =
                ReadOptions.parse(
                        ReadOptions.Verb.LIST, r.query().toMultiMap(), controlPlane.featureGates());
        if (!kind.isStorageVersion()) {
            listed = listed.withFieldSelector(kind.storageFieldSelector(listed.fieldSelector()));
        }
        // The items are deleted concurrently, each warning into the request's one recorder.
        WarningRecorder warnings = new WarningRecorder();
        return controlPlane
                .deleteCollection(
                        kind.storageType(),
                        r.info().namespace(),
                        listed,
                        deletionOptions(r),
                        r.user(),
                        // Every item's webhook annotations go to the request's one audit event,
                        // as kube's: a key met again keeps its first value. Their warnings go to
                        // the request's response, as kube's recorder's: the same text once.
                        (item, op) ->
                                webhooks.deleteItem(kind, r.info().namespace(), item, op, r.user())
                                        .thenApply(
                                                written -> {
                                                    r.annotate(written.annotations());
                                                    warnings.addAll(written.warnings());
                                                    return written.result();
                                                }))
                .thenApply(
                        done ->
                                // kube's recorder writes its headers before any answer: a
                                // refusal carries the warnings of the items admitted until then.
                                Encoder.withWarnings(deleted(kind, r, done), warnings.texts()));
    }

    private static HttpResponse deleted(
            ServedKind kind, Request r, ControlPlane.CollectionDeletion done) {
        if (done instanceof ControlPlane.CollectionDeletion.Refused refused) {
            return r.refusal(kind.refusal(refused.status()));
        }
        ResourceType type = kind.type();
        ControlPlane.ObjectList l = ((ControlPlane.CollectionDeletion.Deleted) done).listed();
        return Encoder.list(
                type.gvk(),
                type.listKind(),
                new ListChunk(l.items(), l.resourceVersion(), null, null),
                kind.isStorageVersion() ? null : kind::fromStorage,
                r.format(),
                r.pretty());
    }

    /** A write of an object's part (status, scale, finalize) with a body of the part's kind. */
    CompletionStage<HttpResponse> updatePart(
            ServedKind kind, Request r, SubresourceRoute.ObjectPart part) {
        WriteOptions options = writeOptions(kind, r, List.of());
        ObjectNode body =
                RequestBodies.decode(
                                r.contentType(),
                                r.body(),
                                part.bodyKind(),
                                options.fieldValidation())
                        .object();
        return write(
                kind,
                r,
                new WriteOp.Update(r.info().name(), body, part.name(), options),
                List.of());
    }

    /** A write to a kind served in its storage version only (bindings, pods/binding). */
    private CompletionStage<HttpResponse> write(
            ResourceType type, Request r, WriteOp op, List<String> decodeWarnings) {
        return controlPlane
                .write(type, r.info().namespace(), op, r.user())
                .thenApply(result -> response(result, r, decodeWarnings, null));
    }

    /**
     * A write through a served version: to the storage's collection, which converts its body or
     * patch from the version the options name, answered in the served version.
     */
    private CompletionStage<HttpResponse> write(
            ServedKind kind, Request r, WriteOp op, List<String> decodeWarnings) {
        return webhooks.write(kind, r.info().namespace(), op, r.user())
                .thenApply(
                        written -> {
                            r.annotate(written.annotations());
                            if (written.result() instanceof WriteResult.Refused) {
                                // The webhooks' warnings came before their verdict: kube's
                                // recorder has written them when the refusal is answered.
                                return Encoder.withWarnings(
                                        response(written.result(), r, decodeWarnings, kind),
                                        written.warnings());
                            }
                            List<String> warnings = decodeWarnings;
                            if (!written.warnings().isEmpty()) {
                                warnings = new ArrayList<>(decodeWarnings);
                                warnings.addAll(written.warnings());
                            }
                            return response(written.result(), r, warnings, kind);
                        });
    }

    /**
     * The one place a write's answer becomes its HTTP status and body. A refusal answers as every
     * failed request does: a Status in the encoding negotiated for errors, not for the object, and
     * without the decoding's warnings. Through a version stored as another ({@code kind}, null for
     * none), the body is that version's object and a refusal names that version's resource.
     */
    static HttpResponse response(
            WriteResult result, Request r, List<String> decodeWarnings, ServedKind kind) {
        boolean converted = kind != null && !kind.isStorageVersion();
        if (result instanceof WriteResult.Refused refused) {
            return r.refusal(converted ? kind.refusal(refused.status()) : refused.status());
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
        byte[] body = converted ? kind.responseBody(w.body()) : w.body();
        return Encoder.json(code, body, r.format(), r.pretty(), warnings);
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
    private static WriteOptions writeOptions(ServedKind kind, Request r, List<FieldError> leading) {
        WriteOptions o = writeOptions(r, leading);
        return kind.isStorageVersion() ? o : o.inVersion(kind.apiVersion());
    }

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
