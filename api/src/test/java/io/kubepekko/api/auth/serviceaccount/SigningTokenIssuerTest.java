package io.kubepekko.api.auth.serviceaccount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.meta.Json;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SigningTokenIssuerTest {

    private static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00.750Z");
    private static final Instant NOW_SECONDS = Instant.parse("2026-11-29T08:00:00Z");

    private final BoundObjects objects =
            BoundObjects.of(
                    Map.of(
                            BoundObjects.key(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", "builder"),
                            BoundObjects.Live.of("sa-uid"),
                            BoundObjects.key(BoundObjects.Kind.POD, "ci", "web-0"),
                            BoundObjects.Live.of("pod-uid"),
                            BoundObjects.key(BoundObjects.Kind.NODE, "", "node-a"),
                            BoundObjects.Live.of("node-uid")));

    private final SigningTokenIssuer issuer = issuer(true);

    private SigningTokenIssuer issuer(boolean extendExpiration) {
        return new SigningTokenIssuer(
                new ServiceAccountTokenIssuer(ISSUER, TestKeys.RSA),
                List.of(ISSUER),
                Duration.ofHours(2),
                extendExpiration,
                objects,
                InstantSource.fixed(NOW),
                () -> "jti-1");
    }

    private static ObjectNode object(String namespace, String name, String uid) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        ObjectNode meta = o.putObject("metadata");
        meta.put("namespace", namespace);
        meta.put("name", name);
        meta.put("uid", uid);
        return o;
    }

    private static JsonNode claims(String token) throws Exception {
        return Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    }

    @Test
    void anUnboundTokenNamesTheServiceAccountAndExpiresWhenAsked() throws Exception {
        TokenIssuer.Result result =
                issuer.issue(
                        object("ci", "builder", "sa-uid"),
                        new TokenIssuer.Request(List.of(ISSUER), 3600, Optional.empty()),
                        Optional.empty());
        TokenIssuer.Issued issued = assertInstanceOf(TokenIssuer.Issued.class, result);
        assertEquals(NOW_SECONDS.plusSeconds(3600), issued.expiration());
        JsonNode claims = claims(issued.token());
        assertEquals(ISSUER, claims.path("iss").asText());
        assertEquals("system:serviceaccount:ci:builder", claims.path("sub").asText());
        assertEquals("sa-uid", claims.at("/kubernetes.io/serviceaccount/uid").asText());
        assertEquals("jti-1", claims.path("jti").asText());
        assertEquals(NOW_SECONDS.getEpochSecond() + 3600, claims.path("exp").asLong());
        assertFalse(claims.path("kubernetes.io").has("pod"));
    }

    @Test
    void aPodBoundTokenNamesThePodAndItsNodeWithTheNodesUid() throws Exception {
        ObjectNode pod = object("ci", "web-0", "pod-uid");
        pod.putObject("spec").put("nodeName", "node-a");
        TokenIssuer.Issued issued =
                (TokenIssuer.Issued)
                        issuer.issue(
                                object("ci", "builder", "sa-uid"),
                                new TokenIssuer.Request(
                                        List.of("vault"),
                                        3600,
                                        Optional.of(
                                                new TokenIssuer.BoundObjectRef(
                                                        "v1", "Pod", "web-0", ""))),
                                Optional.of(pod));
        JsonNode k8s = claims(issued.token()).path("kubernetes.io");
        assertEquals("pod-uid", k8s.at("/pod/uid").asText());
        assertEquals("node-a", k8s.at("/node/name").asText());
        assertEquals("node-uid", k8s.at("/node/uid").asText());
    }

    @Test
    void kubesExtendedPodBoundTokenLivesAYearAndWarnsAfterTheHourAsked() throws Exception {
        ObjectNode pod = object("ci", "web-0", "pod-uid");
        TokenIssuer.Issued issued =
                (TokenIssuer.Issued)
                        issuer.issue(
                                object("ci", "builder", "sa-uid"),
                                new TokenIssuer.Request(
                                        List.of(ISSUER),
                                        3607,
                                        Optional.of(
                                                new TokenIssuer.BoundObjectRef(
                                                        "v1", "Pod", "web-0", ""))),
                                Optional.of(pod));
        JsonNode claims = claims(issued.token());
        assertEquals(NOW_SECONDS.plusSeconds(3607), issued.expiration());
        assertEquals(
                NOW_SECONDS.plus(SigningTokenIssuer.EXTENDED_EXPIRATION).getEpochSecond(),
                claims.path("exp").asLong());
        assertEquals(
                NOW_SECONDS.getEpochSecond() + 3607,
                claims.at("/kubernetes.io/warnafter").asLong());
    }

    @Test
    void withoutTheExtensionAPodBoundTokenLivesWhatWasAsked() throws Exception {
        TokenIssuer.Issued issued =
                (TokenIssuer.Issued)
                        issuer(false)
                                .issue(
                                        object("ci", "builder", "sa-uid"),
                                        new TokenIssuer.Request(
                                                List.of(ISSUER),
                                                3607,
                                                Optional.of(
                                                        new TokenIssuer.BoundObjectRef(
                                                                "v1", "Pod", "web-0", ""))),
                                        Optional.of(object("ci", "web-0", "pod-uid")));
        JsonNode claims = claims(issued.token());
        assertEquals(NOW_SECONDS.getEpochSecond() + 3607, claims.path("exp").asLong());
        assertFalse(claims.path("kubernetes.io").has("warnafter"));
    }

    @Test
    void reportsItsMaximumExpirationForTheRouteToShortenRequests() {
        assertEquals(Duration.ofHours(2), issuer.maxExpiration());
        assertEquals(Duration.ZERO, TokenIssuer.unconfigured().maxExpiration());
    }

    @Test
    void anIssuedTokenAuthenticatesWithThePublicKey() {
        TokenIssuer.Issued issued =
                (TokenIssuer.Issued)
                        issuer.issue(
                                object("ci", "builder", "sa-uid"),
                                new TokenIssuer.Request(List.of(ISSUER), 3600, Optional.empty()),
                                Optional.empty());
        Authentication auth =
                new ServiceAccountTokenAuthenticator(
                                List.of(ISSUER),
                                List.of(TestKeys.RSA.getPublic()),
                                List.of(ISSUER),
                                objects,
                                InstantSource.fixed(NOW))
                        .authenticateToken(issued.token(), List.of());
        Authentication.Authenticated ok =
                assertInstanceOf(Authentication.Authenticated.class, auth);
        assertEquals("system:serviceaccount:ci:builder", ok.user().name());
    }
}
