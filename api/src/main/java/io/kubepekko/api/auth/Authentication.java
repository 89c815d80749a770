package io.kubepekko.api.auth;

import java.util.List;

/**
 * One authenticator's answer for one request. kube runs its authenticators as a union: the first
 * {@link Authenticated} wins; when none authenticates and any {@link Rejected} the request, the
 * answer is 401 even if anonymous requests are allowed; only when every authenticator says {@link
 * NotPresented} may the request proceed as anonymous.
 */
public sealed interface Authentication {

    /**
     * The credential proved who sent the request.
     *
     * @param user the user
     * @param audiences the audiences the credential was valid for (empty: the API server's own)
     */
    record Authenticated(UserInfo user, List<String> audiences) implements Authentication {
        public Authenticated {
            audiences = List.copyOf(audiences);
        }

        public Authenticated(UserInfo user) {
            this(user, List.of());
        }
    }

    /** The request carried no credential of this authenticator's kind. */
    record NotPresented() implements Authentication {}

    /**
     * The request carried a credential of this kind and it is not valid. The reason goes to the
     * server's debug log only, never to the client (kube answers a bare 401).
     *
     * @param reason why, for operators
     */
    record Rejected(String reason) implements Authentication {}

    /** One way of proving identity: client certificates, a token file, service-account tokens. */
    @FunctionalInterface
    interface Authenticator {
        /** Examines what the request presented; never throws for bad input. */
        Authentication authenticate(Credentials credentials);
    }
}
