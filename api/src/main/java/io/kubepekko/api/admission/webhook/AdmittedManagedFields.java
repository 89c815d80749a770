package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code metadata.managedFields} a write keeps after its mutating webhooks, as kube's {@code
 * NewManagedFieldsValidatingAdmissionController} wraps mutating admission: kube's field manager
 * records the write's manager before admission, so the fields a webhook sets are nobody's; the
 * managedFields the webhooks leave are kept when they are valid (a webhook may change them), and
 * otherwise those from before admission are restored, with a warning to the client.
 */
public final class AdmittedManagedFields {
    private AdmittedManagedFields() {}

    /** kube's {@code InvalidManagedFieldsAfterMutatingAdmissionWarningFormat}. */
    static final String WARNING =
            ".metadata.managedFields was in an invalid state after admission; this could be caused"
                    + " by an outdated mutating admission controller; please fix your requests: ";

    /**
     * What admission leaves.
     *
     * @param managedFields the managedFields to store (null: none)
     * @param warning kube's warning when the webhooks' were invalid and were reset
     */
    public record Kept(JsonNode managedFields, Optional<String> warning) {}

    /**
     * @param before the managedFields the write recorded, before the webhooks (null: none)
     * @param after the managedFields the webhooks left (null: none)
     */
    public static Kept of(JsonNode before, JsonNode after) {
        Optional<String> problem = problem(after);
        return problem.isEmpty()
                ? new Kept(after, Optional.empty())
                : new Kept(before, Optional.of(WARNING + problem.get()));
    }

    /**
     * kube's {@code ValidateManagedFields}: the entries' validation ({@code metadata.managedFields}
     * errors, in Go's aggregate form), then whether they decode (operation, apiVersion, fieldsType,
     * fieldsV1). A fieldsV1 that is not an object is refused with an approximation of Go's text.
     */
    static Optional<String> problem(JsonNode entries) {
        if (entries == null || entries.isNull()) {
            return Optional.empty();
        }
        if (!entries.isArray()) {
            return Optional.of("metadata.managedFields must be a list");
        }
        List<FieldError> errors = ObjectMetaValidation.managedFields(entries);
        if (!errors.isEmpty()) {
            return Optional.of(aggregate(errors));
        }
        for (int i = 0; i < entries.size(); i++) {
            JsonNode e = entries.get(i);
            if (e.path("apiVersion").asText("").isEmpty()) {
                return Optional.of("apiVersion must not be empty");
            }
            if (e.path("fieldsType").asText("").isEmpty()) {
                return Optional.of("missing fieldsType in managed fields entry " + i);
            }
            JsonNode fields = e.get("fieldsV1");
            if (fields != null && !fields.isNull() && !fields.isObject()) {
                return Optional.of(
                        "error decoding versioned set of managed fields entry "
                                + i
                                + ": error decoding set: fieldsV1 is not an object");
            }
        }
        return Optional.empty();
    }

    /** Go's error aggregate: one error as it is, several in brackets. */
    private static String aggregate(List<FieldError> errors) {
        List<String> texts = new ArrayList<>();
        for (FieldError e : errors) {
            String t = e.toString();
            if (!texts.contains(t)) {
                texts.add(t);
            }
        }
        return texts.size() == 1 ? texts.get(0) : "[" + String.join(", ", texts) + "]";
    }
}
