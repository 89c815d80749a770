package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.selector.LabelSelector;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** kube's clusterroleaggregation controller: selectors in order, roles by name, rules once. */
class ClusterRoleAggregationTest {

    private static PolicyRule get(String resource) {
        return PolicyRule.resources(List.of("get"), List.of(""), List.of(resource), List.of());
    }

    private static RbacRole labelled(String name, Map<String, String> labels, PolicyRule... rules) {
        return new RbacRole("", name, labels, List.of(rules), false, List.of());
    }

    private static LabelSelector selects(String key) {
        return LabelSelector.parse(key + "=true");
    }

    @Test
    void unionOfMatchingRolesByNameWithoutDuplicates() {
        RbacRole target =
                RbacRole.aggregating("agg", Map.of(), List.of(selects("a"), selects("b")));
        List<RbacRole> all =
                List.of(
                        target,
                        labelled("zeta", Map.of("a", "true"), get("pods"), get("secrets")),
                        labelled("alpha", Map.of("a", "true"), get("configmaps"), get("pods")),
                        labelled("beta", Map.of("b", "true"), get("nodes"), get("configmaps")),
                        labelled("unrelated", Map.of("c", "true"), get("leases")));
        assertEquals(
                List.of(get("configmaps"), get("pods"), get("secrets"), get("nodes")),
                ClusterRoleAggregation.aggregatedRules(target, all));
    }

    @Test
    void theTargetNeverCountsItselfEvenWhenItsLabelsMatch() {
        RbacRole target =
                new RbacRole(
                        "",
                        "self",
                        Map.of("a", "true"),
                        List.of(get("old")),
                        true,
                        List.of(selects("a")));
        assertEquals(
                Optional.of(List.of()), ClusterRoleAggregation.update(target, List.of(target)));
    }

    @Test
    void noUpdateWhenRulesAreAlreadyAggregatedOrRoleDoesNotAggregate() {
        RbacRole source = labelled("s", Map.of("a", "true"), get("pods"));
        RbacRole done =
                new RbacRole("", "t", Map.of(), List.of(get("pods")), true, List.of(selects("a")));
        assertEquals(Optional.empty(), ClusterRoleAggregation.update(done, List.of(done, source)));
        assertEquals(
                Optional.empty(), ClusterRoleAggregation.update(source, List.of(done, source)));
    }

    @Test
    void settleCompletesChainsLikeViewIntoEditIntoAdmin() {
        RbacRole admin = RbacRole.aggregating("admin", Map.of(), List.of(selects("to-admin")));
        RbacRole edit =
                RbacRole.aggregating(
                        "edit", Map.of("to-admin", "true"), List.of(selects("to-edit")));
        RbacRole view =
                RbacRole.aggregating(
                        "view", Map.of("to-edit", "true"), List.of(selects("to-view")));
        RbacRole v = labelled("v", Map.of("to-view", "true"), get("pods"));
        RbacRole e = labelled("e", Map.of("to-edit", "true"), get("secrets"));
        List<RbacRole> settled = ClusterRoleAggregation.settle(List.of(admin, edit, view, v, e));
        assertEquals(List.of(get("secrets"), get("pods")), rulesOf(settled, "admin"));
        assertEquals(List.of(get("secrets"), get("pods")), rulesOf(settled, "edit"));
        assertEquals(List.of(get("pods")), rulesOf(settled, "view"));
    }

    private static List<PolicyRule> rulesOf(List<RbacRole> roles, String name) {
        return roles.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow().rules();
    }
}
