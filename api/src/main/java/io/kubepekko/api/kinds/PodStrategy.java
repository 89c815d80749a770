package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.DeletionRules;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * Pods: pod-spec defaults and validation, the narrow set of spec fields an update may change, the
 * initial status {@code {"phase":"Pending","qosClass":...}}, and binding to a node ({@link
 * PodBinding}).
 */
public final class PodStrategy implements Strategy {

    static final String UPDATABLE_FIELDS =
            "`spec.containers[*].image`,`spec.initContainers[*].image`,"
                    + "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"
                    + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

    private static final FieldPath SPEC = FieldPath.of("spec");

    private static final DeletionRules DELETION = new PodDeletion();

    @Override
    public DeletionRules deletion() {
        return DELETION;
    }

    @Override
    public SubresourceCreate subresourceCreate(String name) {
        return name.equals("binding") ? PodBinding.INSTANCE : null;
    }

    @Override
    public void applyDefaults(ObjectNode obj) {
        PodDefaults.defaultPodSpec(Nodes.obj(obj, "spec"));
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs =
                new ArrayList<>(PodSpecValidation.validatePodSpec(obj.path("spec"), SPEC, true));
        JsonNode spec = obj.path("spec");
        if (!Nodes.items(spec, "ephemeralContainers").isEmpty()) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("ephemeralContainers").toString(),
                            "cannot be set on create"));
        }
        if (!Nodes.text(spec, "nodeName").isEmpty()
                && !Nodes.items(spec, "schedulingGates").isEmpty()) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("nodeName").toString(),
                            "cannot be set until all schedulingGates have been cleared"));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs =
                new ArrayList<>(PodSpecValidation.validatePodSpec(obj.path("spec"), SPEC, true));
        JsonNode spec = obj.path("spec");
        JsonNode oldSpec = old.path("spec");
        for (String list : new String[] {"containers", "initContainers"}) {
            if (Nodes.items(spec, list).size() != Nodes.items(oldSpec, list).size()) {
                errs.add(
                        FieldError.forbidden(
                                SPEC.child(list).toString(),
                                "pod updates may not add or remove containers"));
                return errs;
            }
        }
        errs.addAll(activeDeadlineUpdate(spec, oldSpec));
        if (!mungedForComparison(spec, oldSpec).equals(oldSpec)) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.toString(),
                            "pod updates may not change fields other than " + UPDATABLE_FIELDS));
        }
        return errs;
    }

    /**
     * {@code {"phase":"Pending","qosClass":...}}: what Kubernetes sets in {@code PrepareForCreate}.
     */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        ObjectNode status = Nodes.F.objectNode();
        status.put("phase", "Pending");
        status.put("qosClass", PodQos.of(obj.path("spec")));
        return status;
    }

    private static List<FieldError> activeDeadlineUpdate(JsonNode spec, JsonNode oldSpec) {
        String path = SPEC.child("activeDeadlineSeconds").toString();
        if (Nodes.has(spec, "activeDeadlineSeconds")) {
            long now = spec.get("activeDeadlineSeconds").asLong();
            if (Nodes.has(oldSpec, "activeDeadlineSeconds")
                    && oldSpec.get("activeDeadlineSeconds").asLong() < now) {
                return List.of(
                        FieldError.invalid(
                                path, now, "must be less than or equal to previous value"));
            }
        } else if (Nodes.has(oldSpec, "activeDeadlineSeconds")) {
            return List.of(
                    FieldError.invalid(
                            path, null, "must not update from a positive integer to nil value"));
        }
        return List.of();
    }

    /** The new spec with every updatable field reset to its old value, for an equality check. */
    private static JsonNode mungedForComparison(JsonNode spec, JsonNode oldSpec) {
        ObjectNode munged = spec.isObject() ? ((ObjectNode) spec).deepCopy() : Nodes.F.objectNode();
        for (String list : new String[] {"containers", "initContainers"}) {
            JsonNode cs = munged.get(list);
            if (cs instanceof ArrayNode arr) {
                for (int i = 0; i < arr.size(); i++) {
                    if (arr.get(i) instanceof ObjectNode c) {
                        JsonNode oldImage = Nodes.at(oldSpec, list).path(i).get("image");
                        if (oldImage == null) {
                            c.remove("image");
                        } else {
                            c.set("image", oldImage);
                        }
                    }
                }
            }
        }
        restore(munged, oldSpec, "activeDeadlineSeconds");
        restore(munged, oldSpec, "tolerations");
        restore(munged, oldSpec, "schedulingGates");
        long oldGrace = oldSpec.path("terminationGracePeriodSeconds").asLong(0);
        if (oldGrace < 0 && munged.path("terminationGracePeriodSeconds").asLong(0) == 1) {
            restore(munged, oldSpec, "terminationGracePeriodSeconds");
        }
        return munged;
    }

    private static void restore(ObjectNode munged, JsonNode oldSpec, String field) {
        if (oldSpec.has(field)) {
            munged.set(field, oldSpec.get(field));
        } else {
            munged.remove(field);
        }
    }
}
