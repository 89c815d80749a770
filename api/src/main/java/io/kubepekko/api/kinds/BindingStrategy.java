package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * Bindings (core/v1 {@code Binding}): never stored, only posted to bind a pod to a node, through
 * {@code pods/{name}/binding} or the {@code bindings} resource that forwards there ({@link
 * PodBinding}). Their only rule of their own is Kubernetes' {@code ValidatePodBinding}.
 */
public final class BindingStrategy implements Strategy {

    private static final List<String> TARGET_KINDS = List.of("Node", "<empty>");

    @Override
    public List<FieldError> validateCreate(ObjectNode binding) {
        return validate(binding);
    }

    /**
     * {@code ValidatePodBinding}: the target is a Node (an empty kind counts as one) and is named.
     * The object's metadata is not validated, as in Kubernetes.
     */
    static List<FieldError> validate(ObjectNode binding) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode target = binding.path("target");
        String kind = Nodes.text(target, "kind");
        if (!kind.isEmpty() && !kind.equals("Node")) {
            errs.add(FieldError.notSupported("target.kind", kind, TARGET_KINDS));
        }
        if (Nodes.text(target, "name").isEmpty()) {
            errs.add(FieldError.required("target.name", ""));
        }
        return errs;
    }
}
