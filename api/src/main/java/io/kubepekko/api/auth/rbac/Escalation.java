package io.kubepekko.api.auth.rbac;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * kube's escalation prevention for writes of roles and bindings ({@code
 * pkg/registry/rbac/escalation_check.go} and {@code ConfirmNoEscalation}): a user may create or
 * update a Role or ClusterRole only with rules they hold themselves, unless they are in {@code
 * system:masters} or may {@code escalate} the role; and may bind a role only if they hold its rules
 * or may {@code bind} it.
 */
public final class Escalation {

    private static final String RBAC_GROUP = "rbac.authorization.k8s.io";

    private Escalation() {}

    /** kube's {@code EscalationAllowed}: members of {@code system:masters} may grant anything. */
    public static boolean escalationAllowed(UserInfo user) {
        return user.inGroup(UserInfo.MASTERS);
    }

    /**
     * kube's {@code RoleEscalationAuthorized}: whether the user may {@code escalate} the role being
     * written ({@code roles} or {@code clusterroles} of the RBAC group).
     *
     * @param resource {@code roles} or {@code clusterroles}
     * @param namespace the role's namespace, empty for a ClusterRole
     * @param name the role's name
     */
    public static boolean roleEscalationAuthorized(
            Authorizer authorizer, UserInfo user, String resource, String namespace, String name) {
        if (!resource.equals("roles") && !resource.equals("clusterroles")) {
            return false;
        }
        return authorizer
                .authorize(
                        AuthorizationAttributes.resource(
                                user, "escalate", namespace, RBAC_GROUP, "*", resource, "", name))
                .allowed();
    }

    /**
     * kube's {@code BindingAuthorized}: whether the user may {@code bind} the referenced role in
     * the binding's namespace (empty for a ClusterRoleBinding).
     */
    public static boolean bindingAuthorized(
            Authorizer authorizer, UserInfo user, RoleRef roleRef, String bindingNamespace) {
        String resource =
                switch (roleRef.kind()) {
                    case RoleRef.CLUSTER_ROLE -> "clusterroles";
                    case RoleRef.ROLE -> "roles";
                    default -> null;
                };
        if (resource == null) {
            return false;
        }
        return authorizer
                .authorize(
                        AuthorizationAttributes.resource(
                                user,
                                "bind",
                                bindingNamespace,
                                RBAC_GROUP,
                                "",
                                resource,
                                "",
                                roleRef.name()))
                .allowed();
    }

    /**
     * kube's {@code ConfirmNoEscalation}: empty when {@code held} covers {@code requested}, else
     * kube's message (the Forbidden reason of the write): {@code user "u" (groups=["g"]) is
     * attempting to grant RBAC permissions not currently held:} and one compact rule a line,
     * sorted.
     *
     * @param held what RBAC grants the user in the namespace of the write ({@link
     *     RbacPolicy#rulesFor})
     */
    public static Optional<String> confirmNoEscalation(
            UserInfo user, UserRules held, List<PolicyRule> requested) {
        PolicyComparator.Coverage coverage = PolicyComparator.covers(held.rules(), requested);
        if (coverage.covered()) {
            return Optional.empty();
        }
        TreeSet<String> missing = new TreeSet<>();
        for (PolicyRule r : compact(coverage.uncovered())) {
            missing.add(r.compactString());
        }
        String groups =
                user.groups().stream()
                        .map(FieldError::quote)
                        .collect(Collectors.joining(" ", "[", "]"));
        String msg =
                "user "
                        + FieldError.quote(user.name())
                        + " (groups="
                        + groups
                        + ") is attempting to grant RBAC permissions not currently held:\n"
                        + String.join("\n", missing);
        if (!held.errors().isEmpty()) {
            msg = msg + "; resolution errors: [" + held.evaluationError() + "]";
        }
        return Optional.of(msg);
    }

    /**
     * kube's {@code CompactRules}: rules on one group and one resource (and at most one name) are
     * merged into one rule with all their verbs; others stay as they are, before the merged ones.
     */
    static List<PolicyRule> compact(List<PolicyRule> rules) {
        List<PolicyRule> out = new ArrayList<>();
        Map<List<String>, PolicyRule> simple = new LinkedHashMap<>();
        for (PolicyRule r : rules) {
            boolean isSimple =
                    r.nonResourceURLs().isEmpty()
                            && r.apiGroups().size() == 1
                            && r.resources().size() == 1
                            && r.resourceNames().size() <= 1;
            if (!isSimple) {
                out.add(r);
                continue;
            }
            List<String> key =
                    List.of(
                            r.apiGroups().get(0),
                            r.resources().get(0),
                            r.resourceNames().isEmpty() ? "" : r.resourceNames().get(0),
                            r.resourceNames().isEmpty() ? "-" : "+");
            simple.merge(
                    key,
                    r,
                    (a, b) -> {
                        List<String> verbs = new ArrayList<>(a.verbs());
                        verbs.addAll(b.verbs());
                        return new PolicyRule(
                                verbs,
                                a.apiGroups(),
                                a.resources(),
                                a.resourceNames(),
                                a.nonResourceURLs());
                    });
        }
        out.addAll(simple.values());
        return out;
    }
}
