package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * storage.k8s.io StorageClasses: a qualified provisioner name, bounded parameters, reclaim policy
 * and binding mode enums; provisioner, parameters, reclaimPolicy and volumeBindingMode are
 * immutable.
 */
public final class StorageClassStrategy implements Strategy {

    static final List<String> RECLAIM_POLICIES = List.of("Delete", "Retain");
    static final List<String> BINDING_MODES = List.of("Immediate", "WaitForFirstConsumer");
    private static final int MAX_PARAMETERS = 512;
    private static final int MAX_PARAMETERS_SIZE = 256 * 1024;

    @Override
    public void applyDefaults(ObjectNode obj) {
        Nodes.defaultText(obj, "reclaimPolicy", "Delete");
        Nodes.defaultText(obj, "volumeBindingMode", "Immediate");
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String provisioner = Nodes.text(obj, "provisioner");
        if (provisioner.isEmpty()) {
            errs.add(FieldError.required("provisioner", ""));
        } else {
            NameValidation.qualifiedName(NameValidation.lower(provisioner))
                    .forEach(m -> errs.add(FieldError.invalid("provisioner", provisioner, m)));
        }
        JsonNode params = obj.path("parameters");
        if (params.size() > MAX_PARAMETERS) {
            errs.add(FieldError.tooMany("parameters", params.size(), MAX_PARAMETERS));
        }
        long size = 0;
        var it = params.properties().iterator();
        while (it.hasNext()) {
            var e = it.next();
            if (e.getKey().isEmpty()) {
                errs.add(FieldError.invalid("parameters", e.getKey(), "field can not be empty."));
            }
            size +=
                    NameValidation.byteLength(e.getKey())
                            + NameValidation.byteLength(e.getValue().asText());
        }
        if (size > MAX_PARAMETERS_SIZE) {
            errs.add(FieldError.tooLong("parameters", MAX_PARAMETERS_SIZE));
        }
        errs.addAll(topLevelEnum(obj, "reclaimPolicy", RECLAIM_POLICIES));
        errs.addAll(topLevelEnum(obj, "volumeBindingMode", BINDING_MODES));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        if (!Nodes.same(obj.get("parameters"), old.get("parameters"))) {
            errs.add(FieldError.forbidden("parameters", "updates to parameters are forbidden."));
        }
        if (!Nodes.text(obj, "provisioner").equals(Nodes.text(old, "provisioner"))) {
            errs.add(FieldError.forbidden("provisioner", "updates to provisioner are forbidden."));
        }
        if (!Nodes.text(obj, "reclaimPolicy").equals(Nodes.text(old, "reclaimPolicy"))) {
            errs.add(
                    FieldError.forbidden(
                            "reclaimPolicy", "updates to reclaimPolicy are forbidden."));
        }
        String mode = Nodes.text(obj, "volumeBindingMode");
        if (!mode.equals(Nodes.text(old, "volumeBindingMode"))) {
            errs.add(FieldError.invalid("volumeBindingMode", mode, "field is immutable"));
        }
        return errs;
    }

    private static List<FieldError> topLevelEnum(
            ObjectNode obj, String field, List<String> values) {
        String v = Nodes.text(obj, field);
        if (v.isEmpty()) {
            return List.of(FieldError.required(field, ""));
        }
        return values.contains(v) ? List.of() : List.of(FieldError.notSupported(field, v, values));
    }
}
