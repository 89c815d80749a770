package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.GoStrconv;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.status.WarningRecorder;
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
import io.kubepekko.http.webhook.WebhookAdmission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * The writes of {@link ResourceHandler}: create, update, patch, delete and deletecollection of an
 * object, and the writes of its parts (status, scale, finalize); creates through a subresource are
 * {@link SubresourceCreateHandler}'s. Each reads its options and body, hands one {@link WriteOp} to
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
        WriteOptions options = WriteParameters.writeOptions(kind, r, List.of());
        RequestBodies.Decoded d = WriteParameters.body(kind.type(), r, options);
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

    CompletionStage<HttpResponse> update(ServedKind kind, Request r) {
        WriteOptions options = WriteParameters.writeOptions(kind, r, List.of());
        RequestBodies.Decoded d = WriteParameters.body(kind.type(), r, options);
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
        WriteOptions options = WriteParameters.writeOptions(kind, r, leading);
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
        return write(
                kind,
                r,
                WriteOp.Delete.of(r.info().name(), WriteParameters.deletionOptions(r)),
                List.of());
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
                        WriteParameters.deletionOptions(r),
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
        WriteOptions options = WriteParameters.writeOptions(kind, r, List.of());
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
                                        WriteResponses.of(
                                                written.result(), r, decodeWarnings, kind),
                                        written.warnings());
                            }
                            List<String> warnings = decodeWarnings;
                            if (!written.warnings().isEmpty()) {
                                warnings = new ArrayList<>(decodeWarnings);
                                warnings.addAll(written.warnings());
                            }
                            return WriteResponses.of(written.result(), r, warnings, kind);
                        });
    }
}
