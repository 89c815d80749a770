package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.WriteAdmission;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * kube's policy-based RBAC storage ({@code pkg/registry/rbac/*}/policybased): a write of a Role or
 * ClusterRole must grant only rules the user holds, and a write of a RoleBinding or
 * ClusterRoleBinding must bind a role whose rules the user holds, unless the user is in {@code
 * system:masters} or may {@code escalate} the role / {@code bind} the referenced role. Every other
 * resource is admitted.
 */
public final class EscalationCheck implements WriteAdmission {

    static final String RBAC_GROUP = "rbac.authorization.k8s.io";

    /** kube's {@code fullAuthority}: what a ClusterRole with an aggregationRule needs. */
    private static final List<PolicyRule> FULL_AUTHORITY =
            List.of(
                    PolicyRule.resources(
                            List.of(PolicyRule.ALL),
                            List.of(PolicyRule.ALL),
                            List.of(PolicyRule.ALL),
                            List.of()),
                    PolicyRule.nonResource(List.of(PolicyRule.ALL), List.of(PolicyRule.ALL)));

    private final Authorizer authorizer;
    private final Supplier<RbacPolicy> policy;

    /**
     * @param authorizer the server's authorizer chain (asked for {@code escalate} and {@code bind})
     * @param policy the current RBAC snapshot (the rules users hold and roles reference)
     */
    public EscalationCheck(Authorizer authorizer, Supplier<RbacPolicy> policy) {
        this.authorizer = authorizer;
        this.policy = policy;
    }

    @Override
    public boolean concerns(GroupResource resource) {
        return resource.group().equals(RBAC_GROUP)
                && switch (resource.resource()) {
                    case "roles", "clusterroles", "rolebindings", "clusterrolebindings" -> true;
                    default -> false;
                };
    }

    @Override
    public Optional<ApiStatus> refusal(
            UserInfo user, GroupResource resource, String namespace, ObjectNode object) {
        if (!concerns(resource) || Escalation.escalationAllowed(user)) {
            return Optional.empty();
        }
        String ns = namespace == null ? "" : namespace;
        String name = nameOf(object);
        return switch (resource.resource()) {
            case "roles", "clusterroles" -> roleRefusal(user, resource, ns, name, object);
            case "rolebindings", "clusterrolebindings" ->
                    bindingRefusal(user, resource, ns, name, object);
            default -> Optional.empty();
        };
    }

    private Optional<ApiStatus> roleRefusal(
            UserInfo user, GroupResource resource, String ns, String name, ObjectNode object) {
        if (Escalation.roleEscalationAuthorized(authorizer, user, resource.resource(), ns, name)) {
            return Optional.empty();
        }
        RbacPolicy current = policy.get();
        if (resource.resource().equals("clusterroles")
                && object.path("aggregationRule").isObject()) {
            if (Escalation.confirmNoEscalation(user, current.rulesFor(user, ns), FULL_AUTHORITY)
                    .isPresent()) {
                return Optional.of(
                        ApiStatus.forbidden(
                                resource,
                                name,
                                "must have cluster-admin privileges to use the aggregationRule"));
            }
        }
        List<PolicyRule> requested = PolicyRule.listFromJson(object.path("rules"));
        return Escalation.confirmNoEscalation(user, current.rulesFor(user, ns), requested)
                .map(why -> ApiStatus.forbidden(resource, name, why));
    }

    private Optional<ApiStatus> bindingRefusal(
            UserInfo user, GroupResource resource, String ns, String name, ObjectNode object) {
        RoleRef ref;
        try {
            ref = RoleRef.fromJson(object.path("roleRef"));
        } catch (RuntimeException e) {
            // validation answers a malformed roleRef with its own 422
            return Optional.empty();
        }
        if (Escalation.bindingAuthorized(authorizer, user, ref, ns)) {
            return Optional.empty();
        }
        RbacPolicy current = policy.get();
        RbacRole role =
                switch (ref.kind()) {
                    case RoleRef.CLUSTER_ROLE -> current.clusterRole(ref.name());
                    case RoleRef.ROLE -> current.role(ns, ref.name());
                    default -> null;
                };
        if (role == null) {
            // kube's GetRoleReferenceRules: the role getter's NotFound, as the reason of a 403
            String why =
                    ref.kind().equals(RoleRef.CLUSTER_ROLE) || ref.kind().equals(RoleRef.ROLE)
                            ? new GroupResource(RBAC_GROUP, referencedResource(ref))
                                    + " "
                                    + FieldError.quote(ref.name())
                                    + " not found"
                            : "unsupported role reference kind: " + FieldError.quote(ref.kind());
            return Optional.of(ApiStatus.forbidden(resource, name, why));
        }
        return Escalation.confirmNoEscalation(user, current.rulesFor(user, ns), role.rules())
                .map(why -> ApiStatus.forbidden(resource, name, why));
    }

    private static String nameOf(ObjectNode object) {
        String name = ObjectMeta.name(object);
        return name == null ? "" : name;
    }

    private static String referencedResource(RoleRef ref) {
        return ref.kind().equals(RoleRef.CLUSTER_ROLE) ? "clusterroles" : "roles";
    }
}
