package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.DeletionRules;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Namespaces: the {@code kubernetes} finalizer in {@code spec.finalizers} and phase {@code Active}
 * from creation; finalizer names validated; {@code spec.finalizers} kept by main-resource writes;
 * the namespace lifecycle on delete ({@link NamespaceDeletion}).
 */
public final class NamespaceStrategy implements Strategy {

    static final String KUBERNETES_FINALIZER = "kubernetes";
    private static final Set<String> STANDARD_FINALIZERS =
            Set.of("kubernetes", "orphan", "foregroundDeletion");

    /**
     * Kubernetes adds the {@code kubernetes} finalizer on create only (its {@code
     * PrepareForCreate}); the namespace controller removes it through {@code /finalize} while the
     * namespace terminates.
     */
    @Override
    public void prepareForCreate(ObjectNode obj) {
        ensureKubernetesFinalizer(obj);
    }

    /**
     * A write of the main resource keeps {@code spec.finalizers} (only {@code /finalize} changes
     * them) and the status (only {@code /status} changes it), as Kubernetes' namespace strategy
     * does.
     */
    @Override
    public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
        JsonNode finalizers = old.path("spec").get("finalizers");
        ObjectNode spec = Nodes.obj(obj, "spec");
        if (finalizers == null) {
            spec.remove("finalizers");
        } else {
            spec.set("finalizers", finalizers.deepCopy());
        }
        if (spec.isEmpty() && !old.has("spec")) {
            obj.remove("spec");
        }
    }

    @Override
    public DeletionRules deletion() {
        return DELETION;
    }

    private static final DeletionRules DELETION = new NamespaceDeletion();

    static void ensureKubernetesFinalizer(ObjectNode obj) {
        ArrayNode finalizers = Nodes.arr(Nodes.obj(obj, "spec"), "finalizers");
        for (JsonNode f : finalizers) {
            if (f.asText().equals(KUBERNETES_FINALIZER)) {
                return;
            }
        }
        finalizers.add(KUBERNETES_FINALIZER);
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
                errs.add(
                        FieldError.invalid(
                                path,
                                f,
                                "name is neither a standard finalizer name nor is it fully qualified"));
            }
        }
        return errs;
    }

    /**
     * {@code ValidateNamespace} again: a main-resource update keeps the stored finalizers, so this
     * only ever refuses names a {@code /finalize} write brings.
     */
    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        return validateCreate(obj);
    }

    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode().put("phase", "Active");
    }
}
