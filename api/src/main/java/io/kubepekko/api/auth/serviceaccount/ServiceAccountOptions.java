package io.kubepekko.api.auth.serviceaccount;

import io.kubepekko.api.meta.GoDurations;
import io.kubepekko.api.meta.GoUrl;
import io.kubepekko.api.status.FieldError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube-apiserver's checks and defaults of its service-account flags, in its words: the issuers and
 * the JWKS URI as {@code BuiltInAuthenticationOptions.Validate} checks them, the maximum token
 * expiration as {@code Options.Complete} bounds it (and the warnings it logs), and {@code
 * --api-audiences} defaulting to the issuers.
 */
public final class ServiceAccountOptions {
    private ServiceAccountOptions() {}

    /**
     * The issuer when none is given: kubeadm's and k3s' {@code --service-account-issuer} (kube has
     * no default and requires the flag).
     */
    public static final String DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";

    /** The shortest {@code --service-account-max-token-expiration} kube accepts (0 means none). */
    public static final Duration MIN_MAX_EXPIRATION = Duration.ofHours(1);

    /** The longest {@code --service-account-max-token-expiration} kube accepts: 2^32 seconds. */
    public static final Duration MAX_MAX_EXPIRATION = Duration.ofSeconds(1L << 32);

    /**
     * kube's refusals of {@code --service-account-issuer} and {@code --service-account-jwks-uri},
     * in its order; empty when both are fine.
     *
     * @param issuers every issuer given, in order
     * @param jwksUri the JWKS URI, empty when not given
     */
    public static List<String> problems(List<String> issuers, String jwksUri) {
        List<String> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String issuer : issuers) {
            if (issuer.contains(":")) {
                try {
                    GoUrl.parse(issuer);
                } catch (GoUrl.Invalid e) {
                    problems.add(
                            "service-account-issuer "
                                    + FieldError.quote(issuer)
                                    + " contained a ':' but was not a valid URL: "
                                    + e.getMessage());
                    continue;
                }
            }
            if (issuer.isEmpty()) {
                problems.add("service-account-issuer should not be an empty string");
                continue;
            }
            if (!seen.add(issuer)) {
                problems.add(
                        "service-account-issuer "
                                + FieldError.quote(issuer)
                                + " is already specified");
            }
        }
        if (issuers.isEmpty()) {
            problems.add("service-account-issuer is a required flag");
        }
        if (!jwksUri.isEmpty()) {
            try {
                GoUrl uri = GoUrl.parse(jwksUri);
                if (!uri.scheme().equals("https")) {
                    problems.add(
                            "service-account-jwks-uri requires https scheme, parsed as: " + uri);
                }
            } catch (GoUrl.Invalid e) {
                problems.add("service-account-jwks-uri must be a valid URL: " + e.getMessage());
            }
        }
        return problems;
    }

    /**
     * kube's refusal of {@code --service-account-max-token-expiration}: zero means no limit, any
     * other value must lie between an hour and 2^32 seconds.
     */
    public static Optional<String> maxExpirationProblem(Duration max) {
        if (!max.isZero()
                && (max.compareTo(MIN_MAX_EXPIRATION) < 0
                        || max.compareTo(MAX_MAX_EXPIRATION) > 0)) {
            return Optional.of(
                    "the service-account-max-token-expiration must be between 1 hour and 2^32"
                            + " seconds");
        }
        return Optional.empty();
    }

    /**
     * What kube logs at start when a maximum expiration keeps the extended pod-bound tokens of
     * {@code --service-account-extend-token-expiration} from working as meant.
     */
    public static List<String> warnings(Duration max, boolean extendExpiration) {
        List<String> warnings = new ArrayList<>();
        if (!extendExpiration || max.isZero()) {
            return warnings;
        }
        String shown = GoDurations.format(max.toNanos());
        if (max.getSeconds() < SigningTokenIssuer.WARN_ONLY_EXPIRATION_SECONDS) {
            warnings.add(
                    "service-account-extend-token-expiration is true, in order to correctly"
                            + " trigger safe transition logic, service-account-max-token-expiration"
                            + " must be set longer than "
                            + SigningTokenIssuer.WARN_ONLY_EXPIRATION_SECONDS
                            + " seconds (currently "
                            + shown
                            + ")");
        }
        if (max.compareTo(SigningTokenIssuer.EXTENDED_EXPIRATION) < 0) {
            warnings.add(
                    "service-account-extend-token-expiration is true, enabling tokens valid up to "
                            + SigningTokenIssuer.EXTENDED_EXPIRATION.getSeconds()
                            + " seconds, which is longer than service-account-max-token-expiration"
                            + " set to "
                            + shown);
        }
        return warnings;
    }

    /**
     * The API server's audiences: {@code --api-audiences} when given, else the issuers (kube:
     * "defaults to a single element list containing the issuer URL", every issuer since issuers
     * became a list).
     */
    public static List<String> apiAudiences(List<String> given, List<String> issuers) {
        return List.copyOf(given.isEmpty() ? issuers : given);
    }

    /**
     * Go's error aggregate as kube-apiserver prints its option errors: one error as it is, several
     * (duplicates dropped) as {@code [a, b]}.
     */
    public static String aggregate(List<String> errors) {
        Set<String> distinct = new LinkedHashSet<>(errors);
        if (distinct.size() == 1) {
            return distinct.iterator().next();
        }
        return "[" + String.join(", ", distinct) + "]";
    }
}
