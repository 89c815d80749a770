package io.kubepekko.api.auth.rbac;

import java.util.List;

/**
 * The rules RBAC grants a user in a namespace, as SelfSubjectRulesReview reports them, and the
 * messages of bindings whose roles did not resolve (the review's {@code evaluationError}).
 *
 * @param rules every applicable rule, cluster-wide ones first
 * @param errors kube's messages for bindings whose role is missing
 */
public record UserRules(List<PolicyRule> rules, List<String> errors) {

    public UserRules {
        rules = List.copyOf(rules);
        errors = List.copyOf(errors);
    }

    /** The rules on resources (a rule with both resources and URLs appears in both lists). */
    public List<PolicyRule> resourceRules() {
        return rules.stream().filter(r -> !r.resources().isEmpty()).toList();
    }

    /** The rules on non-resource URLs. */
    public List<PolicyRule> nonResourceRules() {
        return rules.stream().filter(r -> !r.nonResourceURLs().isEmpty()).toList();
    }

    /** kube's aggregate error text of {@link #errors}, empty when there are none. */
    public String evaluationError() {
        return RbacAuthorizer.aggregate(errors);
    }
}
