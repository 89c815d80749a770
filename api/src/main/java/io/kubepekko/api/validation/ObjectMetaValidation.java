package io.kubepekko.api.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.FieldError;

import java.util.ArrayList;
import java.util.List;

/** Generic validation of {@code metadata} (placeholder until the validation work lands). */
public final class ObjectMetaValidation {
    private ObjectMetaValidation() {}

    public static List<FieldError> validateCreate(ResourceType type, ObjectNode obj) {
        List<FieldError> errors = new ArrayList<>();
        String name = io.kubepekko.api.meta.ObjectMeta.name(obj);
        if (name == null || name.isEmpty()) {
            errors.add(FieldError.required("metadata.name", "name or generateName is required"));
        }
        return errors;
    }

    public static List<FieldError> validateUpdate(ResourceType type, ObjectNode obj, ObjectNode old) {
        return validateCreate(type, obj);
    }
}
