package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * kube's policy-based RBAC storage ({@code pkg/registry/rbac/*}/policybased) as an admission of
 * writes: a create or update of a Role or ClusterRole must grant only rules the user holds (and a
 * ClusterRole's aggregationRule, set before or after, needs every right), and a create or update of
 * a RoleBinding or ClusterRoleBinding must bind a role whose rules the user holds, unless the user
 * is in {@code system:masters} or may {@code escalate} the role / {@code bind} the referenced role.
 * An update that changes only what the garbage collector writes (owner references, finalizers) is
 * let through, as kube's storage does. Deletes and every other resource are admitted.
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

    /** Whether writes of {@code resource} are checked at all: the four RBAC resources. */
    public static boolean concerns(GroupResource resource) {
        return resource.group().equals(RBAC_GROUP)
                && switch (resource.resource()) {
                    case "roles", "clusterroles", "rolebindings", "clusterrolebindings" -> true;
                    default -> false;
                };
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest request) {
        // kube wraps the storage of the objects themselves, for their creates and updates.
        if (!concerns(request.resource())
                || !request.subresource().isEmpty()
                || request.operation() == Operation.DELETE
                || request.object() == null
                || Escalation.escalationAllowed(request.user())) {
            return Optional.empty();
        }
        return switch (request.resource().resource()) {
            case "roles", "clusterroles" -> roleRefusal(request);
            default -> bindingRefusal(request);
        };
    }

    private Optional<ApiStatus> roleRefusal(AdmissionRequest r) {
        UserInfo user = r.user();
        GroupResource resource = r.resource();
        String ns = r.namespace();
        if (Escalation.roleEscalationAuthorized(authorizer, user, resource.resource(), ns, r.name())
                || onlyGarbageCollection(r)) {
            return Optional.empty();
        }
        UserRules held = policy.get().rulesFor(user, ns);
        List<PolicyRule> requested = PolicyRule.listFromJson(r.object().path("rules"));
        Optional<String> escalates = Escalation.confirmNoEscalation(user, held, requested);
        if (escalates.isPresent()) {
            return Optional.of(ApiStatus.forbidden(resource, r.name(), escalates.get()));
        }
        // An aggregationRule gathers anything and, set before, keeps a role from being narrowed.
        if (resource.resource().equals("clusterroles")
                && (aggregates(r.object()) || aggregates(r.oldObject()))
                && Escalation.confirmNoEscalation(user, held, FULL_AUTHORITY).isPresent()) {
            return Optional.of(
                    ApiStatus.forbidden(
                            resource,
                            r.name(),
                            "must have cluster-admin privileges to use the aggregationRule"));
        }
        return Optional.empty();
    }

    private Optional<ApiStatus> bindingRefusal(AdmissionRequest r) {
        if (onlyGarbageCollection(r)) {
            return Optional.empty();
        }
        UserInfo user = r.user();
        GroupResource resource = r.resource();
        String ns = r.namespace();
        RoleRef ref;
        try {
            ref = RoleRef.fromJson(r.object().path("roleRef"));
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
            return Optional.of(ApiStatus.forbidden(resource, r.name(), why));
        }
        return Escalation.confirmNoEscalation(user, current.rulesFor(user, ns), role.rules())
                .map(why -> ApiStatus.forbidden(resource, r.name(), why));
    }

    /** kube's {@code IsOnlyMutatingGCFields} exemption, which only an update can have. */
    private static boolean onlyGarbageCollection(AdmissionRequest r) {
        return r.operation() == Operation.UPDATE
                && GarbageCollectionFields.onlyThoseChange(r.object(), r.oldObject());
    }

    /** kube's {@code hasAggregationRule}: an aggregationRule with at least one selector. */
    private static boolean aggregates(ObjectNode clusterRole) {
        if (clusterRole == null) {
            return false;
        }
        JsonNode selectors = clusterRole.path("aggregationRule").path("clusterRoleSelectors");
        return selectors.isArray() && !selectors.isEmpty();
    }

    private static String referencedResource(RoleRef ref) {
        return ref.kind().equals(RoleRef.CLUSTER_ROLE) ? "clusterroles" : "roles";
    }
}
