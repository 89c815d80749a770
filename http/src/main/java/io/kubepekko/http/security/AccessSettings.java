package io.kubepekko.http.security;

import io.kubepekko.api.auth.authorizer.AuthorizationMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Who may do what through the secure port: kube-apiserver's authentication and authorization flags.
 *
 * @param authorizationModes {@code --authorization-mode}, in order
 * @param anonymousAuth {@code --anonymous-auth}: a request without credentials is {@code
 *     system:anonymous} (kube's default: true) rather than 401
 * @param tokenAuthFile {@code --token-auth-file}: kube's static token CSV
 * @param serviceAccounts how service-account tokens are issued and verified ({@code
 *     --service-account-*}, {@code --api-audiences})
 */
public record AccessSettings(
        List<AuthorizationMode> authorizationModes,
        boolean anonymousAuth,
        Optional<Path> tokenAuthFile,
        ServiceAccountSettings serviceAccounts) {

    /** kube's defaults with the secure default: Node,RBAC and anonymous requests on. */
    public static final AccessSettings DEFAULT =
            new AccessSettings(
                    AuthorizationMode.DEFAULT,
                    true,
                    Optional.empty(),
                    ServiceAccountSettings.DEFAULT);

    public AccessSettings {
        authorizationModes = List.copyOf(authorizationModes);
        if (authorizationModes.isEmpty()) {
            throw new IllegalArgumentException("at least one authorization-mode must be passed");
        }
    }

    /** The same with {@code modes}. */
    public AccessSettings withAuthorizationModes(List<AuthorizationMode> modes) {
        return new AccessSettings(modes, anonymousAuth, tokenAuthFile, serviceAccounts);
    }

    /** The same with a token file. */
    public AccessSettings withTokenAuthFile(Path file) {
        return new AccessSettings(
                authorizationModes, anonymousAuth, Optional.of(file), serviceAccounts);
    }

    /** The same with {@code --anonymous-auth} set to {@code on}. */
    public AccessSettings withAnonymousAuth(boolean on) {
        return new AccessSettings(authorizationModes, on, tokenAuthFile, serviceAccounts);
    }

    /** The same with these service-account settings. */
    public AccessSettings withServiceAccounts(ServiceAccountSettings s) {
        return new AccessSettings(authorizationModes, anonymousAuth, tokenAuthFile, s);
    }
}
