package io.kubepekko.api.auth;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the access and token reviews ask of the server's authenticators and authorizers: the SPI
 * behind {@code authentication.k8s.io/v1} TokenReview and {@code authorization.k8s.io/v1}
 * SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview and
 * SelfSubjectRulesReview. The review resources decode and validate the request, call one method and
 * render its answer; the answers are plain values so the implementation (the token authenticators,
 * the RBAC evaluator) knows nothing of the review objects' JSON.
 *
 * <p>Methods never throw for a request's content: a failure to evaluate is part of the answer
 * ({@link Decision#evaluationError()}, {@link TokenReview#error()}), as in kube.
 */
public interface AccessReviews {

    /**
     * Authenticates a bearer token as the server would authenticate a request carrying it.
     *
     * @param token the token, never empty
     * @param audiences the audiences the caller asked for; empty means the server's own
     */
    TokenReview reviewToken(String token, List<String> audiences);

    /** Whether {@code subject} may do what {@code attributes} describe. */
    Decision authorize(Subject subject, Attributes attributes);

    /** What {@code subject} may do in {@code namespace} (never empty), as far as it can be told. */
    Rules rules(UserInfo subject, String namespace);

    /**
     * kube's answers when no token authenticator is configured and authorization is {@code
     * AlwaysAllow}: every token unauthenticated (kube echoes the review with an empty status),
     * every request allowed without a reason, every rule granted. The server answers this way until
     * authentication and authorization are wired in; it is the truth of a server that checks
     * nothing.
     */
    static AccessReviews alwaysAllow() {
        return AlwaysAllowReviews.INSTANCE;
    }

    /**
     * The outcome of a token review.
     *
     * @param authenticated whether the token proved a user
     * @param user the user it proved, if any
     * @param audiences the audiences the token is valid for (empty: not reported)
     * @param error why authentication failed, for the caller; empty when it did not
     */
    record TokenReview(
            boolean authenticated, Optional<UserInfo> user, List<String> audiences, String error) {
        public TokenReview {
            Objects.requireNonNull(user, "user");
            audiences = List.copyOf(audiences);
            error = error == null ? "" : error;
        }

        /** A token that proved {@code user} for {@code audiences}. */
        public static TokenReview authenticated(UserInfo user, List<String> audiences) {
            return new TokenReview(true, Optional.of(user), audiences, "");
        }

        /** A token that proved nothing; {@code error} may be empty. */
        public static TokenReview unauthenticated(String error) {
            return new TokenReview(false, Optional.empty(), List.of(), error);
        }
    }

    /**
     * Whom a review asks about: the user of a SubjectAccessReview's spec, or the requester of a
     * self review ({@link #of(UserInfo)}). Unlike an authenticated {@link UserInfo}, a review may
     * name only groups, so the name may be empty.
     */
    record Subject(String user, String uid, List<String> groups, Map<String, List<String>> extra) {
        public Subject {
            user = user == null ? "" : user;
            uid = uid == null ? "" : uid;
            groups = List.copyOf(groups);
            extra = Map.copyOf(extra);
        }

        /** The requester of a self review. */
        public static Subject of(UserInfo user) {
            return new Subject(user.name(), user.uid(), user.groups(), user.extra());
        }
    }

    /** What a review asks about: a request on a resource or on a non-resource URL. */
    sealed interface Attributes {}

    /**
     * A request on a resource, as {@code spec.resourceAttributes} describes it; empty strings are
     * fields the review left out ({@code "*"} is a wildcard only to the authorizer).
     *
     * @param fieldSelector the raw field selector, empty when none
     * @param labelSelector the raw label selector, empty when none
     */
    record ResourceAttributes(
            String namespace,
            String verb,
            String group,
            String version,
            String resource,
            String subresource,
            String name,
            String fieldSelector,
            String labelSelector)
            implements Attributes {}

    /**
     * A request on a non-resource URL ({@code /healthz}), as {@code spec.nonResourceAttributes}.
     */
    record NonResourceAttributes(String path, String verb) implements Attributes {}

    /**
     * An authorizer's decision. {@code allowed} and {@code denied} are both false when no
     * authorizer had an opinion.
     */
    record Decision(boolean allowed, boolean denied, String reason, String evaluationError) {
        public Decision {
            if (allowed && denied) {
                throw new IllegalArgumentException("a decision allows or denies, not both");
            }
            reason = reason == null ? "" : reason;
            evaluationError = evaluationError == null ? "" : evaluationError;
        }

        public static Decision allow(String reason) {
            return new Decision(true, false, reason, "");
        }

        public static Decision deny(String reason) {
            return new Decision(false, true, reason, "");
        }

        public static Decision noOpinion(String reason) {
            return new Decision(false, false, reason, "");
        }
    }

    /**
     * The rules a subject holds in a namespace.
     *
     * @param incomplete whether some rules could not be told (an authorizer that cannot list, an
     *     error)
     */
    record Rules(
            List<ResourceRule> resourceRules,
            List<NonResourceRule> nonResourceRules,
            boolean incomplete,
            String evaluationError) {
        public Rules {
            resourceRules = List.copyOf(resourceRules);
            nonResourceRules = List.copyOf(nonResourceRules);
            evaluationError = evaluationError == null ? "" : evaluationError;
        }
    }

    /** One rule on resources, as RBAC's PolicyRule without non-resource URLs. */
    record ResourceRule(
            List<String> verbs,
            List<String> apiGroups,
            List<String> resources,
            List<String> resourceNames) {
        public ResourceRule {
            verbs = List.copyOf(verbs);
            apiGroups = List.copyOf(apiGroups);
            resources = List.copyOf(resources);
            resourceNames = List.copyOf(resourceNames);
        }
    }

    /** One rule on non-resource URLs. */
    record NonResourceRule(List<String> verbs, List<String> nonResourceURLs) {
        public NonResourceRule {
            verbs = List.copyOf(verbs);
            nonResourceURLs = List.copyOf(nonResourceURLs);
        }
    }
}
