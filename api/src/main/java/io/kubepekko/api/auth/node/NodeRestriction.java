package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * kube's NodeRestriction admission plugin, the half of node security the {@link NodeAuthorizer}
 * leaves out because it needs the objects: a kubelet may write only its own Node (not its taints or
 * config source), its own Lease, the status of pods bound to it, evictions and deletions of those
 * pods, mirror pods of itself that reference nothing, and tokens bound to its pods. Requests of
 * users that are not nodes pass untouched.
 *
 * <p>Not covered yet: kube's node-label policy (which {@code kubernetes.io} labels a kubelet may
 * set), PVC status, CSINode, ResourceSlice and CSR checks, and the token-audience restriction.
 */
public final class NodeRestriction {

    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final GroupResource NODES = new GroupResource("", "nodes");
    private static final GroupResource SERVICE_ACCOUNTS = new GroupResource("", "serviceaccounts");
    private static final GroupResource LEASES = new GroupResource("coordination.k8s.io", "leases");

    /** kube's admission operations a node's writes have. */
    public enum Operation {
        CREATE,
        UPDATE,
        DELETE
    }

    /**
     * One write as admission sees it.
     *
     * @param user who writes
     * @param operation create, update (patches included) or delete
     * @param resource the resource written
     * @param subresource its subresource, empty when none
     * @param namespace the namespace, empty for cluster-scoped resources
     * @param name the object's name: from the path, or from the body on a create
     * @param object the new object (the body: Pod, Node, Lease, Eviction, TokenRequest); null on a
     *     delete
     * @param oldObject the stored object an update replaces; null on a create or delete
     */
    public record Request(
            UserInfo user,
            Operation operation,
            GroupResource resource,
            String subresource,
            String namespace,
            String name,
            JsonNode object,
            JsonNode oldObject) {

        public Request {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(resource, "resource");
            subresource = subresource == null ? "" : subresource;
            namespace = namespace == null ? "" : namespace;
            name = name == null ? "" : name;
            object = object == null ? MissingNode.getInstance() : object;
            oldObject = oldObject == null ? MissingNode.getInstance() : oldObject;
        }
    }

    /** Reads the stored pods and nodes admission consults (a cache is fine, as kube's lister). */
    public interface Lookup {
        Optional<JsonNode> pod(String namespace, String name);

        Optional<JsonNode> node(String name);
    }

    private NodeRestriction() {}

    /** The refusal of {@code r}, empty when admission lets it through. */
    public static Optional<ApiStatus> admit(Request r, Lookup lookup) {
        Optional<String> identity = NodeIdentifier.nodeName(r.user());
        if (identity.isEmpty()) {
            return Optional.empty();
        }
        String node = identity.get();
        if (node.isEmpty()) {
            return forbidden(r, "could not determine node from user " + quote(r.user().name()));
        }
        if (r.resource().equals(PODS)) {
            return switch (r.subresource()) {
                case "" -> pod(node, r, lookup);
                case "status" -> podStatus(node, r);
                case "eviction" -> eviction(node, r, lookup);
                default ->
                        forbidden(
                                r,
                                "unexpected pod subresource "
                                        + quote(r.subresource())
                                        + ", only 'status' and 'eviction' are allowed");
            };
        }
        if (r.resource().equals(NODES)) {
            return node(node, r);
        }
        if (r.resource().equals(SERVICE_ACCOUNTS)) {
            return token(node, r, lookup);
        }
        if (r.resource().equals(LEASES)) {
            return lease(node, r);
        }
        return Optional.empty();
    }

    private static Optional<ApiStatus> pod(String node, Request r, Lookup lookup) {
        switch (r.operation()) {
            case CREATE -> {
                return mirrorPod(node, r, lookup);
            }
            case DELETE -> {
                Optional<JsonNode> existing = lookup.pod(r.namespace(), r.name());
                if (existing.isEmpty()) {
                    return Optional.of(ApiStatus.notFound(PODS, r.name()));
                }
                if (!nodeNameOf(existing.get()).equals(node)) {
                    return forbidden(
                            r,
                            "node "
                                    + quote(node)
                                    + " can only delete pods with spec.nodeName set to itself");
                }
                return Optional.empty();
            }
            default -> {
                return forbidden(
                        r,
                        "unexpected operation "
                                + quote(r.operation().name())
                                + ", node "
                                + quote(node)
                                + " can only create and delete mirror pods");
            }
        }
    }

    /** A kubelet creates only mirror pods of itself, owned by its Node, referencing nothing. */
    private static Optional<ApiStatus> mirrorPod(String node, Request r, Lookup lookup) {
        JsonNode pod = r.object();
        String n = quote(node);
        if (!PodReferences.isMirror(pod)) {
            return forbidden(
                    r,
                    "pod does not have "
                            + quote(PodReferences.MIRROR_ANNOTATION)
                            + " annotation, node "
                            + n
                            + " can only create mirror pods");
        }
        if (!nodeNameOf(pod).equals(node)) {
            return forbidden(
                    r, "node " + n + " can only create pods with spec.nodeName set to itself");
        }
        JsonNode owners = pod.path("metadata").path("ownerReferences");
        if (owners.size() > 1) {
            return forbidden(
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
            return forbidden(
                    r, "node " + n + " can only create pods with an owner reference set to itself");
        }
        if (!owner.path("controller").asBoolean(false)) {
            return forbidden(
                    r,
                    "node "
                            + n
                            + " can only create pods with a controller owner reference set to itself");
        }
        if (owner.path("blockOwnerDeletion").asBoolean(false)) {
            return forbidden(
                    r, "node " + n + " must not set blockOwnerDeletion on an owner reference");
        }
        Optional<JsonNode> self = lookup.node(node);
        if (self.isEmpty()) {
            return Optional.of(ApiStatus.notFound(NODES, node));
        }
        String ownerUid = owner.path("uid").asText("");
        String nodeUid = self.get().path("metadata").path("uid").asText("");
        if (!ownerUid.equals(nodeUid)) {
            return forbidden(
                    r, "node " + node + " UID mismatch: expected " + ownerUid + " got " + nodeUid);
        }
        if (!pod.path("spec").path("serviceAccountName").asText("").isEmpty()) {
            return forbidden(
                    r, "node " + n + " can not create pods that reference a service account");
        }
        Set<ObjectRef> refs = PodReferences.all(pod);
        if (refs.stream().anyMatch(ref -> ref.type() == GraphObject.SECRET)) {
            return forbidden(r, "node " + n + " can not create pods that reference secrets");
        }
        if (refs.stream().anyMatch(ref -> ref.type() == GraphObject.CONFIG_MAP)) {
            return forbidden(r, "node " + n + " can not create pods that reference configmaps");
        }
        for (JsonNode v : pod.path("spec").path("volumes")) {
            for (JsonNode source : v.path("projected").path("sources")) {
                if (source.has("clusterTrustBundle")) {
                    return forbidden(
                            r,
                            "node "
                                    + n
                                    + " can not create pods that reference clustertrustbundles");
                }
            }
        }
        for (JsonNode v : pod.path("spec").path("volumes")) {
            if (v.has("persistentVolumeClaim")) {
                return forbidden(
                        r,
                        "node " + n + " can not create pods that reference persistentvolumeclaims");
            }
        }
        return Optional.empty();
    }

    private static Optional<ApiStatus> podStatus(String node, Request r) {
        if (r.operation() != Operation.UPDATE) {
            return forbidden(r, "unexpected operation " + quote(r.operation().name()));
        }
        if (!nodeNameOf(r.oldObject()).equals(node)) {
            return forbidden(
                    r,
                    "node "
                            + quote(node)
                            + " can only update pod status for pods with spec.nodeName set to itself");
        }
        if (!labels(r.oldObject()).equals(labels(r.object()))) {
            return forbidden(r, "node " + quote(node) + " cannot update labels through pod status");
        }
        // kube's message spells "statues"
        if (!claimStatuses(r.oldObject()).equals(claimStatuses(r.object()))) {
            return forbidden(r, "node " + quote(node) + " cannot update resource claim statues");
        }
        return Optional.empty();
    }

    private static Optional<ApiStatus> eviction(String node, Request r, Lookup lookup) {
        if (r.operation() != Operation.CREATE) {
            return forbidden(r, "unexpected operation " + r.operation().name());
        }
        String podName = r.name();
        if (podName.isEmpty()) {
            podName = r.object().path("metadata").path("name").asText("");
            if (podName.isEmpty()) {
                return forbidden(r, "could not determine pod from request data");
            }
        }
        Optional<JsonNode> existing = lookup.pod(r.namespace(), podName);
        if (existing.isEmpty()) {
            return Optional.of(ApiStatus.notFound(PODS, podName));
        }
        if (!nodeNameOf(existing.get()).equals(node)) {
            return forbidden(
                    r, "node " + node + " can only evict pods with spec.nodeName set to itself");
        }
        return Optional.empty();
    }

    private static Optional<ApiStatus> node(String node, Request r) {
        if (!r.name().equals(node)) {
            return forbidden(
                    r, "node " + quote(node) + " is not allowed to modify node " + quote(r.name()));
        }
        JsonNode spec = r.object().path("spec");
        if (r.operation() == Operation.CREATE && hasValue(spec.path("configSource"))) {
            return forbidden(
                    r,
                    "node "
                            + quote(node)
                            + " is not allowed to create pods with a non-nil configSource");
        }
        if (r.operation() == Operation.UPDATE) {
            JsonNode old = r.oldObject().path("spec");
            if (hasValue(spec.path("configSource"))
                    && !spec.path("configSource").equals(old.path("configSource"))) {
                return forbidden(
                        r,
                        "node "
                                + quote(node)
                                + " is not allowed to update configSource to a new non-nil"
                                + " configSource");
            }
            if (!emptyIfAbsent(spec.path("taints")).equals(emptyIfAbsent(old.path("taints")))) {
                return forbidden(r, "node " + quote(node) + " is not allowed to modify taints");
            }
        }
        return Optional.empty();
    }

    /** A node asks tokens only bound to a pod of its own, named with the pod's current uid. */
    private static Optional<ApiStatus> token(String node, Request r, Lookup lookup) {
        if (r.operation() != Operation.CREATE || !r.subresource().equals("token")) {
            return Optional.empty();
        }
        JsonNode ref = r.object().path("spec").path("boundObjectRef");
        String podName = ref.path("name").asText("");
        if (!ref.path("apiVersion").asText("").equals("v1")
                || !ref.path("kind").asText("").equals("Pod")
                || podName.isEmpty()) {
            return forbidden(r, "node requested token not bound to a pod");
        }
        String uid = ref.path("uid").asText("");
        if (uid.isEmpty()) {
            return forbidden(r, "node requested token with a pod binding without a uid");
        }
        Optional<JsonNode> pod = lookup.pod(r.namespace(), podName);
        if (pod.isEmpty()) {
            return Optional.of(ApiStatus.notFound(PODS, podName));
        }
        if (!pod.get().path("metadata").path("uid").asText("").equals(uid)) {
            return forbidden(
                    r,
                    "the UID in the bound object reference ("
                            + uid
                            + ") does not match the UID in record. The object might have been"
                            + " deleted and then recreated");
        }
        if (!nodeNameOf(pod.get()).equals(node)) {
            return forbidden(
                    r, "node requested token bound to a pod scheduled on a different node");
        }
        return Optional.empty();
    }

    private static Optional<ApiStatus> lease(String node, Request r) {
        if (!r.namespace().equals(NodeAuthorizer.NODE_LEASE_NAMESPACE)) {
            return forbidden(
                    r,
                    "can only access leases in the "
                            + quote(NodeAuthorizer.NODE_LEASE_NAMESPACE)
                            + " system namespace");
        }
        String name =
                r.operation() == Operation.CREATE
                        ? r.object().path("metadata").path("name").asText("")
                        : r.name();
        if (!name.equals(node)) {
            return forbidden(
                    r, "can only access node lease with the same name as the requesting node");
        }
        return Optional.empty();
    }

    private static String nodeNameOf(JsonNode pod) {
        return pod.path("spec").path("nodeName").asText("");
    }

    private static JsonNode labels(JsonNode obj) {
        return emptyIfAbsent(obj.path("metadata").path("labels"));
    }

    private static JsonNode claimStatuses(JsonNode pod) {
        return emptyIfAbsent(pod.path("status").path("resourceClaimStatuses"));
    }

    /** Absent, null and empty compare equal, as Go's nil and empty maps and slices do. */
    private static JsonNode emptyIfAbsent(JsonNode n) {
        return n.isMissingNode() || n.isNull() || n.isEmpty() ? MissingNode.getInstance() : n;
    }

    private static boolean hasValue(JsonNode n) {
        return !n.isMissingNode() && !n.isNull();
    }

    /** Go's %q of a plain string. */
    private static String quote(String s) {
        return FieldError.quote(s);
    }

    private static Optional<ApiStatus> forbidden(Request r, String why) {
        return Optional.of(ApiStatus.forbidden(r.resource(), r.name(), why));
    }
}
