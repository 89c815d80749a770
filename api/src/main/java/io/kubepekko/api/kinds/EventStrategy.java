package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.DeletionRules;
import io.kubepekko.api.registry.GarbageCollectionPolicy;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * core/v1 Events: the involved object's namespace must agree with the event's; "new-style" events
 * (with {@code eventTime}) also need reportingComponent, reportingInstance, action and reason.
 */
public final class EventStrategy implements Strategy {

    /** Events take part in no garbage collection: a delete never adds a GC finalizer. */
    private static final DeletionRules DELETION =
            new DeletionRules() {
                @Override
                public GarbageCollectionPolicy defaultGarbageCollectionPolicy() {
                    return GarbageCollectionPolicy.UNSUPPORTED;
                }
            };

    @Override
    public DeletionRules deletion() {
        return DELETION;
    }

    static final String NAMESPACE_MISMATCH = "does not match event.namespace";
    private static final int REPORTING_INSTANCE_MAX = 128;
    private static final int ACTION_MAX = 128;

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String namespace = Nodes.text(obj.path("metadata"), "namespace");
        String involvedNs = Nodes.text(obj.path("involvedObject"), "namespace");
        String nsPath = FieldPath.of("involvedObject", "namespace").toString();
        if (Nodes.text(obj, "eventTime").isEmpty()) {
            boolean ok =
                    involvedNs.isEmpty()
                            ? namespace.isEmpty() || namespace.equals("default")
                            : namespace.equals(involvedNs);
            if (!ok) {
                errs.add(FieldError.invalid(nsPath, involvedNs, NAMESPACE_MISMATCH));
            }
            return errs;
        }
        if (involvedNs.isEmpty()
                && !namespace.equals("default")
                && !namespace.equals("kube-system")) {
            errs.add(FieldError.invalid(nsPath, involvedNs, NAMESPACE_MISMATCH));
        }
        String controller = Nodes.text(obj, "reportingComponent");
        if (controller.isEmpty()) {
            errs.add(FieldError.required("reportingComponent", ""));
        }
        errs.addAll(LabelValidation.labelKey(controller, FieldPath.of("reportingComponent")));
        String instance = Nodes.text(obj, "reportingInstance");
        if (instance.isEmpty()) {
            errs.add(FieldError.required("reportingInstance", ""));
        } else if (instance.length() > REPORTING_INSTANCE_MAX) {
            errs.add(
                    FieldError.invalid(
                            "reportingInstance",
                            "",
                            "can have at most " + REPORTING_INSTANCE_MAX + " characters"));
        }
        String action = Nodes.text(obj, "action");
        if (action.isEmpty()) {
            errs.add(FieldError.required("action", ""));
        } else if (action.length() > ACTION_MAX) {
            errs.add(
                    FieldError.invalid(
                            "action", "", "can have at most " + ACTION_MAX + " characters"));
        }
        if (Nodes.text(obj, "reason").isEmpty()) {
            errs.add(FieldError.required("reason", ""));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        return validateCreate(obj);
    }
}
