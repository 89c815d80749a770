package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.http.security.ServiceAccountSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * kube-apiserver's service-account flags and {@code --api-audiences}: defaults, lists, refusals.
 */
class ServiceAccountFlagsTest {

    private static final String DEFAULT_ISSUER = "https://kubernetes.default.svc.cluster.local";

    private static ServiceAccountSettings settings(String... args)
            throws ApiServerFlags.UsageException {
        return ApiServerFlags.parse(args, new Properties())
                .settings()
                .secure()
                .access()
                .serviceAccounts();
    }

    private static String error(String... args) {
        return assertThrows(
                        ApiServerFlags.UsageException.class,
                        () -> ApiServerFlags.parse(args, new Properties()))
                .getMessage();
    }

    @Test
    void theDefaultsAreTheGeneratedKeyKubeadmsIssuerAndNoMaximum() throws Exception {
        ServiceAccountSettings s = settings();
        assertEquals(List.of(DEFAULT_ISSUER), s.issuers());
        assertEquals(DEFAULT_ISSUER, s.issuer());
        assertEquals(List.of(), s.keyFiles());
        assertEquals(Optional.empty(), s.signingKeyFile());
        assertEquals(Duration.ZERO, s.maxExpiration());
        assertTrue(s.extendExpiration());
        assertEquals(List.of(), s.apiAudiences());
        assertEquals(List.of(DEFAULT_ISSUER), s.audiences());
        assertEquals("", s.jwksUri());
        assertEquals(ServiceAccountSettings.DEFAULT, s);
    }

    @Test
    void issuersAndKeyFilesRepeatAndKeepCommasAsKubesStringArrays() throws Exception {
        ServiceAccountSettings s =
                settings(
                        "--service-account-issuer=https://new.example",
                        "--service-account-issuer",
                        "https://old.example,legacy",
                        "--service-account-key-file=/k/a.pub",
                        "--service-account-key-file=/k/b,c.pem",
                        "--service-account-signing-key-file=/k/a.key");
        assertEquals(List.of("https://new.example", "https://old.example,legacy"), s.issuers());
        assertEquals("https://new.example", s.issuer());
        assertEquals(List.of(Path.of("/k/a.pub"), Path.of("/k/b,c.pem")), s.keyFiles());
        assertEquals(Optional.of(Path.of("/k/a.key")), s.signingKeyFile());
        // without --api-audiences the audiences are every issuer
        assertEquals(s.issuers(), s.audiences());
    }

    @Test
    void apiAudiencesAreCommaListsAppendedAsKubesStringSlice() throws Exception {
        ServiceAccountSettings s =
                settings("--api-audiences=api,vault", "--api-audiences", "https://extra");
        assertEquals(List.of("api", "vault", "https://extra"), s.apiAudiences());
        assertEquals(List.of("api", "vault", "https://extra"), s.audiences());
        assertEquals(List.of(DEFAULT_ISSUER), settings("--api-audiences=").audiences());
    }

    @Test
    void theMaximumTheExtensionAndTheJwksUriAreRead() throws Exception {
        ServiceAccountSettings s =
                settings(
                        "--service-account-max-token-expiration=2h30m",
                        "--service-account-extend-token-expiration=false",
                        "--service-account-jwks-uri=https://keys.example/jwks");
        assertEquals(Duration.ofMinutes(150), s.maxExpiration());
        assertFalse(s.extendExpiration());
        assertEquals("https://keys.example/jwks", s.jwksUri());
    }

    @Test
    void aMaximumOutsideAnHourTo2To32SecondsIsRefusedInKubesWords() {
        String range =
                "the service-account-max-token-expiration must be between 1 hour and 2^32 seconds";
        assertEquals(range, error("--service-account-max-token-expiration=59m"));
        assertEquals(range, error("--service-account-max-token-expiration=-2h"));
        assertEquals(range, error("--service-account-max-token-expiration=1193047h"));
        assertEquals(
                "invalid argument \"1day\" for \"--service-account-max-token-expiration\" flag:"
                        + " time: invalid duration \"1day\"",
                error("--service-account-max-token-expiration=1day"));
    }

    @Test
    void badIssuersAreRefusedTogetherInKubesWords() {
        assertEquals(
                "service-account-issuer \"https://a\" is already specified",
                error("--service-account-issuer=https://a", "--service-account-issuer=https://a"));
        assertEquals(
                "service-account-issuer should not be an empty string",
                error("--service-account-issuer="));
        assertEquals(
                "[service-account-issuer \"https://a b\" contained a ':' but was not a valid URL:"
                        + " parse \"https://a b\": invalid character \" \" in host name,"
                        + " service-account-jwks-uri requires https scheme, parsed as:"
                        + " http://keys.example/jwks]",
                error(
                        "--service-account-issuer=https://a b",
                        "--service-account-jwks-uri=http://keys.example/jwks"));
    }

    @Test
    void theHelpListsTheFlagsWithKubesTypes() {
        String usage = ApiServerFlags.USAGE;
        for (String line :
                List.of(
                        "--api-audiences strings",
                        "--service-account-issuer stringArray",
                        "--service-account-jwks-uri string",
                        "--service-account-key-file stringArray",
                        "--service-account-max-token-expiration duration",
                        "--service-account-extend-token-expiration ",
                        "--service-account-signing-key-file string",
                        "(default [" + DEFAULT_ISSUER + "])")) {
            assertTrue(usage.contains(line), line);
        }
    }
}
