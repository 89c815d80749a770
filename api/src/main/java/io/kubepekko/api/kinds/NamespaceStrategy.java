package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Namespaces: the {@code kubernetes} finalizer in {@code spec.finalizers} and phase {@code Active}
 * from creation; finalizer names validated.
 */
final class NamespaceStrategy implements Strategy {

    static final String KUBERNETES_FINALIZER = "kubernetes";
    private static final Set<String> STANDARD_FINALIZERS = Set.of("kubernetes", "orphan", "foregroundDeletion");

    /**
     * Kubernetes adds the {@code kubernetes} finalizer on create only; the namespace controller removes
     * it through {@code /finalize} while the namespace terminates. Without a create-only hook we add it
     * when missing unless the namespace is already terminating, which has the same effect because a
     * plain update never changes {@code spec} of a live namespace.
     */
    @Override
    public void applyDefaults(ObjectNode obj) {
        if (isTerminating(obj)) {
            return;
        }
        ensureKubernetesFinalizer(obj);
    }

    static void ensureKubernetesFinalizer(ObjectNode obj) {
        ArrayNode finalizers = Nodes.arr(Nodes.obj(obj, "spec"), "finalizers");
        for (JsonNode f : finalizers) {
            if (f.asText().equals(KUBERNETES_FINALIZER)) {
                return;
            }
        }
        finalizers.add(KUBERNETES_FINALIZER);
    }

    private static boolean isTerminating(ObjectNode obj) {
        return !Nodes.text(obj.path("metadata"), "deletionTimestamp").isEmpty()
                || Nodes.text(obj.path("status"), "phase").equals("Terminating");
    }

    /** Unlike metadata.finalizers, spec.finalizers errors name the list, not the item. */
    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        String path = FieldPath.of("spec", "finalizers").toString();
        List<FieldError> errs = new ArrayList<>();
        for (String f : Nodes.strings(obj.path("spec"), "finalizers")) {
            for (String msg : NameValidation.qualifiedName(f)) {
                errs.add(FieldError.invalid(path, f, msg));
            }
            if (!f.contains("/") && !STANDARD_FINALIZERS.contains(f)) {
                errs.add(FieldError.invalid(path, f, "name is neither a standard finalizer name nor is it fully qualified"));
            }
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        return List.of();
    }

    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode().put("phase", "Active");
    }
}
