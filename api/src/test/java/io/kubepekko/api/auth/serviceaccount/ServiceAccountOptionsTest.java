package io.kubepekko.api.auth.serviceaccount;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** kube-apiserver's checks of its service-account flags, in its words. */
class ServiceAccountOptionsTest {

    private static final String RANGE =
            "the service-account-max-token-expiration must be between 1 hour and 2^32 seconds";

    @Test
    void issuersAreUrlsOrStringsWithoutAColonNeitherEmptyNorRepeated() {
        assertEquals(
                List.of(),
                ServiceAccountOptions.problems(
                        List.of("https://kubernetes.default.svc", "kubernetes/serviceaccount"),
                        ""));
        assertEquals(
                List.of(
                        "service-account-issuer \"https://a\" is already specified",
                        "service-account-issuer should not be an empty string",
                        "service-account-issuer \"1x:y\" contained a ':' but was not a valid URL:"
                                + " parse \"1x:y\": first path segment in URL cannot contain colon"),
                ServiceAccountOptions.problems(List.of("https://a", "https://a", "", "1x:y"), ""));
        assertEquals(
                List.of("service-account-issuer is a required flag"),
                ServiceAccountOptions.problems(List.of(), ""));
    }

    @Test
    void theJwksUriMustBeAnHttpsUrl() {
        assertEquals(
                List.of(),
                ServiceAccountOptions.problems(
                        List.of("https://a"), "https://keys.example/openid/v1/jwks"));
        assertEquals(
                List.of(
                        "service-account-jwks-uri requires https scheme, parsed as:"
                                + " http://keys.example/a%20b"),
                ServiceAccountOptions.problems(List.of("https://a"), "HTTP://keys.example/a b"));
        assertEquals(
                List.of("service-account-jwks-uri requires https scheme, parsed as: keys"),
                ServiceAccountOptions.problems(List.of("https://a"), "keys"));
        assertEquals(
                List.of(
                        "service-account-jwks-uri must be a valid URL: parse \"https://[k\":"
                                + " missing ']' in host"),
                ServiceAccountOptions.problems(List.of("https://a"), "https://[k"));
    }

    @Test
    void aMaximumExpirationIsZeroOrBetweenAnHourAnd2To32Seconds() {
        for (Duration ok :
                List.of(
                        Duration.ZERO,
                        Duration.ofHours(1),
                        Duration.ofDays(400),
                        Duration.ofSeconds(1L << 32))) {
            assertEquals(
                    Optional.empty(),
                    ServiceAccountOptions.maxExpirationProblem(ok),
                    ok.toString());
        }
        for (Duration bad :
                List.of(
                        Duration.ofSeconds(3599),
                        Duration.ofSeconds((1L << 32) + 1),
                        Duration.ofHours(-2))) {
            assertEquals(
                    Optional.of(RANGE),
                    ServiceAccountOptions.maxExpirationProblem(bad),
                    bad.toString());
        }
    }

    @Test
    void warnsWhenTheMaximumDefeatsTheExtendedPodBoundTokens() {
        assertEquals(
                List.of(
                        "service-account-extend-token-expiration is true, in order to correctly"
                                + " trigger safe transition logic, service-account-max-token-expiration"
                                + " must be set longer than 3607 seconds (currently 1h0m0s)",
                        "service-account-extend-token-expiration is true, enabling tokens valid up"
                                + " to 31536000 seconds, which is longer than"
                                + " service-account-max-token-expiration set to 1h0m0s"),
                ServiceAccountOptions.warnings(Duration.ofHours(1), true));
        assertEquals(1, ServiceAccountOptions.warnings(Duration.ofHours(2), true).size());
        assertEquals(List.of(), ServiceAccountOptions.warnings(Duration.ofDays(366), true));
        assertEquals(List.of(), ServiceAccountOptions.warnings(Duration.ofHours(1), false));
        assertEquals(List.of(), ServiceAccountOptions.warnings(Duration.ZERO, true));
    }

    @Test
    void theApiAudiencesDefaultToTheIssuers() {
        assertEquals(
                List.of("https://a", "https://b"),
                ServiceAccountOptions.apiAudiences(List.of(), List.of("https://a", "https://b")));
        assertEquals(
                List.of("api"),
                ServiceAccountOptions.apiAudiences(List.of("api"), List.of("https://a")));
    }

    @Test
    void errorsAreAggregatedAsGoPrintsThem() {
        assertEquals("a", ServiceAccountOptions.aggregate(List.of("a")));
        assertEquals("a", ServiceAccountOptions.aggregate(List.of("a", "a")));
        assertEquals("[a, b]", ServiceAccountOptions.aggregate(List.of("a", "b", "a")));
    }
}
