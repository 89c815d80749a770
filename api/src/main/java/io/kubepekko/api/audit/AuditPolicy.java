package io.kubepekko.api.audit;

import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An {@code audit.k8s.io/v1} Policy: ordered rules, the first a request matches decides its level;
 * a request no rule matches is not audited. Read one from a file with {@link AuditPolicyReader}.
 *
 * @param rules the rules in order, each one's omitted stages already joined with the policy's
 * @param omitStages stages never recorded
 * @param omitManagedFields the default of the rules that do not say
 */
public record AuditPolicy(
        List<AuditRule> rules, Set<AuditStage> omitStages, boolean omitManagedFields) {

    public AuditPolicy {
        omitStages = Set.copyOf(omitStages);
        // kube's evaluator joins the policy's stages into each rule's once, when it is built
        Set<AuditStage> policyStages = omitStages;
        rules =
                rules.stream()
                        .map(
                                r -> {
                                    Set<AuditStage> union = EnumSet.noneOf(AuditStage.class);
                                    union.addAll(policyStages);
                                    union.addAll(r.omitStages());
                                    return new AuditRule(
                                            r.level(),
                                            r.users(),
                                            r.userGroups(),
                                            r.verbs(),
                                            r.resources(),
                                            r.namespaces(),
                                            r.nonResourceURLs(),
                                            union,
                                            r.omitManagedFields());
                                })
                        .toList();
    }

    /** The level and stages of one request: the first matching rule's, else not audited. */
    public RequestAuditConfig evaluate(AuthorizationAttributes attrs) {
        return evaluate(attrs, true);
    }

    /**
     * The decision for a request whose credentials were refused: {@code attrs}' user is ignored and
     * rules naming users or groups do not match it.
     */
    public RequestAuditConfig evaluateWithoutUser(AuthorizationAttributes attrs) {
        return evaluate(attrs, false);
    }

    private RequestAuditConfig evaluate(AuthorizationAttributes attrs, boolean userKnown) {
        for (AuditRule rule : rules) {
            if (rule.matches(attrs, userKnown)) {
                return new RequestAuditConfig(
                        rule.level(),
                        rule.omitStages(),
                        rule.omitManagedFields().orElse(omitManagedFields));
            }
        }
        return new RequestAuditConfig(AuditLevel.NONE, omitStages, omitManagedFields);
    }
}
