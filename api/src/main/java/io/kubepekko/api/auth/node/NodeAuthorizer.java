package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.auth.rbac.BootstrapPolicy;
import io.kubepekko.api.auth.rbac.PolicyRule;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * kube's Node authorizer ({@code --authorization-mode=Node}): what a kubelet may do. A request from
 * a user that is not a node ({@link NodeIdentifier}) gets no opinion. For a node, secrets, config
 * maps, claims, volumes, service accounts and their tokens, and resource slices are allowed only
 * when the {@link NodeGraph} relates the object to that node; its own Node, Lease and CSINode by
 * name; pods as kube's selector-aware rules; everything else by the static rules of the {@code
 * system:node} ClusterRole (kube's {@code NodeRules}). Like kube it never denies: a refusal is a no
 * opinion with kube's reason, so a later RBAC binding may still allow.
 *
 * <p>Writes kube leaves to the NodeRestriction admission plugin (a node updating another node's
 * status or another node's pod) are allowed here, as in kube.
 */
public final class NodeAuthorizer implements Authorizer {

    /** kube's namespace of node heartbeat leases. */
    public static final String NODE_LEASE_NAMESPACE = "kube-node-lease";

    private static final String CORE = "";
    private static final String STORAGE = "storage.k8s.io";
    private static final String RESOURCE = "resource.k8s.io";
    private static final String COORDINATION = "coordination.k8s.io";
    private static final String NODE_NAME_FIELD = "spec.nodeName";

    private final NodeGraph graph;
    private final List<PolicyRule> nodeRules;

    /**
     * @param graph the relations of pods and their objects to nodes, kept current by a feeder
     * @param nodeRules the static rules for resources the graph does not subdivide
     */
    public NodeAuthorizer(NodeGraph graph, List<PolicyRule> nodeRules) {
        this.graph = Objects.requireNonNull(graph, "graph");
        this.nodeRules = List.copyOf(nodeRules);
    }

    /** An authorizer with kube's static node rules: the {@code system:node} ClusterRole's. */
    public static NodeAuthorizer of(NodeGraph graph) {
        return new NodeAuthorizer(graph, defaultNodeRules());
    }

    /** The rules of the bootstrap {@code system:node} ClusterRole, which are kube's NodeRules. */
    public static List<PolicyRule> defaultNodeRules() {
        for (ObjectNode role : BootstrapPolicy.defaults().clusterRoles()) {
            if (role.path("metadata").path("name").asText("").equals("system:node")) {
                return PolicyRule.listFromJson(role.path("rules"));
            }
        }
        throw new IllegalStateException("the bootstrap policy has no system:node ClusterRole");
    }

    @Override
    public Decision authorize(AuthorizationAttributes a) {
        Optional<String> identity = NodeIdentifier.nodeName(a.user());
        if (identity.isEmpty()) {
            return Decision.noOpinion("");
        }
        String node = identity.get();
        if (node.isEmpty()) {
            return Decision.noOpinion("unknown node for user " + FieldError.quote(a.user().name()));
        }
        if (a.resourceRequest()) {
            Decision d = subdivided(node, a);
            if (d != null) {
                return d;
            }
        }
        for (PolicyRule rule : nodeRules) {
            if (rule.allows(a)) {
                return Decision.allow("");
            }
        }
        return Decision.noOpinion("");
    }

    /** The decision for a resource the node authorizer subdivides; null for any other. */
    private Decision subdivided(String node, AuthorizationAttributes a) {
        String group = a.apiGroup();
        String resource = a.resource();
        if (group.equals(CORE)) {
            return switch (resource) {
                case "secrets" -> readNamespaced(node, GraphObject.SECRET, a);
                case "configmaps" -> readNamespaced(node, GraphObject.CONFIG_MAP, a);
                case "persistentvolumeclaims" ->
                        a.subresource().equals("status")
                                ? statusUpdate(node, GraphObject.PERSISTENT_VOLUME_CLAIM, a)
                                : get(node, GraphObject.PERSISTENT_VOLUME_CLAIM, a);
                case "persistentvolumes" -> get(node, GraphObject.PERSISTENT_VOLUME, a);
                case "serviceaccounts" -> serviceAccount(node, a);
                case "nodes" -> nodes(node, a);
                case "pods" -> pods(node, a);
                default -> null;
            };
        }
        if (group.equals(STORAGE) && resource.equals("volumeattachments")) {
            return get(node, GraphObject.VOLUME_ATTACHMENT, a);
        }
        if (group.equals(STORAGE) && resource.equals("csinodes")) {
            return csiNode(node, a);
        }
        if (group.equals(RESOURCE) && resource.equals("resourceclaims")) {
            return get(node, GraphObject.RESOURCE_CLAIM, a);
        }
        if (group.equals(RESOURCE) && resource.equals("resourceslices")) {
            return resourceSlice(node, a);
        }
        if (group.equals(COORDINATION) && resource.equals("leases")) {
            return lease(node, a);
        }
        return null;
    }

    private Decision statusUpdate(String node, GraphObject type, AuthorizationAttributes a) {
        if (!a.verb().equals("update") && !a.verb().equals("patch")) {
            return Decision.noOpinion("can only get/update/patch this type");
        }
        if (!a.subresource().equals("status")) {
            return Decision.noOpinion("can only update status subresource");
        }
        return related(node, type, a);
    }

    private Decision get(String node, GraphObject type, AuthorizationAttributes a) {
        if (!a.verb().equals("get")) {
            return Decision.noOpinion("can only get individual resources of this type");
        }
        if (!a.subresource().isEmpty()) {
            return Decision.noOpinion("cannot get subresource");
        }
        return related(node, type, a);
    }

    /**
     * Secrets and config maps: get, and list or watch of one object by name (a kubelet watches each
     * secret it mounts through a {@code metadata.name} field selector, which the request's
     * attributes carry as the name).
     */
    private Decision readNamespaced(String node, GraphObject type, AuthorizationAttributes a) {
        switch (a.verb()) {
            case "get", "list", "watch" -> {}
            default -> {
                return Decision.noOpinion("can only read resources of this type");
            }
        }
        if (!a.subresource().isEmpty()) {
            return Decision.noOpinion("cannot read subresource");
        }
        if (a.namespace().isEmpty()) {
            return Decision.noOpinion("can only read namespaced object of this type");
        }
        return related(node, type, a);
    }

    private Decision related(String node, GraphObject type, AuthorizationAttributes a) {
        if (a.name().isEmpty()) {
            return Decision.noOpinion("No Object name found");
        }
        if (!graph.reaches(node, new ObjectRef(type, a.namespace(), a.name()))) {
            return noRelationship(node);
        }
        return Decision.allow("");
    }

    /**
     * A ServiceAccount a pod on the node runs as: the kubelet may get it (kube 1.34's default
     * KubeletServiceAccountTokenForCredentialProviders: it passes the account's annotations to
     * image credential providers) and create tokens for it; nothing else.
     */
    private Decision serviceAccount(String node, AuthorizationAttributes a) {
        if (a.verb().equals("get") && a.subresource().isEmpty()) {
            return readNamespaced(node, GraphObject.SERVICE_ACCOUNT, a);
        }
        return createToken(node, a);
    }

    private Decision createToken(String node, AuthorizationAttributes a) {
        if (!a.verb().equals("create") || a.name().isEmpty()) {
            return Decision.noOpinion("can only create tokens for individual service accounts");
        }
        if (!a.subresource().equals("token")) {
            return Decision.noOpinion("can only create token subresource of serviceaccount");
        }
        if (!graph.reaches(
                node, new ObjectRef(GraphObject.SERVICE_ACCOUNT, a.namespace(), a.name()))) {
            return noRelationship(node);
        }
        return Decision.allow("");
    }

    /**
     * A kubelet may read only its own Node (by name, so before it exists too) and may create,
     * update and patch Nodes and their status: which Node is left to admission, as in kube.
     */
    private static Decision nodes(String node, AuthorizationAttributes a) {
        String verb = a.verb();
        if (a.subresource().isEmpty()) {
            switch (verb) {
                case "create", "update", "patch" -> {
                    return Decision.allow("");
                }
                case "get", "list", "watch" -> {
                    if (a.name().equals(node)) {
                        return Decision.allow("");
                    }
                    if (a.name().isEmpty()) {
                        return Decision.noOpinion(
                                "node '"
                                        + node
                                        + "' cannot read all nodes, only its own Node object");
                    }
                    return Decision.noOpinion(
                            "node '"
                                    + node
                                    + "' cannot read '"
                                    + a.name()
                                    + "', only its own Node object");
                }
                default -> {
                    return Decision.noOpinion("");
                }
            }
        }
        if (a.subresource().equals("status") && (verb.equals("update") || verb.equals("patch"))) {
            return Decision.allow("");
        }
        return Decision.noOpinion("");
    }

    private Decision pods(String node, AuthorizationAttributes a) {
        String verb = a.verb();
        switch (a.subresource()) {
            case "" -> {
                switch (verb) {
                    case "get" -> {
                        return get(node, GraphObject.POD, a);
                    }
                    case "list", "watch" -> {
                        if (selects(a.fieldSelector(), NODE_NAME_FIELD, node)) {
                            return Decision.allow("");
                        }
                        if (!a.name().isEmpty()) {
                            return related(node, GraphObject.POD, a);
                        }
                        return Decision.noOpinion(
                                "can only list/watch pods with spec.nodeName field selector");
                    }
                    case "create", "delete" -> {
                        // mirror pods; admission limits them to pods bound to this node
                        return Decision.allow("");
                    }
                    default -> {
                        return Decision.noOpinion("");
                    }
                }
            }
            case "status" -> {
                if (verb.equals("update") || verb.equals("patch")) {
                    return Decision.allow("");
                }
            }
            case "eviction" -> {
                if (verb.equals("create")) {
                    return Decision.allow("");
                }
            }
            default -> {}
        }
        return Decision.noOpinion("");
    }

    private static Decision lease(String node, AuthorizationAttributes a) {
        String verb = a.verb();
        switch (verb) {
            case "get", "create", "update", "patch", "delete" -> {}
            default -> {
                return Decision.noOpinion(
                        "can only get, create, update, patch, or delete a node lease");
            }
        }
        if (!a.namespace().equals(NODE_LEASE_NAMESPACE)) {
            return Decision.noOpinion(
                    "can only access leases in the \""
                            + NODE_LEASE_NAMESPACE
                            + "\" system namespace");
        }
        // a create carries no name; admission checks it
        if (!verb.equals("create") && !a.name().equals(node)) {
            return Decision.noOpinion(
                    "can only access node lease with the same name as the requesting node");
        }
        return Decision.allow("");
    }

    private static Decision csiNode(String node, AuthorizationAttributes a) {
        String verb = a.verb();
        switch (verb) {
            case "get", "create", "update", "patch", "delete" -> {}
            default -> {
                return Decision.noOpinion(
                        "can only get, create, update, patch, or delete a CSINode");
            }
        }
        if (!a.subresource().isEmpty()) {
            return Decision.noOpinion("cannot authorize CSINode subresources");
        }
        if (!verb.equals("create") && !a.name().equals(node)) {
            return Decision.noOpinion(
                    "can only access CSINode with the same name as the requesting node");
        }
        return Decision.allow("");
    }

    private Decision resourceSlice(String node, AuthorizationAttributes a) {
        if (!a.subresource().isEmpty()) {
            return Decision.noOpinion("cannot authorize ResourceSlice subresources");
        }
        return switch (a.verb()) {
            case "create" -> Decision.allow("");
            case "get", "update", "patch", "delete" -> related(node, GraphObject.RESOURCE_SLICE, a);
            case "watch", "list", "deletecollection" ->
                    selects(a.fieldSelector(), NODE_NAME_FIELD, node)
                            ? Decision.allow("")
                            : Decision.noOpinion(
                                    "can only list/watch/deletecollection resourceslices with nodeName field selector");
            default ->
                    Decision.noOpinion(
                            "only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection");
        };
    }

    /**
     * Whether the selector requires {@code field} to equal {@code value} (kube: an Equals term).
     */
    private static boolean selects(FieldSelector selector, String field, String value) {
        for (FieldSelector.Term t : selector.terms()) {
            if (!t.negated() && t.label().equals(field) && t.value().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static Decision noRelationship(String node) {
        return Decision.noOpinion(
                "no relationship found between node '" + node + "' and this object");
    }
}
