package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.meta.SemanticJson;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;
import java.util.Set;

/**
 * {@link NodeRestriction}'s rules for pods: a node creates only mirror pods of itself that
 * reference nothing, deletes and evicts only pods bound to it, and writes only their status (not
 * their labels, nor their resource-claim statuses).
 */
final class PodRestriction {
    private final NodeRestriction.Lookup lookup;

    PodRestriction(NodeRestriction.Lookup lookup) {
        this.lookup = lookup;
    }

    Optional<ApiStatus> pod(String node, AdmissionRequest r) {
        switch (r.operation()) {
            case CREATE -> {
                return mirrorPod(node, r);
            }
            case DELETE -> {
                // kube reads the pod from its informer; the stored one is at hand here.
                Optional<String> bound =
                        r.oldObject() != null
                                ? Optional.of(NodeRestriction.nodeNameOf(r.oldObject()))
                                : lookup.pod(r.namespace(), r.name())
                                        .map(NodeRestriction.Lookup.Pod::nodeName);
                if (bound.isEmpty()) {
                    return Optional.of(ApiStatus.notFound(NodeRestriction.POD_LISTER, r.name()));
                }
                if (!bound.get().equals(node)) {
                    return NodeRestriction.forbidden(
                            r,
                            "node "
                                    + NodeRestriction.quote(node)
                                    + " can only delete pods with spec.nodeName set to itself");
                }
                return Optional.empty();
            }
            default -> {
                return NodeRestriction.forbidden(
                        r,
                        "unexpected operation "
                                + NodeRestriction.quote(r.operation().name())
                                + ", node "
                                + NodeRestriction.quote(node)
                                + " can only create and delete mirror pods");
            }
        }
    }

    /** A kubelet creates only mirror pods of itself, owned by its Node, referencing nothing. */
    private Optional<ApiStatus> mirrorPod(String node, AdmissionRequest r) {
        JsonNode pod = NodeRestriction.objectOf(r);
        String n = NodeRestriction.quote(node);
        if (!PodReferences.isMirror(pod)) {
            return NodeRestriction.forbidden(
                    r,
                    "pod does not have "
                            + NodeRestriction.quote(PodReferences.MIRROR_ANNOTATION)
                            + " annotation, node "
                            + n
                            + " can only create mirror pods");
        }
        if (!NodeRestriction.nodeNameOf(pod).equals(node)) {
            return NodeRestriction.forbidden(
                    r, "node " + n + " can only create pods with spec.nodeName set to itself");
        }
        JsonNode owners = pod.path("metadata").path("ownerReferences");
        if (owners.size() > 1) {
            return NodeRestriction.forbidden(
                    r,
                    "node "
                            + n
                            + " can only create pods with a single owner reference set to itself");
        }
        JsonNode owner = owners.path(0);
        if (owners.size() == 0
                || !owner.path("apiVersion").asText("").equals("v1")
                || !owner.path("kind").asText("").equals("Node")
                || !owner.path("name").asText("").equals(node)) {
            return NodeRestriction.forbidden(
                    r, "node " + n + " can only create pods with an owner reference set to itself");
        }
        if (!owner.path("controller").asBoolean(false)) {
            return NodeRestriction.forbidden(
                    r,
                    "node "
                            + n
                            + " can only create pods with a controller owner reference set to itself");
        }
        if (owner.path("blockOwnerDeletion").asBoolean(false)) {
            return NodeRestriction.forbidden(
                    r, "node " + n + " must not set blockOwnerDeletion on an owner reference");
        }
        Optional<String> nodeUid = lookup.nodeUid(node);
        if (nodeUid.isEmpty()) {
            return Optional.of(ApiStatus.notFound(NodeRestriction.NODE_LISTER, node));
        }
        String ownerUid = owner.path("uid").asText("");
        if (!ownerUid.equals(nodeUid.get())) {
            return NodeRestriction.forbidden(
                    r,
                    "node "
                            + node
                            + " UID mismatch: expected "
                            + ownerUid
                            + " got "
                            + nodeUid.get());
        }
        return unreferencing(n, r, pod);
    }

    /** kube lets a node create no pod that would give it access to other objects. */
    private static Optional<ApiStatus> unreferencing(String n, AdmissionRequest r, JsonNode pod) {
        if (!pod.path("spec").path("serviceAccountName").asText("").isEmpty()) {
            return NodeRestriction.forbidden(
                    r, "node " + n + " can not create pods that reference a service account");
        }
        Set<ObjectRef> refs = PodReferences.all(pod);
        if (refs.stream().anyMatch(ref -> ref.type() == GraphObject.SECRET)) {
            return NodeRestriction.forbidden(
                    r, "node " + n + " can not create pods that reference secrets");
        }
        if (refs.stream().anyMatch(ref -> ref.type() == GraphObject.CONFIG_MAP)) {
            return NodeRestriction.forbidden(
                    r, "node " + n + " can not create pods that reference configmaps");
        }
        for (JsonNode v : pod.path("spec").path("volumes")) {
            for (JsonNode source : v.path("projected").path("sources")) {
                if (source.has("clusterTrustBundle")) {
                    return NodeRestriction.forbidden(
                            r,
                            "node "
                                    + n
                                    + " can not create pods that reference clustertrustbundles");
                }
            }
        }
        for (JsonNode v : pod.path("spec").path("volumes")) {
            if (v.has("persistentVolumeClaim")) {
                return NodeRestriction.forbidden(
                        r,
                        "node " + n + " can not create pods that reference persistentvolumeclaims");
            }
        }
        return Optional.empty();
    }

    static Optional<ApiStatus> podStatus(String node, AdmissionRequest r) {
        if (r.operation() != Operation.UPDATE) {
            return NodeRestriction.forbidden(
                    r, "unexpected operation " + NodeRestriction.quote(r.operation().name()));
        }
        JsonNode old = NodeRestriction.oldObjectOf(r);
        if (!NodeRestriction.nodeNameOf(old).equals(node)) {
            return NodeRestriction.forbidden(
                    r,
                    "node "
                            + NodeRestriction.quote(node)
                            + " can only update pod status for pods with spec.nodeName set to itself");
        }
        JsonNode now = NodeRestriction.objectOf(r);
        if (!SemanticJson.equal(
                old.path("metadata").path("labels"), now.path("metadata").path("labels"))) {
            return NodeRestriction.forbidden(
                    r,
                    "node "
                            + NodeRestriction.quote(node)
                            + " cannot update labels through pod status");
        }
        // kube's message spells "statues"
        if (!claimStatusesEqual(
                old.path("status").path("resourceClaimStatuses"),
                now.path("status").path("resourceClaimStatuses"))) {
            return NodeRestriction.forbidden(
                    r,
                    "node "
                            + NodeRestriction.quote(node)
                            + " cannot update resource claim statues");
        }
        return Optional.empty();
    }

    /** kube's {@code resourceClaimStatusesEqual}: the same names and claim names, in order. */
    private static boolean claimStatusesEqual(JsonNode a, JsonNode b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            JsonNode x = a.get(i);
            JsonNode y = b.get(i);
            if (!x.path("name").asText("").equals(y.path("name").asText(""))) {
                return false;
            }
            JsonNode claimX = x.path("resourceClaimName");
            JsonNode claimY = y.path("resourceClaimName");
            boolean hasX = claimX.isTextual();
            if (hasX != claimY.isTextual() || (hasX && !claimX.asText().equals(claimY.asText()))) {
                return false;
            }
        }
        return true;
    }

    Optional<ApiStatus> eviction(String node, AdmissionRequest r) {
        if (r.operation() != Operation.CREATE) {
            return NodeRestriction.forbidden(r, "unexpected operation " + r.operation().name());
        }
        String podName = r.name();
        if (podName.isEmpty()) {
            podName = NodeRestriction.objectOf(r).path("metadata").path("name").asText("");
            if (podName.isEmpty()) {
                return NodeRestriction.forbidden(r, "could not determine pod from request data");
            }
        }
        Optional<NodeRestriction.Lookup.Pod> existing = lookup.pod(r.namespace(), podName);
        if (existing.isEmpty()) {
            return Optional.of(ApiStatus.notFound(NodeRestriction.POD_LISTER, podName));
        }
        if (!existing.get().nodeName().equals(node)) {
            return NodeRestriction.forbidden(
                    r, "node " + node + " can only evict pods with spec.nodeName set to itself");
        }
        return Optional.empty();
    }
}
