package io.kubepekko.api.admission.limitranger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.MutatingAdmission;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.status.ApiStatus;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube's LimitRanger admission plugin, over the LimitRanges of the write's namespace ({@link
 * LimitRangeIndex}). Mutating: a pod created gets, from every LimitRange in turn, the {@code
 * defaultRequest} and {@code default} of its Container item for each resource a container or init
 * container does not name, and the {@code kubernetes.io/limit-ranger} annotation saying what was
 * set ({@link ContainerDefaults}). Refusing: the pod, or a claim created or updated, is checked
 * against each LimitRange in turn ({@link LimitChecks}); the first LimitRange it breaks refuses it
 * with 403 Forbidden listing every violation of that LimitRange, as kube does.
 *
 * <p>Like kube it judges pods only on create and on their {@code resize} subresource (containers
 * cannot change otherwise), claims on create and update, no other subresource, and nothing whose
 * stored object is being deleted.
 */
public final class LimitRanger implements MutatingAdmission, WriteAdmission {

    static final GroupResource PODS = new GroupResource("", "pods");
    static final GroupResource CLAIMS = new GroupResource("", "persistentvolumeclaims");

    private final LimitRangeIndex index;

    public LimitRanger(LimitRangeIndex index) {
        this.index = index;
    }

    @Override
    public Mutation admit(AdmissionRequest request) {
        if (!judges(request) || !request.resource().equals(PODS)) {
            return new Mutation.Admitted(request.object());
        }
        ObjectNode pod = request.object();
        for (List<LimitRangeItem> items : index.inNamespace(request.namespace())) {
            pod = ContainerDefaults.apply(items, pod);
        }
        return new Mutation.Admitted(pod);
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest request) {
        if (!judges(request)) {
            return Optional.empty();
        }
        boolean pod = request.resource().equals(PODS);
        for (List<LimitRangeItem> items : index.inNamespace(request.namespace())) {
            List<String> violations =
                    pod
                            ? LimitChecks.pod(items, request.object())
                            : LimitChecks.claim(items, request.object());
            if (!violations.isEmpty()) {
                return Optional.of(request.forbidden(aggregate(violations)));
            }
        }
        return Optional.empty();
    }

    /** kube's {@code SupportsAttributes}, {@code Handles} and its skip of objects being deleted. */
    private static boolean judges(AdmissionRequest request) {
        if (request.object() == null
                || request.operation() == Operation.DELETE
                || !(request.resource().equals(PODS) || request.resource().equals(CLAIMS))) {
            return false;
        }
        boolean pod = request.resource().equals(PODS);
        if (!request.subresource().isEmpty()) {
            if (!(pod && request.subresource().equals("resize"))) {
                return false;
            }
        } else if (pod && request.operation() == Operation.UPDATE) {
            return false;
        }
        ObjectNode old = request.oldObject();
        return old == null || old.path("metadata").path("deletionTimestamp").asText("").isEmpty();
    }

    /**
     * {@code utilerrors.NewAggregate}'s message: one error as it is, several (each once) in
     * brackets.
     */
    static String aggregate(List<String> messages) {
        Set<String> distinct = new LinkedHashSet<>(messages);
        return distinct.size() == 1
                ? distinct.iterator().next()
                : "[" + String.join(", ", distinct) + "]";
    }
}
