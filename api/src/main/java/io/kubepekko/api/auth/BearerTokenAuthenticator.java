package io.kubepekko.api.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The request authenticator for bearer tokens (kube's {@code bearertoken} over a union of token
 * authenticators): asks each token authenticator in order; the first that authenticates wins. A
 * token that none authenticates is rejected, with the reasons the token authenticators gave or
 * kube's {@code invalid bearer token} when none recognised it.
 */
public final class BearerTokenAuthenticator implements Authentication.Authenticator {

    /** kube's error for a bearer token no token authenticator accepted. */
    public static final String INVALID_TOKEN = "invalid bearer token";

    private final List<TokenAuthenticator> tokenAuthenticators;
    private final List<String> apiAudiences;

    /**
     * @param tokenAuthenticators in kube's order (token file, then service-account tokens)
     * @param apiAudiences the API server's audiences ({@code --api-audiences}, by default the first
     *     service-account issuer): the target of an ordinary request
     */
    public BearerTokenAuthenticator(
            List<TokenAuthenticator> tokenAuthenticators, List<String> apiAudiences) {
        this.tokenAuthenticators = List.copyOf(tokenAuthenticators);
        this.apiAudiences = List.copyOf(apiAudiences);
    }

    @Override
    public Authentication authenticate(Credentials credentials) {
        Optional<String> token = credentials.bearerToken();
        if (token.isEmpty()) {
            return new Authentication.NotPresented();
        }
        return authenticateToken(token.get(), apiAudiences);
    }

    /**
     * Checks one token for {@code audiences} (a TokenReview's; an ordinary request's are the API
     * server's): Authenticated or Rejected, never NotPresented.
     */
    public Authentication authenticateToken(String token, List<String> audiences) {
        List<String> reasons = new ArrayList<>();
        for (TokenAuthenticator authenticator : tokenAuthenticators) {
            Authentication answer = safely(authenticator, token, audiences);
            if (answer instanceof Authentication.Authenticated) {
                return answer;
            }
            if (answer instanceof Authentication.Rejected rejected) {
                reasons.add(rejected.reason());
            }
        }
        return new Authentication.Rejected(
                reasons.isEmpty() ? INVALID_TOKEN : Reasons.aggregate(reasons));
    }

    /** The API server's audiences. */
    public List<String> apiAudiences() {
        return apiAudiences;
    }

    // A token authenticator that throws on hostile input must cost the client a 401, not a 500.
    private static Authentication safely(
            TokenAuthenticator authenticator, String token, List<String> audiences) {
        try {
            return authenticator.authenticateToken(token, audiences);
        } catch (RuntimeException e) {
            return new Authentication.Rejected("token authenticator failed: " + e.getClass());
        }
    }
}
