package io.kubepekko.agent.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.agent.runtime.TokenRequestKey;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The kubelet token manager's request and refresh rule: a TokenRequest bound to the pod with the
 * projection's audience and lifetime, and a refresh once 80 % of the lifetime has passed or the
 * token is 24 h old.
 */
class ServiceAccountTokensTest {

    private static final Instant ISSUED = Instant.parse("2026-11-30T05:00:00Z");

    @Test
    void theRequestIsBoundToThePodWithTheProjectionsAudienceAndLifetime() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        assertEquals(
                mapper.readTree(
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                                + "\"spec\":{\"expirationSeconds\":3607,\"boundObjectRef\":"
                                + "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\",\"uid\":\"u-1\"}}}"),
                mapper.readTree(
                        ServiceAccountTokens.request(new TokenRequestKey("", 3607), "p", "u-1")
                                .toString()));
        JsonNode audience =
                ServiceAccountTokens.request(new TokenRequestKey("vault", 600), "p", "u-1");
        assertEquals("vault", audience.at("/spec/audiences/0").asText());
        assertEquals(1, audience.at("/spec/audiences").size());
    }

    @Test
    void aTokenIsRefreshedAfterEightyPercentOfItsLifetime() {
        ServiceAccountTokens.Issued token =
                new ServiceAccountTokens.Issued("t", ISSUED.plusSeconds(3600), 3600);
        assertFalse(ServiceAccountTokens.requiresRefresh(ISSUED, token));
        assertFalse(ServiceAccountTokens.requiresRefresh(ISSUED.plusSeconds(2880), token));
        assertTrue(ServiceAccountTokens.requiresRefresh(ISSUED.plusSeconds(2881), token));
    }

    @Test
    void aLongLivedTokenIsRefreshedAfterADay() {
        ServiceAccountTokens.Issued year =
                new ServiceAccountTokens.Issued(
                        "t", ISSUED.plusSeconds(365L * 86400), 365L * 86400);
        assertFalse(ServiceAccountTokens.requiresRefresh(ISSUED.plusSeconds(86400), year));
        assertTrue(ServiceAccountTokens.requiresRefresh(ISSUED.plusSeconds(86401), year));
    }

    @Test
    void theIssuedLifetimeIsTheAnswersSpec() throws Exception {
        JsonNode answer =
                new ObjectMapper()
                        .readTree(
                                "{\"spec\":{\"expirationSeconds\":7200},\"status\":{\"token\":\"jwt\","
                                        + "\"expirationTimestamp\":\"2026-11-30T07:00:00Z\"}}");
        assertEquals(
                new ServiceAccountTokens.Issued("jwt", ISSUED.plusSeconds(7200), 7200),
                ServiceAccountTokens.issued(answer, new TokenRequestKey("", 3600)));
    }
}
