package io.kubepekko.api.store;

import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldManagerValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * Options every write carries.
 *
 * @param dryRun run every stage but persistence ({@code dryRun=All})
 * @param fieldManager the manager name recorded for this write (may be null: derived later)
 * @param fieldValidation what a body's unknown and duplicate fields do
 * @param apiVersion the served version the request addressed, in which its body or patch is
 *     written, when it is not the kind's storage version (events.k8s.io/v1 for core/v1 Events);
 *     null for a write in the storage version
 * @param managersRecorded the body of this create or update carries the managedFields its request
 *     recorded already, which are stored as they are and no manager is recorded again: the store of
 *     what mutating webhooks made of a request's dry run, since kube's field manager records a
 *     write before mutating admission, and the fields the webhooks set are nobody's
 */
public record WriteOptions(
        boolean dryRun,
        String fieldManager,
        FieldValidation fieldValidation,
        String apiVersion,
        boolean managersRecorded) {
    public static final WriteOptions DEFAULT = new WriteOptions(false, null, FieldValidation.WARN);

    /** Options of a write in the kind's storage version. */
    public WriteOptions(boolean dryRun, String fieldManager, FieldValidation fieldValidation) {
        this(dryRun, fieldManager, fieldValidation, null);
    }

    /** Options of a write whose managers are recorded by the write itself. */
    public WriteOptions(
            boolean dryRun,
            String fieldManager,
            FieldValidation fieldValidation,
            String apiVersion) {
        this(dryRun, fieldManager, fieldValidation, apiVersion, false);
    }

    /**
     * These options for a write made through the served version {@code apiVersion}; null for the
     * storage version.
     */
    public WriteOptions inVersion(String apiVersion) {
        return new WriteOptions(
                dryRun, fieldManager, fieldValidation, apiVersion, managersRecorded);
    }

    /** These options for the store of a body whose managedFields were recorded already. */
    public WriteOptions withManagersRecorded() {
        return new WriteOptions(dryRun, fieldManager, fieldValidation, apiVersion, true);
    }

    /**
     * The options of a create, update or patch request, validated as kube-apiserver's {@code
     * Validate{Create,Update,Patch}Options} do before the body is read: every problem, in kube's
     * order, in one 422 on {@code <optionsKind>.meta.k8s.io}.
     *
     * @param optionsKind {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}
     * @param leading problems a patch's options have first (force, or the apply's missing manager)
     * @param fieldManager as the client gave it, or null; empty counts as not given
     * @param dryRun every {@code dryRun} value, in the client's order
     * @param fieldValidation as the client gave it, or null
     */
    public static WriteOptions parse(
            String optionsKind,
            List<FieldError> leading,
            String fieldManager,
            List<String> dryRun,
            String fieldValidation) {
        List<FieldError> errors = new ArrayList<>(leading);
        errors.addAll(FieldManagerValidation.validate(fieldManager));
        errors.addAll(DryRun.errors(dryRun));
        errors.addAll(FieldValidation.errors(fieldValidation));
        if (!errors.isEmpty()) {
            throw ApiStatus.invalid("meta.k8s.io", optionsKind, "", errors).exception();
        }
        return new WriteOptions(
                !dryRun.isEmpty(),
                fieldManager == null || fieldManager.isEmpty() ? null : fieldManager,
                FieldValidation.parse(fieldValidation, optionsKind));
    }
}
