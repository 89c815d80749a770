package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * PersistentVolumeClaims: access modes and a positive storage request; the spec is immutable except
 * the storage request and binding ({@code volumeName} from unset); phase Pending on create.
 */
public final class PersistentVolumeClaimStrategy implements Strategy {

    static final String IMMUTABLE_SPEC =
            "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public void applyDefaults(ObjectNode obj) {
        Nodes.defaultText(Nodes.obj(obj, "spec"), "volumeMode", "Filesystem");
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs =
                new ArrayList<>(
                        PersistentVolumeStrategy.accessModes(
                                spec, SPEC, "at least 1 access mode is required"));
        FieldPath storagePath = SPEC.child("resources").key("storage");
        JsonNode storage = Nodes.at(spec, "resources", "requests", "storage");
        if (storage.isMissingNode() || storage.isNull()) {
            errs.add(FieldError.required(storagePath.toString(), ""));
        } else {
            BigDecimal q = FieldChecks.quantity(storage.asText(), storagePath, errs);
            if (q != null && q.signum() == 0) {
                errs.add(
                        FieldError.invalid(
                                storagePath.toString(),
                                storage.asText(),
                                "must be greater than zero"));
            }
        }
        errs.addAll(PersistentVolumeStrategy.volumeMode(spec, SPEC));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        ObjectNode now = specWithoutMutableFields(obj.path("spec"), old.path("spec"));
        ObjectNode before = specWithoutMutableFields(old.path("spec"), old.path("spec"));
        if (!now.equals(before)) {
            errs.add(FieldError.forbidden(SPEC.toString(), IMMUTABLE_SPEC));
        }
        return errs;
    }

    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode().put("phase", "Pending");
    }

    private static ObjectNode specWithoutMutableFields(JsonNode spec, JsonNode oldSpec) {
        ObjectNode copy = spec.isObject() ? ((ObjectNode) spec).deepCopy() : Nodes.F.objectNode();
        if (copy.get("resources") instanceof ObjectNode r) {
            r.remove("requests");
            if (r.isEmpty()) {
                copy.remove("resources");
            }
        }
        copy.remove("volumeAttributesClassName");
        if (Nodes.text(oldSpec, "volumeName").isEmpty()) {
            copy.remove("volumeName");
        }
        return copy;
    }
}
