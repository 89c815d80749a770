package io.kubepekko.http.server;

import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.TokenAuthenticator;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.rbac.PolicyRule;
import io.kubepekko.api.auth.rbac.RbacPolicy;
import io.kubepekko.api.auth.rbac.UserRules;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.status.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The reviews answered by the secure port's own authenticators and authorizers: a TokenReview asks
 * the bearer-token authenticators, an access review asks the authorizer chain a request would, and
 * SelfSubjectRulesReview lists the subject's RBAC rules ({@code system:masters} and {@code
 * AlwaysAllow} hold every rule, as kube's authorizers report).
 */
final class CheckedReviews implements AccessReviews {

    private static final PolicyRule EVERYTHING =
            new PolicyRule(
                    List.of(PolicyRule.ALL),
                    List.of(PolicyRule.ALL),
                    List.of(PolicyRule.ALL),
                    List.of(),
                    List.of());
    private static final PolicyRule EVERY_URL =
            PolicyRule.nonResource(List.of(PolicyRule.ALL), List.of(PolicyRule.ALL));

    private final Optional<TokenAuthenticator> tokens;
    private final List<String> apiAudiences;
    private final Authorizer authorizer;
    private final Optional<Supplier<RbacPolicy>> rbac;
    private final boolean allowsEverything;

    /**
     * @param tokens the bearer-token authenticators, when any is configured
     * @param rbac the RBAC policy, when RBAC is an authorization mode
     * @param allowsEverything whether {@code AlwaysAllow} is an authorization mode
     */
    CheckedReviews(
            Optional<TokenAuthenticator> tokens,
            List<String> apiAudiences,
            Authorizer authorizer,
            Optional<Supplier<RbacPolicy>> rbac,
            boolean allowsEverything) {
        this.tokens = tokens;
        this.apiAudiences = List.copyOf(apiAudiences);
        this.authorizer = authorizer;
        this.rbac = rbac;
        this.allowsEverything = allowsEverything;
    }

    @Override
    public TokenReview reviewToken(String token, List<String> audiences) {
        if (tokens.isEmpty()) {
            return TokenReview.unauthenticated("");
        }
        List<String> target = audiences.isEmpty() ? apiAudiences : audiences;
        Authentication answer = tokens.get().authenticateToken(token, target);
        if (answer instanceof Authentication.Authenticated a) {
            return TokenReview.authenticated(
                    withAuthenticated(a.user()), a.audiences().isEmpty() ? target : a.audiences());
        }
        return TokenReview.unauthenticated(
                answer instanceof Authentication.Rejected r ? r.reason() : "");
    }

    private static UserInfo withAuthenticated(UserInfo user) {
        if (user.inGroup(UserInfo.AUTHENTICATED)) {
            return user;
        }
        List<String> groups = new ArrayList<>(user.groups());
        groups.add(UserInfo.AUTHENTICATED);
        return new UserInfo(user.name(), user.uid(), groups, user.extra());
    }

    @Override
    public AccessReviews.Decision authorize(Subject subject, Attributes attributes) {
        UserInfo user =
                new UserInfo(subject.user(), subject.uid(), subject.groups(), subject.extra());
        AuthorizationAttributes asked;
        if (attributes instanceof ResourceAttributes r) {
            asked =
                    AuthorizationAttributes.resource(
                                    user,
                                    r.verb(),
                                    r.namespace(),
                                    r.group(),
                                    r.version(),
                                    r.resource(),
                                    r.subresource(),
                                    r.name())
                            .withFieldSelector(selector(r.fieldSelector()));
        } else {
            NonResourceAttributes n = (NonResourceAttributes) attributes;
            asked = AuthorizationAttributes.nonResource(user, n.verb(), n.path());
        }
        // authorizer.Decision: the SPI's own Decision shadows the simple name here.
        io.kubepekko.api.auth.authorizer.Decision decision = authorizer.authorize(asked);
        return switch (decision.outcome()) {
            case ALLOW -> AccessReviews.Decision.allow(decision.reason());
            case DENY -> AccessReviews.Decision.deny(decision.reason());
            case NO_OPINION -> AccessReviews.Decision.noOpinion(decision.reason());
        };
    }

    private static FieldSelector selector(String raw) {
        try {
            return raw.isEmpty() ? FieldSelector.everything() : FieldSelector.parse(raw);
        } catch (ApiException unparsable) {
            return FieldSelector.everything();
        }
    }

    @Override
    public Rules rules(UserInfo subject, String namespace) {
        if (allowsEverything || subject.inGroup(UserInfo.MASTERS)) {
            return new Rules(
                    List.of(resourceRule(EVERYTHING)),
                    List.of(nonResourceRule(EVERY_URL)),
                    false,
                    "");
        }
        if (rbac.isEmpty()) {
            return new Rules(List.of(), List.of(), true, "");
        }
        UserRules rules = rbac.get().get().rulesFor(subject, namespace);
        return new Rules(
                rules.resourceRules().stream().map(CheckedReviews::resourceRule).toList(),
                rules.nonResourceRules().stream().map(CheckedReviews::nonResourceRule).toList(),
                !rules.errors().isEmpty(),
                rules.evaluationError());
    }

    private static ResourceRule resourceRule(PolicyRule r) {
        return new ResourceRule(r.verbs(), r.apiGroups(), r.resources(), r.resourceNames());
    }

    private static NonResourceRule nonResourceRule(PolicyRule r) {
        return new NonResourceRule(r.verbs(), r.nonResourceURLs());
    }
}
