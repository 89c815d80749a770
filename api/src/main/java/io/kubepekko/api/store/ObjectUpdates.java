package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The update step of {@link ObjectWrites}, which a patch and an apply end in too: preconditions
 * (uid, resourceVersion), the part written (the object, its status, its scale, a namespace's
 * finalizers), system fields carried over, mutating admission, generation, refusing admission,
 * validation, and whether the write changes anything or completes a deletion.
 */
final class ObjectUpdates {
    private ObjectUpdates() {}

    static WriteDecision update(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            String name,
            ObjectNode incoming,
            String subresource,
            List<String> warnings,
            ObjectWrites.Env env,
            AdmissionStep admit) {
        // PUT bodies were checked with the handler's wording already; a patched object gets the
        // storage's.
        Optional<ApiStatus> misaddressed =
                BodyIdentity.placeInNamespace(type, namespace, incoming, true)
                        .or(() -> BodyIdentity.namesUrlObject(name, null, incoming));
        if (misaddressed.isPresent()) {
            return ObjectWrites.refused(misaddressed.get());
        }
        ObjectNode existing = current.apply(name);
        if (existing == null) {
            if (type.allowCreateOnUpdate() && subresource == null) {
                // The uid precondition is checked against the absent object; the resourceVersion is
                // dropped, as storage does for a create through update.
                ApiStatus uidMismatch = uidPrecondition(type, name, incoming, null);
                if (uidMismatch != null) {
                    return ObjectWrites.refused(uidMismatch);
                }
                ObjectMeta.of(incoming).remove("resourceVersion");
                return ObjectWrites.withWarnings(
                        ObjectCreates.create(type, namespace, current, incoming, env, admit),
                        warnings);
            }
            return ObjectWrites.refused(ApiStatus.notFound(type.groupResource(), name));
        }
        // Storage checks the uid precondition before the update function compares resourceVersions.
        ApiStatus stale = uidPrecondition(type, name, incoming, existing);
        if (stale == null) {
            stale = resourceVersionPrecondition(type, name, incoming, existing);
        }
        if (stale != null) {
            return ObjectWrites.refused(stale);
        }
        WriteOutcome.ResponseView view = WriteOutcome.ResponseView.OBJECT;
        ObjectNode updated;
        boolean prepare = false;
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
            prepare = !finalize;
        }
        // kube's update handler runs the mutating admission plugins on the updated object, before
        // the store prepares and validates it.
        Mutation mutation = admit.mutation(Operation.UPDATE, existing, updated);
        if (mutation instanceof Mutation.Refused refusal) {
            return ObjectWrites.refused(refusal.status());
        }
        updated = ((Mutation.Admitted) mutation).object();
        if (prepare) {
            type.strategy().prepareForUpdate(updated, existing);
        }
        if (type.tracksGeneration()
                && (type.strategy().generationChanged(existing, updated)
                        || deletionRequested(existing, updated))) {
            ObjectMeta.of(updated).put("generation", ObjectMeta.generation(existing) + 1);
        }
        Optional<ApiStatus> refused = admit.refusal(Operation.UPDATE, existing, updated);
        if (refused.isPresent()) {
            return ObjectWrites.refused(refused.get());
        }
        List<FieldError> errors =
                new ArrayList<>(ObjectMetaValidation.validateUpdate(type, updated, existing));
        errors.addAll(type.strategy().validateUpdate(updated, existing));
        if (!errors.isEmpty()) {
            return ObjectWrites.invalid(type, name, errors);
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

    /** The object stays, changed to {@code after} or, when equal to {@code existing}, untouched. */
    static WriteOutcome modified(
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
}
