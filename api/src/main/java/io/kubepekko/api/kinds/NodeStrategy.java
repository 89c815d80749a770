package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Nodes: pod CIDRs and taints; podCIDR and providerID may only go from unset to set. Status is kept
 * on create.
 */
public final class NodeStrategy implements Strategy {

    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        if (!Nodes.text(spec, "podCIDR").isEmpty()) {
            errs.addAll(IpAddresses.cidr(Nodes.text(spec, "podCIDR"), SPEC.child("podCIDR")));
        }
        List<String> cidrs = Nodes.strings(spec, "podCIDRs");
        for (int i = 0; i < cidrs.size(); i++) {
            errs.addAll(IpAddresses.cidr(cidrs.get(i), SPEC.child("podCIDRs").index(i)));
        }
        errs.addAll(taints(Nodes.items(spec, "taints"), SPEC.child("taints")));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        JsonNode spec = obj.path("spec");
        JsonNode oldSpec = old.path("spec");
        if (!Nodes.items(oldSpec, "podCIDRs").isEmpty()
                && !Nodes.same(spec.get("podCIDRs"), oldSpec.get("podCIDRs"))) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("podCIDRs").toString(),
                            "node updates may not change podCIDR except from \"\" to valid"));
        }
        String oldProvider = Nodes.text(oldSpec, "providerID");
        if (!oldProvider.isEmpty() && !oldProvider.equals(Nodes.text(spec, "providerID"))) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("providerID").toString(),
                            "node updates may not change providerID except from \"\" to valid"));
        }
        return errs;
    }

    /** Nodes register with their status (the agent sends it), so create keeps what was sent. */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        JsonNode status = obj.get("status");
        return status != null && status.isObject() ? status.deepCopy() : null;
    }

    static List<FieldError> taints(List<JsonNode> taints, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < taints.size(); i++) {
            JsonNode t = taints.get(i);
            FieldPath idx = path.index(i);
            errs.addAll(LabelValidation.labelKey(Nodes.text(t, "key"), idx.child("key")));
            String value = Nodes.text(t, "value");
            NameValidation.labelValue(value)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    idx.child("value").toString(), value, m)));
            errs.addAll(FieldChecks.enumField(t, "effect", PodSpecValidation.TAINT_EFFECTS, idx));
            String effect = Nodes.text(t, "effect");
            if (!seen.add(Nodes.text(t, "key") + "\u0000" + effect)) {
                errs.add(
                        FieldError.invalid(
                                idx.child("effect").toString(),
                                effect,
                                "taints must be unique by key and effect pair"));
            }
        }
        return errs;
    }
}
