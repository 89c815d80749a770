package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.meta.SemanticJson;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.Optional;
import java.util.Set;

/**
 * kube's NodeRestriction admission plugin ({@code plugin/pkg/admission/noderestriction}), the half
 * of node security the {@link NodeAuthorizer} leaves out because it needs the objects: a kubelet
 * may write only its own Node (not its taints, its config source, nor labels outside the kubelet's
 * set), its own Lease in {@code kube-node-lease}, the status of pods bound to it and of PVCs (only
 * capacity and conditions), deletions of pods bound to it, mirror pods of itself owned by its Node
 * that reference nothing, and tokens bound to its pods. Requests of users that are not nodes pass
 * untouched. kube's messages, word for word, except a PVC's diff (kube prints go-cmp's, whose
 * format is deliberately unstable).
 *
 * <p>Not covered, because this server does not serve them: CSINode, ResourceSlice and
 * CertificateSigningRequest writes, and pod evictions are checked but never reached.
 */
public final class NodeRestriction implements WriteAdmission {

    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final GroupResource NODES = new GroupResource("", "nodes");
    private static final GroupResource PVCS = new GroupResource("", "persistentvolumeclaims");
    private static final GroupResource SERVICE_ACCOUNTS = new GroupResource("", "serviceaccounts");
    private static final GroupResource LEASES = new GroupResource("coordination.k8s.io", "leases");

    /** The resources kube's listers name in their NotFound errors (singular, as client-go's). */
    static final GroupResource POD_LISTER = new GroupResource("", "pod");

    static final GroupResource NODE_LISTER = new GroupResource("", "node");

    /**
     * The stored pods and nodes admission consults besides the write's own objects, answered from
     * memory (kube reads its informers' listers; a cache that lags is fine, as theirs).
     */
    public interface Lookup {
        /** A pod's uid and {@code spec.nodeName}. */
        record Pod(String uid, String nodeName) {}

        Optional<Pod> pod(String namespace, String name);

        /** A Node's {@code metadata.uid}. */
        Optional<String> nodeUid(String name);
    }

    private final Lookup lookup;
    private final PodRestriction pods;

    public NodeRestriction(Lookup lookup) {
        this.lookup = lookup;
        this.pods = new PodRestriction(lookup);
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest r) {
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
                case "" -> pods.pod(node, r);
                case "status" -> PodRestriction.podStatus(node, r);
                case "eviction" -> pods.eviction(node, r);
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
        if (r.resource().equals(PVCS)) {
            return r.subresource().equals("status")
                    ? pvcStatus(node, r)
                    : forbidden(r, "may only update PVC status");
        }
        if (r.resource().equals(SERVICE_ACCOUNTS)) {
            return token(node, r);
        }
        if (r.resource().equals(LEASES)) {
            return lease(node, r);
        }
        return Optional.empty();
    }

    private static Optional<ApiStatus> pvcStatus(String node, AdmissionRequest r) {
        if (r.operation() != Operation.UPDATE) {
            return forbidden(r, "unexpected operation " + quote(r.operation().name()));
        }
        JsonNode old = comparablePvc(oldObjectOf(r));
        JsonNode now = comparablePvc(objectOf(r));
        if (!SemanticJson.equal(old, now)) {
            return forbidden(
                    r,
                    "node "
                            + quote(node)
                            + " is not allowed to update fields other than status.quantity and"
                            + " status.conditions: "
                            + JsonDiff.paths(old, now));
        }
        return Optional.empty();
    }

    /**
     * A PVC without what its kubelet may change (capacity, conditions, and with kube's
     * RecoverVolumeExpansionFailure, on since 1.32, the allocated resources and their statuses) and
     * without what is not compared (resourceVersion, managedFields).
     */
    private static JsonNode comparablePvc(JsonNode pvc) {
        if (!(pvc instanceof ObjectNode o)) {
            return MissingNode.getInstance();
        }
        ObjectNode copy = o.deepCopy();
        if (copy.get("metadata") instanceof ObjectNode meta) {
            meta.remove("resourceVersion");
            meta.remove("managedFields");
        }
        if (copy.get("status") instanceof ObjectNode status) {
            status.remove("capacity");
            status.remove("conditions");
            status.remove("allocatedResourceStatuses");
            status.remove("allocatedResources");
        }
        return copy;
    }

    private static Optional<ApiStatus> node(String node, AdmissionRequest r) {
        if (!r.name().equals(node)) {
            return forbidden(
                    r, "node " + quote(node) + " is not allowed to modify node " + quote(r.name()));
        }
        JsonNode obj = objectOf(r);
        JsonNode spec = obj.path("spec");
        JsonNode labels = obj.path("metadata").path("labels");
        if (r.operation() == Operation.CREATE) {
            if (hasValue(spec.path("configSource"))) {
                // kube's message says pods
                return forbidden(
                        r,
                        "node "
                                + quote(node)
                                + " is not allowed to create pods with a non-nil configSource");
            }
            Set<String> forbidden =
                    NodeLabels.forbidden(NodeLabels.modified(labels, MissingNode.getInstance()));
            if (!forbidden.isEmpty()) {
                return forbidden(
                        r,
                        "node "
                                + quote(node)
                                + " is not allowed to set the following labels: "
                                + String.join(", ", forbidden));
            }
        }
        if (r.operation() == Operation.UPDATE) {
            JsonNode old = oldObjectOf(r);
            JsonNode oldSpec = old.path("spec");
            if (hasValue(spec.path("configSource"))
                    && !SemanticJson.equal(
                            spec.path("configSource"), oldSpec.path("configSource"))) {
                return forbidden(
                        r,
                        "node "
                                + quote(node)
                                + " is not allowed to update configSource to a new non-nil"
                                + " configSource");
            }
            if (!SemanticJson.equal(spec.path("taints"), oldSpec.path("taints"))) {
                return forbidden(r, "node " + quote(node) + " is not allowed to modify taints");
            }
            Set<String> forbidden =
                    NodeLabels.forbidden(
                            NodeLabels.modified(labels, old.path("metadata").path("labels")));
            if (!forbidden.isEmpty()) {
                // kube's message names no node here
                return forbidden(
                        r, "is not allowed to modify labels: " + String.join(", ", forbidden));
            }
        }
        return Optional.empty();
    }

    /** A node asks tokens only bound to a pod of its own, named with the pod's current uid. */
    private Optional<ApiStatus> token(String node, AdmissionRequest r) {
        if (r.operation() != Operation.CREATE || !r.subresource().equals("token")) {
            return Optional.empty();
        }
        JsonNode ref = objectOf(r).path("spec").path("boundObjectRef");
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
        Optional<Lookup.Pod> pod = lookup.pod(r.namespace(), podName);
        if (pod.isEmpty()) {
            return Optional.of(ApiStatus.notFound(POD_LISTER, podName));
        }
        if (!pod.get().uid().equals(uid)) {
            return forbidden(
                    r,
                    "the UID in the bound object reference ("
                            + uid
                            + ") does not match the UID in record. The object might have been"
                            + " deleted and then recreated");
        }
        if (!pod.get().nodeName().equals(node)) {
            return forbidden(
                    r, "node requested token bound to a pod scheduled on a different node");
        }
        return Optional.empty();
    }

    private static Optional<ApiStatus> lease(String node, AdmissionRequest r) {
        if (!r.namespace().equals(NodeAuthorizer.NODE_LEASE_NAMESPACE)) {
            return forbidden(
                    r,
                    "can only access leases in the "
                            + quote(NodeAuthorizer.NODE_LEASE_NAMESPACE)
                            + " system namespace");
        }
        String name =
                r.operation() == Operation.CREATE
                        ? objectOf(r).path("metadata").path("name").asText("")
                        : r.name();
        if (!name.equals(node)) {
            return forbidden(
                    r, "can only access node lease with the same name as the requesting node");
        }
        return Optional.empty();
    }

    static JsonNode objectOf(AdmissionRequest r) {
        return r.object() == null ? MissingNode.getInstance() : r.object();
    }

    static JsonNode oldObjectOf(AdmissionRequest r) {
        return r.oldObject() == null ? MissingNode.getInstance() : r.oldObject();
    }

    static String nodeNameOf(JsonNode pod) {
        return pod.path("spec").path("nodeName").asText("");
    }

    static boolean hasValue(JsonNode n) {
        return !n.isMissingNode() && !n.isNull();
    }

    /** Go's %q of a plain string. */
    static String quote(String s) {
        return FieldError.quote(s);
    }

    static Optional<ApiStatus> forbidden(AdmissionRequest r, String why) {
        return Optional.of(r.forbidden(why));
    }
}
