package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.Authorizers;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** kube's policy comparator (what a user may grant) and escalation checks. */
class EscalationTest {

    private static PolicyRule res(List<String> verbs, String group, List<String> resources) {
        return PolicyRule.resources(verbs, List.of(group), resources, List.of());
    }

    @Test
    void wildcardOwnerCoversAnything() {
        List<PolicyRule> owner = List.of(res(List.of("*"), "*", List.of("*")));
        assertTrue(
                PolicyComparator.covers(owner, List.of(res(List.of("get"), "apps", List.of("x/y"))))
                        .covered());
    }

    @Test
    void coverageIsPerAtomAcrossSeveralOwnerRules() {
        List<PolicyRule> owner =
                List.of(
                        res(List.of("get"), "", List.of("pods")),
                        res(List.of("list"), "", List.of("pods")));
        assertTrue(
                PolicyComparator.covers(
                                owner, List.of(res(List.of("get", "list"), "", List.of("pods"))))
                        .covered());
        PolicyComparator.Coverage c =
                PolicyComparator.covers(
                        owner, List.of(res(List.of("get", "delete"), "", List.of("pods"))));
        assertFalse(c.covered());
        assertEquals(List.of(res(List.of("delete"), "", List.of("pods"))), c.uncovered());
    }

    @Test
    void wildcardsAskedAreLiteralUnlessHeldAsWildcards() {
        List<PolicyRule> owner = List.of(res(List.of("get", "list"), "", List.of("pods")));
        assertFalse(
                PolicyComparator.covers(owner, List.of(res(List.of("*"), "", List.of("pods"))))
                        .covered());
        assertFalse(
                PolicyComparator.covers(
                                owner, List.of(res(List.of("get"), "", List.of("pods/log"))))
                        .covered());
    }

    @Test
    void resourceNamesNarrowWhatIsHeld() {
        PolicyRule heldNamed =
                PolicyRule.resources(List.of("get"), List.of(""), List.of("secrets"), List.of("a"));
        PolicyRule askNamed =
                PolicyRule.resources(List.of("get"), List.of(""), List.of("secrets"), List.of("a"));
        PolicyRule askOther =
                PolicyRule.resources(List.of("get"), List.of(""), List.of("secrets"), List.of("b"));
        PolicyRule askAll = res(List.of("get"), "", List.of("secrets"));
        assertTrue(PolicyComparator.covers(List.of(heldNamed), List.of(askNamed)).covered());
        assertFalse(PolicyComparator.covers(List.of(heldNamed), List.of(askOther)).covered());
        assertFalse(PolicyComparator.covers(List.of(heldNamed), List.of(askAll)).covered());
        assertTrue(
                PolicyComparator.covers(List.of(askAll), List.of(askNamed)).covered(),
                "a rule on every secret covers one named secret");
    }

    @Test
    void nonResourceUrlsCoveredByPrefix() {
        List<PolicyRule> owner =
                List.of(PolicyRule.nonResource(List.of("get"), List.of("/apis/*", "/healthz")));
        assertTrue(
                PolicyComparator.covers(
                                owner,
                                List.of(
                                        PolicyRule.nonResource(
                                                List.of("get"), List.of("/apis/apps", "/healthz"))))
                        .covered());
        assertFalse(
                PolicyComparator.covers(
                                owner,
                                List.of(PolicyRule.nonResource(List.of("get"), List.of("/apis"))))
                        .covered());
    }

    @Test
    void confirmNoEscalationNamesTheMissingRulesCompactedAndSorted() {
        UserInfo u = UserInfo.of("u", List.of("g1", "g2"));
        UserRules held =
                new UserRules(List.of(res(List.of("get"), "", List.of("pods"))), List.of());
        assertEquals(
                Optional.empty(),
                Escalation.confirmNoEscalation(
                        u, held, List.of(res(List.of("get"), "", List.of("pods")))));
        Optional<String> msg =
                Escalation.confirmNoEscalation(
                        u,
                        held,
                        List.of(
                                res(
                                        List.of("get", "list", "watch"),
                                        "",
                                        List.of("secrets", "pods"))));
        assertEquals(
                Optional.of(
                        "user \"u\" (groups=[\"g1\" \"g2\"]) is attempting to grant RBAC permissions"
                                + " not currently held:\n"
                                + "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"list\""
                                + " \"watch\"]}\n"
                                + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"list\""
                                + " \"watch\"]}"),
                msg);
    }

    @Test
    void systemMastersMayEscalate() {
        assertTrue(Escalation.escalationAllowed(UserInfo.of("a", List.of(UserInfo.MASTERS))));
        assertFalse(Escalation.escalationAllowed(UserInfo.of("a", List.of("devs"))));
    }

    @Test
    void bindAndEscalateAreCheckedWithKubesAttributes() {
        UserInfo u = UserInfo.of("u", List.of());
        RbacPolicy policy =
                RbacPolicy.of(
                        List.of(),
                        List.of(
                                RbacRole.cluster(
                                        "binder",
                                        List.of(
                                                PolicyRule.resources(
                                                        List.of("bind"),
                                                        List.of("rbac.authorization.k8s.io"),
                                                        List.of("clusterroles"),
                                                        List.of("view")),
                                                PolicyRule.resources(
                                                        List.of("escalate"),
                                                        List.of("rbac.authorization.k8s.io"),
                                                        List.of("roles"),
                                                        List.of())))),
                        List.of(
                                new RbacBinding(
                                        "team",
                                        "b",
                                        new RoleRef("ClusterRole", "binder"),
                                        List.of(Subject.user("u")))),
                        List.of());
        RbacAuthorizer a = RbacAuthorizer.of(policy);
        assertTrue(Escalation.bindingAuthorized(a, u, new RoleRef("ClusterRole", "view"), "team"));
        assertFalse(Escalation.bindingAuthorized(a, u, new RoleRef("ClusterRole", "edit"), "team"));
        assertFalse(
                Escalation.bindingAuthorized(a, u, new RoleRef("ClusterRole", "view"), "other"));
        assertTrue(Escalation.roleEscalationAuthorized(a, u, "roles", "team", "r"));
        assertFalse(Escalation.roleEscalationAuthorized(a, u, "clusterroles", "", "r"));
        assertFalse(
                Escalation.roleEscalationAuthorized(
                        Authorizers.alwaysAllow(), u, "pods", "team", "r"));
    }
}
