package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.patch.JsonPatch;
import io.kubepekko.api.patch.MergePatch;
import io.kubepekko.api.patch.StrategicMergePatch;
import io.kubepekko.api.protobuf.ProtoKinds;
import io.kubepekko.api.protobuf.ProtoSchema;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The patch step of {@link ObjectWrites}: a JSON, merge or strategic merge patch is applied to the
 * stored object (or its Scale), a server-side apply merged by {@link ApplyPatches}; the result
 * takes the update path, or for an apply of an absent object the create path. A malformed patch is
 * refused from inside the patch libraries by their {@code ApiException}, which {@link
 * ObjectWrites#execute} answers.
 */
final class ObjectPatches {

    private final ObjectWrites.FieldPruner pruner;

    ObjectPatches(ObjectWrites.FieldPruner pruner) {
        this.pruner = pruner;
    }

    /**
     * @param versions the version the patch is written in, which it is applied to (the stored
     *     object converted), and the storage version the result is converted back to
     * @param type the storage version's entry, with the strategy of the patch's version
     */
    WriteDecision patch(
            Versions versions,
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp.Patch p,
            ObjectWrites.Env env,
            AdmissionStep admit) {
        if (p.type() == PatchType.APPLY_PATCH) {
            return apply(versions, type, namespace, current, p, env, admit);
        }
        ObjectNode existing = current.apply(p.name());
        if (existing == null) {
            return ObjectWrites.refused(ApiStatus.notFound(type.groupResource(), p.name()));
        }
        boolean scale = "scale".equals(p.subresource());
        // A Scale is the same in every version; anything else is patched as the client sees it.
        ResourceType served = scale ? type : versions.served();
        ObjectNode base =
                scale
                        ? ScaleConversion.toScale(type, existing)
                        : versions.fromStorage(existing).deepCopy();
        JsonNode patched;
        switch (p.type()) {
            case JSON_PATCH -> patched = JsonPatch.apply(base, p.patch());
            case MERGE_PATCH -> patched = MergePatch.apply(base, MergePatch.parse(p.patch()));
            case STRATEGIC_MERGE_PATCH -> {
                String message = strategicMergeMessage(served, scale);
                if (message == null) {
                    // A kind without declared merge metadata (a custom resource): 415, as
                    // kube-apiserver answers.
                    return ObjectWrites.refused(
                            ApiStatus.unsupportedMediaType(
                                    "the body of the request was in an unknown format - accepted media "
                                            + "types include: application/json-patch+json, application/merge-patch+json"));
                }
                patched =
                        new StrategicMergePatch(MergeMetadata.builtin())
                                .apply(base, MergePatch.parse(p.patch()), message);
            }
            default -> {
                return ObjectWrites.refused(
                        ApiStatus.unsupportedMediaType(
                                "the body of the request was in an unknown format - "
                                        + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                                        + "application/strategic-merge-patch+json"));
            }
        }
        if (!(patched instanceof ObjectNode obj)) {
            return ObjectWrites.refused(
                    ApiStatus.badRequest("the patched object is not a JSON object"));
        }
        GroupVersionKind patchedKind = scale ? ScaleConversion.GVK : served.gvk();
        Optional<ApiStatus> mistyped;
        List<String> decodeWarnings = List.of();
        if (p.type() == PatchType.STRATEGIC_MERGE_PATCH) {
            TypeMeta.resetPatched(patchedKind, obj);
            mistyped = Optional.empty();
        } else {
            Optional<ServedKind> written = scale ? Optional.empty() : writtenIn(versions, obj);
            if (written.isPresent()) {
                // kube decodes the patched JSON as the version it names, dropping the fields that
                // version lacks (warned of, or refused under Strict), and converts it to the URL's.
                ObjectWrites.Pruned asWritten =
                        pruner.prune(written.get().type(), obj, p.options().fieldValidation());
                decodeWarnings = asWritten.warnings();
                obj = versions.fromStorage(written.get().toStorage(asWritten.object())).deepCopy();
            }
            mistyped = TypeMeta.checkPatched(patchedKind, obj);
        }
        if (mistyped.isPresent()) {
            return ObjectWrites.refused(mistyped.get());
        }
        if (scale) {
            return ObjectUpdates.update(
                    type,
                    namespace,
                    current,
                    p.name(),
                    obj,
                    p.subresource(),
                    List.of(),
                    env,
                    admit);
        }
        ObjectWrites.Pruned pruned = pruner.prune(served, obj, p.options().fieldValidation());
        List<String> warnings = new ArrayList<>(decodeWarnings);
        warnings.addAll(pruned.warnings());
        return ObjectUpdates.update(
                type,
                namespace,
                current,
                p.name(),
                versions.toStorage(pruned.object()),
                p.subresource(),
                warnings,
                env,
                admit);
    }

    /**
     * The other served version of the kind a JSON or merge patch's result names in its {@code
     * apiVersion} (with the kind's own {@code kind}, or none); empty when it names the URL's
     * version or anything else, which {@link TypeMeta#checkPatched} judges.
     */
    private static Optional<ServedKind> writtenIn(Versions versions, ObjectNode patched) {
        JsonNode apiVersion = patched.get("apiVersion");
        JsonNode kind = patched.get("kind");
        if (apiVersion == null || !apiVersion.isTextual()) {
            return Optional.empty();
        }
        if (kind != null
                && !(kind.isTextual()
                        && (kind.asText().isEmpty()
                                || kind.asText().equals(versions.served().kind())))) {
            return Optional.empty();
        }
        return versions.other(apiVersion.asText());
    }

    /**
     * Server-side apply: the configuration (with its unknown fields handled per fieldValidation) is
     * merged into the object, or creates it when absent, then takes the ordinary update or create
     * path.
     */
    private WriteDecision apply(
            Versions versions,
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp.Patch p,
            ObjectWrites.Env env,
            AdmissionStep admit) {
        // The configuration is merged into the object as the version it is written in has it.
        ResourceType served = versions.served();
        ObjectNode config = ApplyPatches.config(served, p);
        boolean status = "status".equals(p.subresource());
        ObjectWrites.Pruned pruned =
                status
                        ? new ObjectWrites.Pruned(config, List.of())
                        : pruner.pruneAppliedConfiguration(
                                served, config, p.options().fieldValidation());
        ObjectNode existing = current.apply(p.name());
        if (existing == null) {
            if (p.subresource() != null) {
                return ObjectWrites.refused(ApiStatus.notFound(type.groupResource(), p.name()));
            }
            ApplyPatches.Merge merged =
                    ApplyPatches.apply(versions, null, pruned.object(), p, env.now());
            if (merged instanceof ApplyPatches.Conflicted conflicted) {
                return conflicted.refusal();
            }
            ObjectNode created = versions.toStorage(encoded(served, (ApplyPatches.Applied) merged));
            return ObjectWrites.withWarnings(
                    ObjectCreates.create(type, namespace, current, created, env, admit),
                    pruned.warnings());
        }
        ApplyPatches.Merge merged =
                ApplyPatches.apply(versions, existing, pruned.object(), p, env.now());
        if (merged instanceof ApplyPatches.Conflicted conflicted) {
            return conflicted.refusal();
        }
        ObjectNode applied = versions.toStorage(encoded(served, (ApplyPatches.Applied) merged));
        WriteDecision decision =
                ObjectUpdates.update(
                        type,
                        namespace,
                        current,
                        p.name(),
                        applied,
                        p.subresource(),
                        pruned.warnings(),
                        env,
                        admit);
        if (!status || !(decision instanceof WriteOutcome out) || out.removes()) {
            return decision;
        }
        // A status write keeps the stored metadata; the apply's record of managers is the
        // exception.
        ObjectNode after = out.after().deepCopy();
        JsonNode managers = ObjectMeta.of(applied).get("managedFields");
        if (managers == null) {
            ObjectMeta.of(after).remove("managedFields");
        } else {
            ObjectMeta.of(after).set("managedFields", managers);
        }
        return ObjectUpdates.modified(existing, after, out.view(), out.warnings());
    }

    /**
     * A merged apply result as Kubernetes stores it: the typed object's encoding, which leaves out
     * the empty maps and lists the configuration kept for the merge. Its unknown fields went with
     * the configuration's, so nothing is reported here.
     */
    private ObjectNode encoded(ResourceType type, ApplyPatches.Applied applied) {
        return applied.needsEncoding()
                ? pruner.prune(type, applied.object(), FieldValidation.IGNORE).object()
                : applied.object();
    }

    /**
     * The protobuf message whose declared merge metadata a strategic merge patch of {@code type}
     * (or of its Scale) follows; null for a kind without one.
     */
    private static String strategicMergeMessage(ResourceType type, boolean scale) {
        return scale
                ? "autoscaling.v1.Scale"
                : ProtoKinds.message(
                        ProtoSchema.builtin(),
                        type.gvk().group(),
                        type.gvk().version(),
                        type.gvk().kind());
    }
}
