package io.kubepekko.api.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.FieldError;

import java.util.List;

/**
 * How one kind differs from the generic write pipeline (Kubernetes' {@code rest} strategies). All
 * methods are pure; a kind that behaves generically uses {@link #GENERIC}.
 */
public interface Strategy {

    Strategy GENERIC = new Strategy() {};

    /** Fills defaults visible to clients (Service type, container imagePullPolicy…). Mutates {@code obj}. */
    default void applyDefaults(ObjectNode obj) {}

    /** Kind-specific validation of a new object, after defaulting; metadata is validated generically. */
    default List<FieldError> validateCreate(ObjectNode obj) {
        return List.of();
    }

    /** Kind-specific validation of an update (immutable fields and the like), after defaulting. */
    default List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        return validateCreate(obj);
    }

    /**
     * The status a newly created object starts with, for kinds whose status is written only through
     * the status subresource; {@code null} means "drop whatever the client sent". Pods start
     * {@code Pending}, namespaces {@code Active}.
     */
    default JsonNode initialStatus(ObjectNode obj) {
        return null;
    }
}
