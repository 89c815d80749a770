package io.kubepekko.api.auth;

import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's request authentication as one {@link Authentication.Authenticator}: its
 * authenticators in order as a union (the first {@link Authentication.Authenticated} wins, even
 * after another rejected), the authenticated-group adder ({@code system:authenticated} appended
 * when the user is in neither it nor {@code system:unauthenticated}), then anonymous.
 *
 * <p>The answer is {@link Authentication.Authenticated} (possibly {@code system:anonymous}), or
 * {@link Authentication.Rejected} when a credential was presented and none authenticated (401 even
 * with anonymous on), or {@link Authentication.NotPresented} when nothing was presented and
 * anonymous requests are off (also a 401 at the edge). Anything but Authenticated is kube's bare
 * 401 {@code Unauthorized}.
 */
public final class AuthenticatorUnion implements Authentication.Authenticator {

    private final List<Authentication.Authenticator> authenticators;
    private final boolean anonymousAuth;

    /**
     * @param authenticators in kube's order: client certificates, token file, service-account
     *     tokens (the bearer ones usually as one {@link BearerTokenAuthenticator})
     * @param anonymousAuth {@code --anonymous-auth} (kube's default: true)
     */
    public AuthenticatorUnion(
            List<Authentication.Authenticator> authenticators, boolean anonymousAuth) {
        this.authenticators = List.copyOf(authenticators);
        this.anonymousAuth = anonymousAuth;
    }

    @Override
    public Authentication authenticate(Credentials credentials) {
        List<String> reasons = new ArrayList<>();
        for (Authentication.Authenticator authenticator : authenticators) {
            Authentication answer;
            try {
                answer = authenticator.authenticate(credentials);
            } catch (RuntimeException e) {
                answer = new Authentication.Rejected("authenticator failed: " + e.getClass());
            }
            if (answer instanceof Authentication.Authenticated a) {
                return new Authentication.Authenticated(
                        withAuthenticatedGroup(a.user()), a.audiences());
            }
            if (answer instanceof Authentication.Rejected r) {
                reasons.add(r.reason());
            }
        }
        if (!reasons.isEmpty()) {
            return new Authentication.Rejected(Reasons.aggregate(reasons));
        }
        return anonymousAuth
                ? new Authentication.Authenticated(UserInfo.anonymous())
                : new Authentication.NotPresented();
    }

    /** kube's {@code AuthenticatedGroupAdder}. */
    static UserInfo withAuthenticatedGroup(UserInfo user) {
        if (user.name().equals(UserInfo.ANONYMOUS)
                || user.inGroup(UserInfo.AUTHENTICATED)
                || user.inGroup(UserInfo.UNAUTHENTICATED)) {
            return user;
        }
        List<String> groups = new ArrayList<>(user.groups());
        groups.add(UserInfo.AUTHENTICATED);
        return new UserInfo(user.name(), user.uid(), groups, user.extra());
    }
}
