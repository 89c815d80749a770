package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.BodyDecoder;
import io.kubepekko.api.codec.DecodedBody;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.patch.JsonPatch;
import io.kubepekko.api.patch.MergePatch;
import io.kubepekko.api.patch.StrategicMergePatch;
import io.kubepekko.api.protobuf.ProtoKinds;
import io.kubepekko.api.protobuf.ProtoSchema;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The generic write pipeline, executed by the single writer of a collection: fill system fields,
 * prepare (status split, generation), default, validate, check uniqueness and preconditions. Pure:
 * the current objects come from a lookup, time and randomness from {@link Env}.
 */
public final class ObjectWrites {

    /**
     * Removes fields the kind's schema does not know from an object produced by a patch, and
     * reports them per {@code fieldValidation}: returns warnings, or throws 400 under {@code
     * Strict}.
     */
    @FunctionalInterface
    public interface FieldPruner {
        FieldPruner NONE = (type, obj, fieldValidation) -> new Pruned(obj, List.of());

        Pruned prune(ResourceType type, ObjectNode obj, FieldValidation fieldValidation);

        /**
         * As {@link #prune}, for a server-side apply configuration, which keeps its empty maps and
         * lists for the merge; by default the same as {@link #prune}.
         */
        default Pruned pruneAppliedConfiguration(
                ResourceType type, ObjectNode config, FieldValidation fieldValidation) {
            return prune(type, config, fieldValidation);
        }
    }

    /** An object with unknown fields removed, and the warnings to send about them. */
    public record Pruned(ObjectNode object, List<String> warnings) {}

    /** The pruner backed by the kinds' structural schemas ({@link BodyDecoder#prune}). */
    public static final FieldPruner SCHEMA_PRUNER =
            new FieldPruner() {
                @Override
                public Pruned prune(
                        ResourceType type, ObjectNode obj, FieldValidation fieldValidation) {
                    DecodedBody d = BodyDecoder.forKind(type.gvk()).prune(obj, fieldValidation);
                    return new Pruned(d.object(), d.warnings());
                }

                @Override
                public Pruned pruneAppliedConfiguration(
                        ResourceType type, ObjectNode config, FieldValidation fieldValidation) {
                    DecodedBody d =
                            BodyDecoder.forKind(type.gvk())
                                    .pruneAppliedConfiguration(config, fieldValidation);
                    return new Pruned(d.object(), d.warnings());
                }
            };

    /**
     * What one write may observe besides the collection: the clock and the sources of randomness.
     */
    public record Env(Instant now, Supplier<String> uids, Supplier<String> nameSuffixes) {}

    private static final int GENERATE_NAME_ATTEMPTS = 8;

    /** The default object size limit (see {@link ObjectSizeLimit}). */
    public static final long DEFAULT_MAX_OBJECT_BYTES = ObjectSizeLimit.DEFAULT_MAX_OBJECT_BYTES;

    private final FieldPruner pruner;
    private final ObjectSizeLimit sizeLimit;

    public ObjectWrites(FieldPruner pruner) {
        this(pruner, DEFAULT_MAX_OBJECT_BYTES);
    }

    /**
     * @param maxObjectBytes the largest object a write may leave stored: its JSON as the pipeline
     *     produces it, managedFields included, before the resourceVersion (and a Service's
     *     allocated IPs and ports) are filled in
     */
    public ObjectWrites(FieldPruner pruner, long maxObjectBytes) {
        this.pruner = pruner;
        this.sizeLimit = new ObjectSizeLimit(maxObjectBytes);
    }

    /**
     * Executes {@code op} against the collection {@code namespace} of {@code type}.
     *
     * @param current the stored object by name, or {@code null}; the result is not mutated
     * @return the outcome, or the write's refusal
     */
    public WriteDecision execute(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp op,
            Env env) {
        try {
            WriteDecision decision = dispatch(type, namespace, current, op, env);
            return decision instanceof WriteOutcome out
                    ? sizeLimit.fit(op, ManagedFieldsRecorder.record(type, op, out, env.now()))
                    : decision;
        } catch (ApiException e) {
            // The checks of a body's form (type meta, names, decoding a patch, the kind's own
            // checks of
            // a field) refuse from deep inside shared helpers; that refusal is the write's answer
            // too.
            return new WriteResult.Refused(e.status());
        }
    }

    private WriteDecision dispatch(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp op,
            Env env) {
        if (op instanceof WriteOp.Create c) {
            ObjectNode obj = c.object().deepCopy();
            TypeMeta.checkBody(type.gvk(), obj);
            return create(type, namespace, current, obj, env);
        } else if (op instanceof WriteOp.Update u) {
            ObjectNode obj = u.object().deepCopy();
            TypeMeta.checkBody(
                    "scale".equals(u.subresource()) ? ScaleConversion.GVK : type.gvk(), obj);
            // kube-apiserver's update handler checks name, then namespace, before storage sees the
            // body.
            checkName(u.name(), type.namespaced() ? namespace : null, obj);
            return update(type, namespace, current, u.name(), obj, u.subresource(), List.of(), env);
        } else if (op instanceof WriteOp.Patch p) {
            return patch(type, namespace, current, p, env);
        } else if (op instanceof WriteOp.CreateSubresource c) {
            return SubresourceCreates.execute(type, namespace, current, c, env);
        }
        return delete(type, current, (WriteOp.Delete) op, env);
    }

    private WriteDecision create(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            ObjectNode obj,
            Env env) {
        checkNamespace(type, namespace, obj, true);
        ObjectNode meta = ObjectMeta.of(obj);
        String rv = ObjectMeta.resourceVersion(obj);
        if (rv != null && !rv.isEmpty()) {
            return refused(
                    ApiStatus.badRequest(
                            "resourceVersion should not be set on objects to be created"));
        }
        String name = ObjectMeta.name(obj);
        String generateName = ObjectMeta.generateName(obj);
        if ((name == null || name.isEmpty()) && generateName != null && !generateName.isEmpty()) {
            name = generateUnusedName(generateName, current, env);
            meta.put("name", name);
        }
        meta.put("uid", env.uids().get());
        meta.put("creationTimestamp", Timestamps.format(env.now()));
        meta.remove(
                List.of(
                        "deletionTimestamp",
                        "deletionGracePeriodSeconds",
                        "selfLink",
                        "resourceVersion"));
        if (type.tracksGeneration()) {
            meta.put("generation", 1);
        } else {
            meta.remove("generation");
        }
        // Kubernetes defaults while decoding, before PrepareForCreate derives the initial status
        // from
        // the spec (a pod's qosClass counts requests defaulted from limits). Defaults run again
        // below
        // because some depend on the status the object is created with; they only fill unset
        // fields.
        type.strategy().applyDefaults(obj);
        if (type.hasStatus()) {
            JsonNode initial = type.strategy().initialStatus(obj);
            if (initial == null) {
                obj.remove("status");
            } else {
                obj.set("status", initial.deepCopy());
            }
        }
        type.strategy().applyDefaults(obj);
        type.strategy().prepareForCreate(obj);
        List<FieldError> errors = new ArrayList<>(ObjectMetaValidation.validateCreate(type, obj));
        errors.addAll(type.strategy().validateCreate(obj));
        if (!errors.isEmpty()) {
            return invalid(type, name, errors);
        }
        if (current.apply(name) != null) {
            return refused(ApiStatus.alreadyExists(type.groupResource(), name));
        }
        return new WriteOutcome(
                null,
                obj,
                WriteOutcome.Answer.CREATED,
                true,
                WriteOutcome.ResponseView.OBJECT,
                List.of());
    }

    private static String generateUnusedName(
            String prefix, Function<String, ObjectNode> current, Env env) {
        String base = prefix.length() > 58 ? prefix.substring(0, 58) : prefix;
        String candidate = base + env.nameSuffixes().get();
        for (int i = 1; i < GENERATE_NAME_ATTEMPTS && current.apply(candidate) != null; i++) {
            candidate = base + env.nameSuffixes().get();
        }
        return candidate;
    }

    private WriteDecision update(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            String name,
            ObjectNode incoming,
            String subresource,
            List<String> warnings,
            Env env) {
        // PUT bodies were checked with the handler's wording already; a patched object gets the
        // storage's.
        checkNamespace(type, namespace, incoming, true);
        checkName(name, null, incoming);
        ObjectNode existing = current.apply(name);
        if (existing == null) {
            if (type.allowCreateOnUpdate() && subresource == null) {
                // The uid precondition is checked against the absent object; the resourceVersion is
                // dropped, as storage does for a create through update.
                ApiStatus uidMismatch = uidPrecondition(type, name, incoming, null);
                if (uidMismatch != null) {
                    return refused(uidMismatch);
                }
                ObjectMeta.of(incoming).remove("resourceVersion");
                return withWarnings(create(type, namespace, current, incoming, env), warnings);
            }
            return refused(ApiStatus.notFound(type.groupResource(), name));
        }
        // Storage checks the uid precondition before the update function compares resourceVersions.
        ApiStatus stale = uidPrecondition(type, name, incoming, existing);
        if (stale == null) {
            stale = resourceVersionPrecondition(type, name, incoming, existing);
        }
        if (stale != null) {
            return refused(stale);
        }
        WriteOutcome.ResponseView view = WriteOutcome.ResponseView.OBJECT;
        ObjectNode updated;
        if ("status".equals(subresource)) {
            updated = existing.deepCopy();
            JsonNode status = incoming.get("status");
            if (status == null || status.isNull()) {
                updated.remove("status");
            } else {
                updated.set("status", status);
            }
        } else if ("scale".equals(subresource)) {
            updated = ScaleConversion.applyScale(type, existing, incoming);
            view = WriteOutcome.ResponseView.SCALE;
        } else {
            // The main resource, or a namespace's /finalize, which writes the same fields but
            // spec.finalizers
            // (Kubernetes' FinalizeREST: no PrepareForUpdate of the main strategy).
            boolean finalize = "finalize".equals(subresource);
            updated = incoming;
            copySystemFields(existing, updated);
            JsonNode managed = ObjectMeta.of(updated).get("managedFields");
            if (managed == null && ObjectMeta.of(existing).has("managedFields")) {
                // A body without managedFields keeps the recorded ones, as kube-apiserver does.
                ObjectMeta.of(updated)
                        .set("managedFields", ObjectMeta.of(existing).get("managedFields"));
            } else if (managed != null
                    && managed.isArray()
                    && managed.size() == 1
                    && managed.get(0).isObject()
                    && managed.get(0).isEmpty()) {
                // [{}] clears the record; an empty list passes validation and tells the recorder.
                ObjectMeta.of(updated).putArray("managedFields");
            }
            if (type.hasStatus()) {
                JsonNode status = existing.get("status");
                if (status == null) {
                    updated.remove("status");
                } else {
                    updated.set("status", status);
                }
            }
            type.strategy().applyDefaults(updated);
            if (!finalize) {
                type.strategy().prepareForUpdate(updated, existing);
            }
        }
        if (type.tracksGeneration()
                && (type.strategy().generationChanged(existing, updated)
                        || deletionRequested(existing, updated))) {
            ObjectMeta.of(updated).put("generation", ObjectMeta.generation(existing) + 1);
        }
        List<FieldError> errors =
                new ArrayList<>(ObjectMetaValidation.validateUpdate(type, updated, existing));
        errors.addAll(type.strategy().validateUpdate(updated, existing));
        if (!errors.isEmpty()) {
            return invalid(type, name, errors);
        }
        if (Deletion.completesOnUpdate(type, existing, updated)) {
            // The last finalizer is gone: the two-phase deletion completes with this write.
            return new WriteOutcome(
                    existing,
                    updated,
                    WriteOutcome.Answer.DELETED,
                    true,
                    WriteOutcome.ResponseView.OBJECT,
                    warnings);
        }
        return modified(existing, updated, view, warnings);
    }

    private WriteDecision patch(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp.Patch p,
            Env env) {
        if (p.type() == PatchType.APPLY_PATCH) {
            return apply(type, namespace, current, p, env);
        }
        ObjectNode existing = current.apply(p.name());
        if (existing == null) {
            return refused(ApiStatus.notFound(type.groupResource(), p.name()));
        }
        boolean scale = "scale".equals(p.subresource());
        ObjectNode base = scale ? ScaleConversion.toScale(type, existing) : existing;
        JsonNode patched =
                switch (p.type()) {
                    case JSON_PATCH -> JsonPatch.apply(base, p.patch());
                    case MERGE_PATCH -> MergePatch.apply(base, MergePatch.parse(p.patch()));
                    case STRATEGIC_MERGE_PATCH -> strategicMerge(type, scale, base, p.patch());
                    default ->
                            throw ApiStatus.unsupportedMediaType(
                                            "the body of the request was in an unknown format - "
                                                    + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                                                    + "application/strategic-merge-patch+json")
                                    .exception();
                };
        if (!(patched instanceof ObjectNode obj)) {
            return refused(ApiStatus.badRequest("the patched object is not a JSON object"));
        }
        GroupVersionKind served = scale ? ScaleConversion.GVK : type.gvk();
        if (p.type() == PatchType.STRATEGIC_MERGE_PATCH) {
            TypeMeta.resetPatched(served, obj);
        } else {
            TypeMeta.checkPatched(served, obj);
        }
        if (scale) {
            return update(type, namespace, current, p.name(), obj, p.subresource(), List.of(), env);
        }
        Pruned pruned = pruner.prune(type, obj, p.options().fieldValidation());
        return update(
                type,
                namespace,
                current,
                p.name(),
                pruned.object(),
                p.subresource(),
                pruned.warnings(),
                env);
    }

    /**
     * Server-side apply: the configuration (with its unknown fields handled per fieldValidation) is
     * merged into the object, or creates it when absent, then takes the ordinary update or create
     * path.
     */
    private WriteDecision apply(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp.Patch p,
            Env env) {
        ObjectNode config = ApplyPatches.config(type, p);
        boolean status = "status".equals(p.subresource());
        Pruned pruned =
                status
                        ? new Pruned(config, List.of())
                        : pruner.pruneAppliedConfiguration(
                                type, config, p.options().fieldValidation());
        ObjectNode existing = current.apply(p.name());
        if (existing == null) {
            if (p.subresource() != null) {
                return refused(ApiStatus.notFound(type.groupResource(), p.name()));
            }
            ApplyPatches.Merge merged =
                    ApplyPatches.apply(type, null, pruned.object(), p, env.now());
            if (merged instanceof ApplyPatches.Conflicted conflicted) {
                return conflicted.refusal();
            }
            ObjectNode created = encoded(type, (ApplyPatches.Applied) merged);
            return withWarnings(create(type, namespace, current, created, env), pruned.warnings());
        }
        ApplyPatches.Merge merged =
                ApplyPatches.apply(type, existing, pruned.object(), p, env.now());
        if (merged instanceof ApplyPatches.Conflicted conflicted) {
            return conflicted.refusal();
        }
        ObjectNode applied = encoded(type, (ApplyPatches.Applied) merged);
        WriteDecision decision =
                update(
                        type,
                        namespace,
                        current,
                        p.name(),
                        applied,
                        p.subresource(),
                        pruned.warnings(),
                        env);
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
        return modified(existing, after, out.view(), out.warnings());
    }

    /** The object stays, changed to {@code after} or, when equal to {@code existing}, untouched. */
    private static WriteOutcome modified(
            ObjectNode existing,
            ObjectNode after,
            WriteOutcome.ResponseView view,
            List<String> warnings) {
        boolean changed = !after.equals(existing);
        return new WriteOutcome(
                existing,
                changed ? after : existing,
                changed ? WriteOutcome.Answer.UPDATED : WriteOutcome.Answer.UNCHANGED,
                changed,
                view,
                warnings);
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
     * A strategic merge patch, merged by the type's declared merge metadata; a kind without it (a
     * custom resource) answers 415 as kube-apiserver does.
     */
    private static ObjectNode strategicMerge(
            ResourceType type, boolean scale, ObjectNode base, byte[] patch) {
        ProtoSchema schema = ProtoSchema.builtin();
        String message =
                scale
                        ? "autoscaling.v1.Scale"
                        : ProtoKinds.message(
                                schema,
                                type.gvk().group(),
                                type.gvk().version(),
                                type.gvk().kind());
        if (message == null) {
            throw ApiStatus.unsupportedMediaType(
                            "the body of the request was in an unknown format - accepted media "
                                    + "types include: application/json-patch+json, application/merge-patch+json")
                    .exception();
        }
        return new StrategicMergePatch(MergeMetadata.builtin())
                .apply(base, MergePatch.parse(patch), message);
    }

    private static WriteDecision delete(
            ResourceType type, Function<String, ObjectNode> current, WriteOp.Delete d, Env env) {
        return Deletion.execute(type, current, d, env.now());
    }

    private static WriteDecision withWarnings(WriteDecision d, List<String> warnings) {
        if (warnings.isEmpty() || !(d instanceof WriteOutcome o)) {
            return d;
        }
        List<String> all = new ArrayList<>(warnings);
        all.addAll(o.warnings());
        return o.withWarnings(all);
    }

    /**
     * A namespaced object takes the request's namespace; a different one in the body is refused.
     */
    public static void checkNamespace(
            ResourceType type, String namespace, ObjectNode obj, boolean create) {
        ObjectNode meta = ObjectMeta.of(obj);
        String bodyNs = ObjectMeta.namespace(obj);
        if (type.namespaced()) {
            if (bodyNs == null || bodyNs.isEmpty()) {
                meta.put("namespace", namespace);
            } else if (!bodyNs.equals(namespace)) {
                throw ApiStatus.badRequest(
                                create
                                        ? "the namespace of the provided object does not match the namespace sent on the request"
                                        : "the namespace of the object ("
                                                + bodyNs
                                                + ") does not match the namespace on the request ("
                                                + namespace
                                                + ")")
                        .exception();
            }
        } else {
            meta.remove("namespace");
        }
    }

    /**
     * The request handler's check of an update or patch: the body names the URL's object (an absent
     * name is taken from the URL) and no other namespace than the request's.
     */
    private static void checkName(String urlName, String namespace, ObjectNode obj) {
        String name = ObjectMeta.name(obj);
        if (name == null) {
            name = "";
        }
        if (!name.equals(urlName)) {
            throw ApiStatus.badRequest(
                            "the name of the object ("
                                    + name
                                    + ") does not match the name on the URL ("
                                    + urlName
                                    + ")")
                    .exception();
        }
        String bodyNs = ObjectMeta.namespace(obj);
        if (namespace != null
                && !namespace.isEmpty()
                && bodyNs != null
                && !bodyNs.isEmpty()
                && !bodyNs.equals(namespace)) {
            throw ApiStatus.badRequest(
                            "the namespace of the object ("
                                    + bodyNs
                                    + ") does not match the namespace on the request ("
                                    + namespace
                                    + ")")
                    .exception();
        }
    }

    /**
     * The refusal when the body names another resourceVersion than the stored one; null when it may
     * go on.
     */
    private static ApiStatus resourceVersionPrecondition(
            ResourceType type, String name, ObjectNode incoming, ObjectNode existing) {
        String want = ObjectMeta.resourceVersion(incoming);
        if (want != null && !want.isEmpty() && !want.equals(ObjectMeta.resourceVersion(existing))) {
            return ApiStatus.staleResourceVersion(type.groupResource(), name);
        }
        return null;
    }

    /**
     * The refusal when the body names another uid than the stored one; null when it may go on.
     * {@code existing} is {@code null} when the update would create the object: its uid is empty.
     */
    private static ApiStatus uidPrecondition(
            ResourceType type, String name, ObjectNode incoming, ObjectNode existing) {
        String want = ObjectMeta.uid(incoming);
        String have =
                existing == null || ObjectMeta.uid(existing) == null
                        ? ""
                        : ObjectMeta.uid(existing);
        if (want != null && !want.isEmpty() && !want.equals(have)) {
            return ApiStatus.conflict(
                    type.groupResource(),
                    name,
                    "Precondition failed: UID in precondition: "
                            + want
                            + ", UID in object meta: "
                            + have);
        }
        return null;
    }

    /**
     * Fields only the server sets are carried over from the stored object, whatever the client
     * sent.
     */
    private static void copySystemFields(ObjectNode from, ObjectNode to) {
        ObjectNode src = ObjectMeta.of(from);
        ObjectNode dst = ObjectMeta.of(to);
        for (String f :
                List.of(
                        "uid",
                        "creationTimestamp",
                        "generation",
                        "deletionTimestamp",
                        "deletionGracePeriodSeconds",
                        "resourceVersion")) {
            JsonNode v = src.get(f);
            if (v == null) {
                dst.remove(f);
            } else {
                dst.set(f, v);
            }
        }
        dst.remove("selfLink");
    }

    private static boolean deletionRequested(ObjectNode before, ObjectNode after) {
        return !isTerminating(before) && isTerminating(after);
    }

    private static boolean isTerminating(ObjectNode obj) {
        return Deletion.terminating(obj);
    }

    private static WriteResult.Refused invalid(
            ResourceType type, String name, List<FieldError> errors) {
        return refused(ApiStatus.invalid(type.group(), type.kind(), name, errors));
    }

    static WriteResult.Refused refused(ApiStatus status) {
        return new WriteResult.Refused(status);
    }
}
