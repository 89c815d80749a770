package io.kubepekko.http.security;

import io.kubepekko.api.auth.serviceaccount.ServiceAccountOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Service-account tokens: kube-apiserver's {@code --service-account-*} and {@code --api-audiences}
 * flags, checked as kube checks them (an {@link IllegalArgumentException} with kube's message for a
 * bad value). The key files are read when the server starts.
 *
 * @param issuers {@code --service-account-issuer}: the first is written into issued tokens, every
 *     one is accepted when authenticating
 * @param keyFiles {@code --service-account-key-file}: PEM files whose RSA/ECDSA keys verify tokens;
 *     empty: the public half of the signing key (kube requires the flag)
 * @param signingKeyFile {@code --service-account-signing-key-file}; empty: {@code
 *     <data-dir>/pki/sa.key}, generated on first start
 * @param maxExpiration {@code --service-account-max-token-expiration}; zero: no limit
 * @param extendExpiration {@code --service-account-extend-token-expiration}: kube's year-long
 *     pod-bound tokens for requests of an hour and seven seconds
 * @param apiAudiences {@code --api-audiences} as given; empty: the issuers (see {@link
 *     #audiences()})
 * @param jwksUri {@code --service-account-jwks-uri}; empty: {@code https://<the server's
 *     address>/openid/v1/jwks}
 */
public record ServiceAccountSettings(
        List<String> issuers,
        List<Path> keyFiles,
        Optional<Path> signingKeyFile,
        Duration maxExpiration,
        boolean extendExpiration,
        List<String> apiAudiences,
        String jwksUri) {

    /** The generated key, kubeadm's issuer, no maximum, the extension on, as kube's defaults. */
    public static final ServiceAccountSettings DEFAULT =
            new ServiceAccountSettings(
                    List.of(ServiceAccountOptions.DEFAULT_ISSUER),
                    List.of(),
                    Optional.empty(),
                    Duration.ZERO,
                    true,
                    List.of(),
                    "");

    public ServiceAccountSettings {
        issuers = List.copyOf(issuers);
        keyFiles = List.copyOf(keyFiles);
        apiAudiences = List.copyOf(apiAudiences);
        // kube bounds the maximum while completing its options, before it validates them.
        ServiceAccountOptions.maxExpirationProblem(maxExpiration)
                .ifPresent(
                        p -> {
                            throw new IllegalArgumentException(p);
                        });
        List<String> problems = ServiceAccountOptions.problems(issuers, jwksUri);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(ServiceAccountOptions.aggregate(problems));
        }
    }

    /** The issuer of the tokens this server signs. */
    public String issuer() {
        return issuers.get(0);
    }

    /** The API server's audiences: {@code --api-audiences}, else the issuers. */
    public List<String> audiences() {
        return ServiceAccountOptions.apiAudiences(apiAudiences, issuers);
    }
}
