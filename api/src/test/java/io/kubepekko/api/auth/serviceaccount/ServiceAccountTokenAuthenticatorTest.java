package io.kubepekko.api.auth.serviceaccount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.BearerTokenAuthenticator;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.interfaces.ECPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServiceAccountTokenAuthenticatorTest {

    private static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");
    private static final ObjectRef SA = new ObjectRef("builder", "sa-uid");
    private static final ObjectRef POD = new ObjectRef("web-0", "pod-uid");
    private static final ObjectRef NODE = new ObjectRef("node-a", "node-uid");
    private static final ObjectRef SECRET = new ObjectRef("s1", "secret-uid");

    private final Map<String, BoundObjects.Live> live = new HashMap<>();

    ServiceAccountTokenAuthenticatorTest() {
        put(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", SA);
        put(BoundObjects.Kind.POD, "ci", POD);
        put(BoundObjects.Kind.SECRET, "ci", SECRET);
        put(BoundObjects.Kind.NODE, "", NODE);
    }

    private void put(BoundObjects.Kind kind, String ns, ObjectRef ref) {
        live.put(BoundObjects.key(kind, ns, ref.name()), BoundObjects.Live.of(ref.uid()));
    }

    private ServiceAccountTokenAuthenticator authenticator(Instant at, KeyPair... keys) {
        return new ServiceAccountTokenAuthenticator(
                List.of("https://old.example", ISSUER),
                Arrays.stream(keys).map(KeyPair::getPublic).toList(),
                List.of(ISSUER),
                (kind, ns, name) -> Optional.ofNullable(live.get(BoundObjects.key(kind, ns, name))),
                InstantSource.fixed(at));
    }

    private ServiceAccountTokenAuthenticator authenticator() {
        return authenticator(NOW, TestKeys.OTHER_RSA, TestKeys.RSA, TestKeys.EC);
    }

    private static ServiceAccountClaims claims(ServiceAccountClaims.Binding binding) {
        return ServiceAccountClaims.of(
                "ci",
                SA,
                binding,
                List.of(ISSUER),
                NOW,
                Duration.ofHours(1),
                Duration.ZERO,
                "jti-1");
    }

    private static String token(ServiceAccountClaims.Binding binding) {
        return new ServiceAccountTokenIssuer(ISSUER, TestKeys.RSA).issue(claims(binding));
    }

    private static JsonNode part(String token, int i) throws Exception {
        return Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[i]));
    }

    private Authentication check(String token) {
        return authenticator().authenticateToken(token, List.of());
    }

    private static String rejection(Authentication a) {
        return assertInstanceOf(Authentication.Rejected.class, a).reason();
    }

    @Test
    void issuesKubesHeaderAndClaims() throws Exception {
        String token = token(new ServiceAccountClaims.ToPod(POD, Optional.of(NODE)));
        JsonNode header = part(token, 0);
        assertEquals("RS256", header.path("alg").asText());
        assertEquals(
                ServiceAccountKeys.keyId(TestKeys.RSA.getPublic()), header.path("kid").asText());
        assertEquals(2, header.size());
        JsonNode p = part(token, 1);
        assertEquals(ISSUER, p.path("iss").asText());
        assertEquals("system:serviceaccount:ci:builder", p.path("sub").asText());
        assertEquals(ISSUER, p.path("aud").get(0).asText());
        assertEquals(NOW.getEpochSecond(), p.path("iat").asLong());
        assertEquals(NOW.getEpochSecond(), p.path("nbf").asLong());
        assertEquals(NOW.getEpochSecond() + 3600, p.path("exp").asLong());
        assertEquals("jti-1", p.path("jti").asText());
        assertEquals(
                Json.MAPPER.readTree(
                        "{\"namespace\":\"ci\",\"node\":{\"name\":\"node-a\",\"uid\":\"node-uid\"},"
                                + "\"pod\":{\"name\":\"web-0\",\"uid\":\"pod-uid\"},"
                                + "\"serviceaccount\":{\"name\":\"builder\",\"uid\":\"sa-uid\"}}"),
                p.path("kubernetes.io"));
    }

    @Test
    void signsWithEs256ForAnEcKey() throws Exception {
        String token =
                new ServiceAccountTokenIssuer(ISSUER, TestKeys.EC)
                        .issue(claims(new ServiceAccountClaims.Unbound()));
        assertEquals("ES256", part(token, 0).path("alg").asText());
        assertInstanceOf(Authentication.Authenticated.class, check(token));
    }

    @Test
    void authenticatesAPodBoundTokenAsKubesServiceAccountUser() {
        Authentication a = check(token(new ServiceAccountClaims.ToPod(POD, Optional.of(NODE))));
        assertEquals(
                new Authentication.Authenticated(
                        new UserInfo(
                                "system:serviceaccount:ci:builder",
                                "sa-uid",
                                List.of("system:serviceaccounts", "system:serviceaccounts:ci"),
                                Map.of(
                                        ServiceAccountUser.POD_NAME, List.of("web-0"),
                                        ServiceAccountUser.POD_UID, List.of("pod-uid"),
                                        ServiceAccountUser.NODE_NAME, List.of("node-a"),
                                        ServiceAccountUser.NODE_UID, List.of("node-uid"),
                                        ServiceAccountUser.CREDENTIAL_ID, List.of("JTI=jti-1"))),
                        List.of(ISSUER)),
                a);
    }

    @Test
    void aPodBoundTokenOfADeletedNodeStillNamesTheNodeWithoutLookingItUp() {
        live.clear();
        put(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", SA);
        put(BoundObjects.Kind.POD, "ci", POD);
        Authentication a =
                check(
                        token(
                                new ServiceAccountClaims.ToPod(
                                        POD, Optional.of(new ObjectRef("node-a", "")))));
        UserInfo u = assertInstanceOf(Authentication.Authenticated.class, a).user();
        assertEquals(List.of("node-a"), u.extra().get(ServiceAccountUser.NODE_NAME));
        assertEquals(null, u.extra().get(ServiceAccountUser.NODE_UID));
    }

    @Test
    void acceptsATokenForARequestedAudienceItCarries() {
        String token =
                new ServiceAccountTokenIssuer(ISSUER, TestKeys.RSA)
                        .issue(
                                ServiceAccountClaims.of(
                                        "ci",
                                        SA,
                                        new ServiceAccountClaims.Unbound(),
                                        List.of("vault", "aws"),
                                        NOW,
                                        Duration.ofHours(1),
                                        Duration.ZERO,
                                        ""));
        Authentication a = authenticator().authenticateToken(token, List.of("aws"));
        assertEquals(
                List.of("aws"),
                assertInstanceOf(Authentication.Authenticated.class, a).audiences());
        assertEquals(
                "token audiences [\"vault\" \"aws\"] is invalid for the target audiences"
                        + " [\"https://kubernetes.default.svc.cluster.local\"]",
                rejection(check(token)));
    }

    @Test
    void rejectsABadSignature() throws Exception {
        JWSObject forged =
                new JWSObject(
                        new JWSHeader.Builder(JWSAlgorithm.RS256)
                                .keyID(ServiceAccountKeys.keyId(TestKeys.RSA.getPublic()))
                                .build(),
                        new Payload(
                                claims(new ServiceAccountClaims.Unbound())
                                        .payload(ISSUER)
                                        .toString()));
        forged.sign(new RSASSASigner(TestKeys.OTHER_RSA.getPrivate()));
        Authentication a =
                authenticator(NOW, TestKeys.RSA).authenticateToken(forged.serialize(), List.of());
        assertEquals("service account token signature is invalid", rejection(a));
        String[] parts = token(new ServiceAccountClaims.Unbound()).split("\\.");
        String tampered =
                parts[0]
                        + "."
                        + parts[1]
                        + "."
                        + parts[2].substring(0, 10)
                        + "AAAA"
                        + parts[2].substring(14);
        rejection(check(tampered));
    }

    @Test
    void triesOnlyTheKeysNamedByTheTokensKid() throws Exception {
        String token = token(new ServiceAccountClaims.Unbound());
        assertEquals(
                "invalid signature, no keys found",
                rejection(
                        authenticator(NOW, TestKeys.OTHER_RSA)
                                .authenticateToken(token, List.of())));
        JWSObject withoutKid =
                new JWSObject(
                        new JWSHeader(JWSAlgorithm.RS256),
                        new Payload(
                                claims(new ServiceAccountClaims.Unbound())
                                        .payload(ISSUER)
                                        .toString()));
        withoutKid.sign(new RSASSASigner(TestKeys.RSA.getPrivate()));
        assertInstanceOf(Authentication.Authenticated.class, check(withoutKid.serialize()));
    }

    @Test
    void acceptsATokenOfAnyAcceptedIssuerSignedOutsideWithAnyVerificationKey() throws Exception {
        // What another issuer (an older --service-account-issuer, a migration's signer) made:
        // its own issuer, an EC key, no kid, signed without ServiceAccountTokenIssuer.
        JWSObject external =
                new JWSObject(
                        new JWSHeader(JWSAlgorithm.ES256),
                        new Payload(
                                claims(new ServiceAccountClaims.Unbound())
                                        .payload("https://old.example")
                                        .toString()));
        external.sign(new ECDSASigner((ECPrivateKey) TestKeys.EC.getPrivate()));
        Authentication a = check(external.serialize());
        assertEquals(
                "system:serviceaccount:ci:builder",
                assertInstanceOf(Authentication.Authenticated.class, a).user().name());
        // Without that key among the verification keys it is refused, not left to others.
        assertEquals(
                "service account token signature is invalid",
                rejection(
                        authenticator(NOW, TestKeys.RSA)
                                .authenticateToken(external.serialize(), List.of())));
    }

    @Test
    void leavesTokensOfOtherIssuersAndGarbageToOtherAuthenticators() {
        String foreign =
                new ServiceAccountTokenIssuer("https://elsewhere", TestKeys.RSA)
                        .issue(claims(new ServiceAccountClaims.Unbound()));
        for (String t : List.of(foreign, "garbage", "a.b.c", "...", "x.!!!.y", "")) {
            assertEquals(new Authentication.NotPresented(), check(t), t);
        }
        BearerTokenAuthenticator bearer =
                new BearerTokenAuthenticator(List.of(authenticator()), List.of(ISSUER));
        assertEquals(
                new Authentication.Rejected(BearerTokenAuthenticator.INVALID_TOKEN),
                bearer.authenticateToken(foreign, List.of(ISSUER)));
    }

    @Test
    void leavesAnUnsignedAlgNoneTokenUnauthenticated() throws Exception {
        String payload =
                Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(
                                claims(new ServiceAccountClaims.Unbound())
                                        .payload(ISSUER)
                                        .toString()
                                        .getBytes(StandardCharsets.UTF_8));
        for (String alg : List.of("none", "HS256")) {
            String header =
                    Base64.getUrlEncoder()
                            .withoutPadding()
                            .encodeToString(
                                    ("{\"alg\":\"" + alg + "\"}").getBytes(StandardCharsets.UTF_8));
            Authentication a = check(header + "." + payload + ".");
            assertEquals(new Authentication.NotPresented(), a, alg);
        }
    }

    @Test
    void rejectsAnExpiredTokenAfterTheLeeway() {
        String token = token(new ServiceAccountClaims.Unbound());
        Instant expiry = NOW.plus(Duration.ofHours(1));
        assertInstanceOf(
                Authentication.Authenticated.class,
                authenticator(expiry.plusSeconds(60), TestKeys.RSA)
                        .authenticateToken(token, List.of()));
        assertEquals(
                "service account token has expired",
                rejection(
                        authenticator(expiry.plusSeconds(61), TestKeys.RSA)
                                .authenticateToken(token, List.of())));
    }

    @Test
    void rejectsATokenNotYetValidBeyondTheLeeway() {
        String token = token(new ServiceAccountClaims.Unbound());
        assertInstanceOf(
                Authentication.Authenticated.class,
                authenticator(NOW.minusSeconds(60), TestKeys.RSA)
                        .authenticateToken(token, List.of()));
        assertEquals(
                "service account token is not valid yet",
                rejection(
                        authenticator(NOW.minusSeconds(61), TestKeys.RSA)
                                .authenticateToken(token, List.of())));
    }

    @Test
    void rejectsATokenWhoseServiceAccountIsGoneOrRecreated() {
        String token = token(new ServiceAccountClaims.Unbound());
        live.put(
                BoundObjects.key(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", "builder"),
                BoundObjects.Live.of("new-uid"));
        assertEquals(
                "service account UID (new-uid) does not match claim (sa-uid)",
                rejection(check(token)));
        live.put(
                BoundObjects.key(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", "builder"),
                new BoundObjects.Live("sa-uid", Optional.of(NOW.minusSeconds(61))));
        assertEquals("service account ci/builder has been deleted", rejection(check(token)));
        live.put(
                BoundObjects.key(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", "builder"),
                new BoundObjects.Live("sa-uid", Optional.of(NOW.minusSeconds(59))));
        assertInstanceOf(Authentication.Authenticated.class, check(token));
        live.remove(BoundObjects.key(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", "builder"));
        assertEquals("serviceaccounts \"builder\" not found", rejection(check(token)));
    }

    @Test
    void rejectsATokenWhoseBoundPodSecretOrNodeIsGoneOrRecreated() {
        String podToken = token(new ServiceAccountClaims.ToPod(POD, Optional.empty()));
        String secretToken = token(new ServiceAccountClaims.ToSecret(SECRET));
        String nodeToken = token(new ServiceAccountClaims.ToNode(NODE));
        live.put(
                BoundObjects.key(BoundObjects.Kind.POD, "ci", "web-0"),
                BoundObjects.Live.of("other"));
        assertEquals(
                "pod UID (other) does not match service account pod ref claim (pod-uid)",
                rejection(check(podToken)));
        live.put(
                BoundObjects.key(BoundObjects.Kind.SECRET, "ci", "s1"),
                BoundObjects.Live.of("other"));
        assertEquals(
                "secret UID (other) does not match service account secret ref claim (secret-uid)",
                rejection(check(secretToken)));
        live.put(
                BoundObjects.key(BoundObjects.Kind.NODE, "", "node-a"),
                BoundObjects.Live.of("other"));
        assertEquals(
                "node UID (other) does not match service account node ref claim (node-uid)",
                rejection(check(nodeToken)));
        live.clear();
        put(BoundObjects.Kind.SERVICE_ACCOUNT, "ci", SA);
        for (String t : List.of(podToken, secretToken, nodeToken)) {
            assertEquals("service account token has been invalidated", rejection(check(t)));
        }
    }

    @Test
    void rejectsOversizeTokens() {
        String big = "a".repeat(ServiceAccountTokenAuthenticator.MAX_TOKEN_LENGTH + 1);
        rejection(check(big));
    }

    @Test
    void rejectsSignedClaimsOfTheWrongShape() throws Exception {
        for (String bad :
                List.of(
                        "{\"iss\":\""
                                + ISSUER
                                + "\",\"exp\":\"soon\",\"kubernetes.io\":{\"namespace\":\"ci\",\"serviceaccount\":{\"name\":\"builder\",\"uid\":\"sa-uid\"}}}",
                        "{\"iss\":\""
                                + ISSUER
                                + "\",\"aud\":[1],\"kubernetes.io\":{\"namespace\":\"ci\",\"serviceaccount\":{\"name\":\"builder\",\"uid\":\"sa-uid\"}}}",
                        "{\"iss\":\"" + ISSUER + "\",\"sub\":\"x\"}",
                        "{\"iss\":\""
                                + ISSUER
                                + "\",\"kubernetes.io\":{\"serviceaccount\":\"builder\"}}")) {
            JWSObject jws = new JWSObject(new JWSHeader(JWSAlgorithm.RS256), new Payload(bad));
            jws.sign(new RSASSASigner(TestKeys.RSA.getPrivate()));
            assertEquals(
                    "service account token claims could not be parsed",
                    rejection(check(jws.serialize())),
                    bad);
        }
    }

    @Test
    void computesKubesKeyIdFromThePkixDer() throws Exception {
        byte[] hash =
                MessageDigest.getInstance("SHA-256").digest(TestKeys.EC.getPublic().getEncoded());
        assertEquals(
                Base64.getUrlEncoder().withoutPadding().encodeToString(hash),
                ServiceAccountKeys.keyId(TestKeys.EC.getPublic()));
        assertEquals(43, ServiceAccountKeys.keyId(TestKeys.RSA.getPublic()).length());
    }
}
