package io.kubepekko.api.auth;

import java.util.ArrayList;
import java.util.List;

/**
 * One way of checking a bearer token (kube's {@code authenticator.Token}): the static token file,
 * service-account JWTs. Answers {@link Authentication.Authenticated} when the token proves a user,
 * {@link Authentication.NotPresented} when the token is not of its kind or not known to it, and
 * {@link Authentication.Rejected} when it is of its kind but invalid (expired, bound object gone).
 * Never throws for bad input.
 */
@FunctionalInterface
public interface TokenAuthenticator {

    /**
     * Checks {@code token} for a request aimed at {@code audiences} (for an ordinary request the
     * API server's own audiences; a TokenReview may name others).
     */
    Authentication authenticateToken(String token, List<String> audiences);

    /**
     * kube's {@code WrapAudienceAgnosticToken}: a token that carries no audience of its own (a
     * token-file entry) is valid only for the API server's audiences. When the target audiences
     * share none with {@code apiAudiences} the token is not looked at; otherwise the answer is
     * valid for the shared ones.
     */
    static TokenAuthenticator audienceAgnostic(
            List<String> apiAudiences, TokenAuthenticator delegate) {
        List<String> implicit = List.copyOf(apiAudiences);
        return (token, audiences) -> {
            if (audiences.isEmpty()) {
                return delegate.authenticateToken(token, audiences);
            }
            List<String> shared = intersect(implicit, audiences);
            if (shared.isEmpty()) {
                return new Authentication.NotPresented();
            }
            Authentication answer = delegate.authenticateToken(token, audiences);
            return answer instanceof Authentication.Authenticated a
                    ? new Authentication.Authenticated(a.user(), shared)
                    : answer;
        };
    }

    /** The members of {@code a} also in {@code b}, in {@code a}'s order (kube's Intersect). */
    static List<String> intersect(List<String> a, List<String> b) {
        List<String> shared = new ArrayList<>();
        for (String s : a) {
            if (b.contains(s)) {
                shared.add(s);
            }
        }
        return List.copyOf(shared);
    }
}
