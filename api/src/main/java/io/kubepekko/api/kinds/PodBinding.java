package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.Map;

/**
 * {@code POST pods/{name}/binding}: a scheduler's assignment of a pod to a node, as
 * kube-apiserver's {@code BindingREST} makes it ({@code setPodNodeAndMetadata}). The pod must be
 * unassigned, not being deleted and free of scheduling gates; it then gets the node, the binding's
 * annotations and labels (overwriting its own), no nominated node, and a {@code PodScheduled=True}
 * condition. The binding's uid and resourceVersion are preconditions on the pod.
 *
 * <p>Kubernetes 1.35 defaults: {@code ClearingNominatedNodeNameAfterBinding} and {@code
 * PodTopologyLabelsAdmission} are on (the labels copy; the admission plugin that adds a node's
 * topology labels to the binding is not run here).
 */
final class PodBinding implements SubresourceCreate {

    static final PodBinding INSTANCE = new PodBinding();

    private static final GroupVersionKind BINDING = new GroupVersionKind("", "v1", "Binding");

    /**
     * What refusals name: the subresource, as {@code assignPod} wraps them in a conflict on {@code
     * pods/binding}.
     */
    private static final GroupResource PODS_BINDING = new GroupResource("", "pods/binding");

    private PodBinding() {}

    @Override
    public GroupVersionKind bodyKind() {
        return BINDING;
    }

    @Override
    public List<FieldError> validate(ObjectNode body) {
        return BindingStrategy.validate(body);
    }

    @Override
    public boolean takesPreconditionsFromBody() {
        return true;
    }

    @Override
    public ObjectNode apply(ObjectNode pod, ObjectNode binding, String now) {
        String name = ObjectMeta.name(pod);
        if (ObjectMeta.of(pod).hasNonNull("deletionTimestamp")) {
            throw refused(name, "pod " + name + " is being deleted, cannot be assigned to a host");
        }
        ObjectNode spec = Nodes.obj(pod, "spec");
        String assigned = Nodes.text(spec, "nodeName");
        if (!assigned.isEmpty()) {
            throw refused(
                    name,
                    "pod " + name + " is already assigned to node " + FieldError.quote(assigned));
        }
        if (!Nodes.items(spec, "schedulingGates").isEmpty()) {
            throw refused(name, "pod " + name + " has non-empty .spec.schedulingGates");
        }
        spec.put("nodeName", Nodes.text(binding.path("target"), "name"));
        ObjectNode status = Nodes.obj(pod, "status");
        status.remove("nominatedNodeName");
        copyInto(pod, binding, "annotations");
        copyInto(pod, binding, "labels");
        markScheduled(status, now);
        return pod;
    }

    /**
     * The binding's entries of metadata map {@code field} set on the pod, replacing the pod's own.
     */
    private static void copyInto(ObjectNode pod, ObjectNode binding, String field) {
        Map<String, String> entries = Nodes.stringMap(binding.path("metadata").path(field));
        if (entries.isEmpty()) {
            return;
        }
        ObjectNode target = Nodes.obj(ObjectMeta.of(pod), field);
        entries.forEach(target::put);
    }

    /**
     * Kubernetes' {@code UpdatePodCondition} with {@code PodScheduled=True}: the condition replaces
     * any earlier one of its type whole (its reason and message go), and keeps that one's
     * transition time when it was already true.
     */
    private static void markScheduled(ObjectNode status, String now) {
        ArrayNode conditions = Nodes.arr(status, "conditions");
        ObjectNode scheduled = Nodes.F.objectNode();
        scheduled.put("type", "PodScheduled");
        scheduled.put("status", "True");
        scheduled.putNull("lastProbeTime");
        scheduled.put("lastTransitionTime", now);
        for (int i = 0; i < conditions.size(); i++) {
            JsonNode old = conditions.get(i);
            if ("PodScheduled".equals(Nodes.text(old, "type"))) {
                if ("True".equals(Nodes.text(old, "status"))) {
                    scheduled.set(
                            "lastTransitionTime",
                            old.hasNonNull("lastTransitionTime")
                                    ? old.get("lastTransitionTime")
                                    : Nodes.F.nullNode());
                }
                conditions.set(i, scheduled);
                return;
            }
        }
        conditions.add(scheduled);
    }

    private static ApiException refused(String name, String why) {
        return ApiStatus.conflict(PODS_BINDING, name, why).exception();
    }
}
