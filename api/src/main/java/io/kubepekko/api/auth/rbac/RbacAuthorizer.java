package io.kubepekko.api.auth.rbac;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * kube's RBAC authorizer over the current {@link RbacPolicy} snapshot: allows when any rule granted
 * to the user cluster-wide or in the request's namespace allows the request, with kube's reason
 * ({@code RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"}); otherwise no
 * opinion, whose reason names the bindings whose roles are missing ({@code RBAC: role.rbac… "x" not
 * found}), as kube appends it to the 403 message. RBAC never denies.
 *
 * <p>Each decision is remembered with the snapshot it was made over ({@link RbacDecisions}), so a
 * request repeated while no role or binding changes is answered without walking the rules again.
 */
public final class RbacAuthorizer implements Authorizer {

    private final Supplier<RbacPolicy> policy;
    private final boolean remember;

    /** The decisions made over the current snapshot; replaced with it. */
    private volatile RbacDecisions decisions;

    /**
     * @param policy the current snapshot; read once per decision, so a caller may swap it (a
     *     volatile reference) when a role or binding changes
     */
    public RbacAuthorizer(Supplier<RbacPolicy> policy) {
        this(policy, true);
    }

    private RbacAuthorizer(Supplier<RbacPolicy> policy, boolean remember) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.remember = remember;
    }

    /** An authorizer over a fixed snapshot. */
    public static RbacAuthorizer of(RbacPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return new RbacAuthorizer(() -> policy);
    }

    /**
     * An authorizer over a fixed snapshot that walks the rules for every decision, remembering
     * none: what a request no one has made before costs (the evaluator's benchmark).
     */
    public static RbacAuthorizer walking(RbacPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        return new RbacAuthorizer(() -> policy, false);
    }

    @Override
    public Decision authorize(AuthorizationAttributes attributes) {
        RbacPolicy current = policy.get();
        if (!remember) {
            return evaluate(current, attributes);
        }
        RbacDecisions known = decisions;
        if (known == null || known.policy() != current) {
            known = new RbacDecisions(current);
            decisions = known;
        }
        return known.decide(attributes, p -> evaluate(p, attributes));
    }

    /**
     * Walks the user's rules in {@code policy} for {@code attributes}: kube's {@code Authorize}.
     */
    static Decision evaluate(RbacPolicy policy, AuthorizationAttributes attributes) {
        String[] allowedBy = new String[1];
        List<String> errors = new ArrayList<>(0);
        policy.visitRules(
                attributes.user(),
                attributes.namespace(),
                (grant, subject, rule) -> {
                    if (rule.allows(attributes)) {
                        allowedBy[0] = grant.describe(subject);
                        return false;
                    }
                    return true;
                },
                errors);
        if (allowedBy[0] != null) {
            return Decision.allow("RBAC: allowed by " + allowedBy[0]);
        }
        return Decision.noOpinion(errors.isEmpty() ? "" : "RBAC: " + aggregate(errors));
    }

    /** kube's {@code RulesFor} (SelfSubjectRulesReview, escalation checks). */
    public UserRules rulesFor(UserInfo user, String namespace) {
        return policy.get().rulesFor(user, namespace);
    }

    /**
     * The text of kube's {@code utilerrors.NewAggregate(errs).Error()}: one message alone, or the
     * distinct messages in brackets, comma-separated.
     */
    static String aggregate(List<String> errors) {
        if (errors.isEmpty()) {
            return "";
        }
        if (errors.size() == 1) {
            return errors.get(0);
        }
        Set<String> distinct = new LinkedHashSet<>(errors);
        String joined = String.join(", ", distinct);
        return distinct.size() == 1 ? joined : "[" + joined + "]";
    }
}
