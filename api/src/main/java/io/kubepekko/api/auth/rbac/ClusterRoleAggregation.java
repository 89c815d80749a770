package io.kubepekko.api.auth.rbac;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's ClusterRole aggregation controller as pure functions: a ClusterRole with {@code
 * aggregationRule.clusterRoleSelectors} has as rules the union of the rules of every other
 * ClusterRole its selectors match — selector by selector, matching roles by name, each rule added
 * once, in the order first seen.
 */
public final class ClusterRoleAggregation {

    private ClusterRoleAggregation() {}

    /**
     * The rules the controller writes into {@code target} from the current rules of {@code
     * clusterRoles} (the target itself never counts). Empty when target aggregates nothing.
     */
    public static List<PolicyRule> aggregatedRules(RbacRole target, List<RbacRole> clusterRoles) {
        List<RbacRole> byName = new ArrayList<>(clusterRoles);
        byName.sort(Comparator.comparing(RbacRole::name));
        List<PolicyRule> rules = new ArrayList<>();
        for (var selector : target.aggregationSelectors()) {
            for (RbacRole role : byName) {
                if (role.name().equals(target.name()) || !selector.matches(role.labels())) {
                    continue;
                }
                for (PolicyRule rule : role.rules()) {
                    if (!rules.contains(rule)) {
                        rules.add(rule);
                    }
                }
            }
        }
        return List.copyOf(rules);
    }

    /**
     * What one controller pass writes for {@code target}: the new rules, or empty when the role
     * aggregates nothing or already holds exactly them (so no write is needed).
     */
    public static Optional<List<PolicyRule>> update(RbacRole target, List<RbacRole> clusterRoles) {
        if (!target.aggregated()) {
            return Optional.empty();
        }
        List<PolicyRule> rules = aggregatedRules(target, clusterRoles);
        return rules.equals(target.rules()) ? Optional.empty() : Optional.of(rules);
    }

    /**
     * Every ClusterRole as the controller leaves them once it has settled: aggregated roles are
     * recomputed until nothing changes, so chains (view into edit into admin) are complete. Bounded
     * by the number of roles; a cycle of aggregating roles ends there too.
     */
    public static List<RbacRole> settle(List<RbacRole> clusterRoles) {
        Map<String, RbacRole> current = new LinkedHashMap<>();
        clusterRoles.forEach(r -> current.put(r.name(), r));
        for (int pass = 0; pass <= clusterRoles.size(); pass++) {
            boolean changed = false;
            for (RbacRole role : List.copyOf(current.values())) {
                Optional<List<PolicyRule>> next = update(role, List.copyOf(current.values()));
                if (next.isPresent()) {
                    current.put(role.name(), role.withRules(next.get()));
                    changed = true;
                }
            }
            if (!changed) {
                break;
            }
        }
        return List.copyOf(current.values());
    }
}
