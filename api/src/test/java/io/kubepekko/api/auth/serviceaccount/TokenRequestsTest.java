package io.kubepekko.api.auth.serviceaccount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TokenRequestsTest {

    private static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");
    private static final TokenRequests.Settings SETTINGS =
            new TokenRequests.Settings(List.of(ISSUER), Duration.ZERO, true);
    private static final ServiceAccountTokenIssuer ISSUER_KEY =
            new ServiceAccountTokenIssuer(ISSUER, TestKeys.RSA);

    private static ObjectNode json(String s) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ObjectNode SA =
            json("{'metadata':{'name':'builder','namespace':'ci','uid':'sa-uid'}}");
    private static final ObjectNode POD =
            json(
                    "{'metadata':{'name':'web-0','uid':'pod-uid'},'spec':{'serviceAccountName':'builder','nodeName':'node-a'}}");
    private static final ObjectNode NODE = json("{'metadata':{'name':'node-a','uid':'node-uid'}}");

    private static <T> T ok(TokenRequests.Step<T> step) {
        if (step instanceof TokenRequests.Ok<T> ok) {
            return ok.value();
        }
        throw new AssertionError("expected Ok, got " + step);
    }

    private static ApiStatus refused(TokenRequests.Step<?> step) {
        return assertInstanceOf(TokenRequests.Refused.class, step).status();
    }

    private static TokenRequests.Validated validated(String body) {
        TokenRequests.Request r = ok(TokenRequests.read("ci", "builder", json(body)));
        return ok(TokenRequests.validate(r, SETTINGS));
    }

    private static JsonNode payload(String token) throws Exception {
        return Json.MAPPER.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    }

    @Test
    void issuesAnHourLongTokenForTheApiAudiencesByDefault() throws Exception {
        TokenRequests.Issued issued =
                ok(
                        TokenRequests.issue(
                                validated("{}"),
                                SA,
                                Optional.empty(),
                                Optional.empty(),
                                SETTINGS,
                                ISSUER_KEY,
                                NOW,
                                "jti-1"));
        ObjectNode r = issued.response();
        assertEquals("TokenRequest", r.path("kind").asText());
        assertEquals("authentication.k8s.io/v1", r.path("apiVersion").asText());
        assertEquals("builder", r.path("metadata").path("name").asText());
        assertEquals("ci", r.path("metadata").path("namespace").asText());
        assertEquals("2026-11-29T08:00:00Z", r.path("metadata").path("creationTimestamp").asText());
        assertEquals(
                json("{'audiences':['" + ISSUER + "'],'expirationSeconds':3600}").toString(),
                r.path("spec").toString());
        assertEquals("2026-11-29T09:00:00Z", r.path("status").path("expirationTimestamp").asText());
        JsonNode claims = payload(r.path("status").path("token").asText());
        assertEquals(NOW.getEpochSecond() + 3600, claims.path("exp").asLong());
        assertEquals(
                "sa-uid", claims.path("kubernetes.io").path("serviceaccount").path("uid").asText());
        assertEquals(List.of(), issued.warnings());

        ServiceAccountTokenAuthenticator auth =
                new ServiceAccountTokenAuthenticator(
                        List.of(ISSUER),
                        List.of(TestKeys.RSA.getPublic()),
                        List.of(ISSUER),
                        BoundObjects.of(
                                Map.of(
                                        BoundObjects.key(
                                                BoundObjects.Kind.SERVICE_ACCOUNT, "ci", "builder"),
                                        BoundObjects.Live.of("sa-uid"))),
                        InstantSource.fixed(NOW));
        UserInfo u =
                assertInstanceOf(
                                Authentication.Authenticated.class,
                                auth.authenticateToken(
                                        r.path("status").path("token").asText(), List.of()))
                        .user();
        assertEquals("system:serviceaccount:ci:builder", u.name());
    }

    @Test
    void bindsToAPodAndItsNode() throws Exception {
        TokenRequests.Validated v =
                validated(
                        "{'spec':{'audiences':['vault'],'expirationSeconds':600,'boundObjectRef':{'kind':'Pod','apiVersion':'v1','name':'web-0','uid':'pod-uid'}}}");
        TokenRequests.Issued issued =
                ok(
                        TokenRequests.issue(
                                v,
                                SA,
                                Optional.of(POD),
                                Optional.of(NODE),
                                SETTINGS,
                                ISSUER_KEY,
                                NOW,
                                "j"));
        JsonNode claims = payload(issued.response().path("status").path("token").asText());
        assertEquals(
                json("{'name':'web-0','uid':'pod-uid'}"), claims.path("kubernetes.io").path("pod"));
        assertEquals(
                json("{'name':'node-a','uid':'node-uid'}"),
                claims.path("kubernetes.io").path("node"));
        assertEquals("vault", claims.path("aud").get(0).asText());
        assertEquals(
                "Pod", issued.response().path("spec").path("boundObjectRef").path("kind").asText());
    }

    @Test
    void namesAPodsMissingNodeWithoutUid() throws Exception {
        TokenRequests.Validated v =
                validated(
                        "{'spec':{'boundObjectRef':{'kind':'Pod','apiVersion':'v1','name':'web-0'}}}");
        TokenRequests.Issued issued =
                ok(
                        TokenRequests.issue(
                                v,
                                SA,
                                Optional.of(POD),
                                Optional.empty(),
                                SETTINGS,
                                ISSUER_KEY,
                                NOW,
                                "j"));
        JsonNode claims = payload(issued.response().path("status").path("token").asText());
        assertEquals(json("{'name':'node-a'}"), claims.path("kubernetes.io").path("node"));
    }

    @Test
    void extendsKubesWarnOnlyPodBoundTokensToAYear() throws Exception {
        TokenRequests.Validated v =
                validated(
                        "{'spec':{'expirationSeconds':3607,'boundObjectRef':{'kind':'Pod','apiVersion':'v1','name':'web-0'}}}");
        TokenRequests.Issued issued =
                ok(
                        TokenRequests.issue(
                                v,
                                SA,
                                Optional.of(POD),
                                Optional.of(NODE),
                                SETTINGS,
                                ISSUER_KEY,
                                NOW,
                                "j"));
        JsonNode claims = payload(issued.response().path("status").path("token").asText());
        assertEquals(NOW.getEpochSecond() + 365L * 24 * 3600, claims.path("exp").asLong());
        assertEquals(
                NOW.getEpochSecond() + 3607,
                claims.path("kubernetes.io").path("warnafter").asLong());
        assertEquals(
                "2026-11-29T09:00:07Z",
                issued.response().path("status").path("expirationTimestamp").asText());
    }

    @Test
    void shortensToTheMaximumExpirationWithAWarning() {
        TokenRequests.Settings capped =
                new TokenRequests.Settings(List.of(ISSUER), Duration.ofHours(2), true);
        TokenRequests.Issued issued =
                ok(
                        TokenRequests.issue(
                                validated("{'spec':{'expirationSeconds':86400}}"),
                                SA,
                                Optional.empty(),
                                Optional.empty(),
                                capped,
                                ISSUER_KEY,
                                NOW,
                                "j"));
        assertEquals(
                List.of("requested expiration of 86400 seconds shortened to 7200 seconds"),
                issued.warnings());
        assertEquals(7200, issued.response().path("spec").path("expirationSeconds").asLong());
    }

    @Test
    void rejectsLifetimesOutsideKubesBoundsWith422() {
        TokenRequests.Request r =
                ok(TokenRequests.read("ci", "builder", json("{'spec':{'expirationSeconds':599}}")));
        ApiStatus s = refused(TokenRequests.validate(r, SETTINGS));
        assertEquals(422, s.code());
        assertEquals(
                "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes",
                s.message());
        r =
                ok(
                        TokenRequests.read(
                                "ci",
                                "builder",
                                json("{'spec':{'expirationSeconds':4294967297}}")));
        assertEquals(
                "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds",
                refused(TokenRequests.validate(r, SETTINGS)).message());
    }

    @Test
    void rejectsABodyNamingAnotherAccountOrNamespaceWith422() {
        ApiStatus s =
                refused(TokenRequests.read("ci", "builder", json("{'metadata':{'name':'other'}}")));
        assertEquals(422, s.code());
        assertEquals(
                "TokenRequest.authentication.k8s.io \"builder\" is invalid: metadata.name: Invalid value: \"other\": must match the service account name if specified",
                s.message());
        assertEquals(
                "TokenRequest.authentication.k8s.io \"builder\" is invalid: metadata.namespace: Invalid value: \"prod\": must match the service account namespace if specified",
                refused(
                                TokenRequests.read(
                                        "ci", "builder", json("{'metadata':{'namespace':'prod'}}")))
                        .message());
    }

    @Test
    void rejectsBindingToOtherKindsWith400() {
        for (String[] c :
                new String[][] {
                    {
                        "{'kind':'ConfigMap','apiVersion':'v1','name':'x'}",
                        "cannot bind token to object of type /v1, Kind=ConfigMap"
                    },
                    {
                        "{'kind':'Pod','apiVersion':'apps/v1','name':'x'}",
                        "cannot bind token to object of type apps/v1, Kind=Pod"
                    },
                    {"{'kind':'Pod','apiVersion':'v1'}", "Name parameter required."},
                }) {
            TokenRequests.Request r =
                    ok(
                            TokenRequests.read(
                                    "ci",
                                    "builder",
                                    json("{'spec':{'boundObjectRef':" + c[0] + "}}")));
            ApiStatus s = refused(TokenRequests.validate(r, SETTINGS));
            assertEquals(400, s.code());
            assertEquals(c[1], s.message());
        }
    }

    @Test
    void rejectsAPodOfAnotherAccountAndAStaleUid() {
        ObjectNode otherPod = POD.deepCopy();
        ((ObjectNode) otherPod.get("spec")).put("serviceAccountName", "default");
        TokenRequests.Validated v =
                validated(
                        "{'spec':{'boundObjectRef':{'kind':'Pod','apiVersion':'v1','name':'web-0','uid':'old'}}}");
        ApiStatus s =
                refused(
                        TokenRequests.issue(
                                v,
                                SA,
                                Optional.of(otherPod),
                                Optional.empty(),
                                SETTINGS,
                                ISSUER_KEY,
                                NOW,
                                "j"));
        assertEquals(400, s.code());
        assertEquals(
                "cannot bind token for serviceaccount \"builder\" to pod running with different serviceaccount name.",
                s.message());
        s =
                refused(
                        TokenRequests.issue(
                                v,
                                SA,
                                Optional.of(POD),
                                Optional.empty(),
                                SETTINGS,
                                ISSUER_KEY,
                                NOW,
                                "j"));
        assertEquals(409, s.code());
        assertEquals(
                "Operation cannot be fulfilled on Pod \"web-0\": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated",
                s.message());
    }

    @Test
    void rejectsFieldsOfTheWrongTypeWith400() {
        ApiStatus s =
                refused(
                        TokenRequests.read(
                                "ci", "builder", json("{'spec':{'expirationSeconds':'soon'}}")));
        assertEquals(400, s.code());
        assertEquals(
                "TokenRequest in version \"v1\" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64",
                s.message());
        assertEquals(
                400,
                refused(TokenRequests.read("ci", "builder", json("{'spec':{'audiences':'x'}}")))
                        .code());
        assertEquals(
                400,
                refused(
                                TokenRequests.read(
                                        "ci",
                                        "builder",
                                        json("{'spec':{'boundObjectRef':{'name':1}}}")))
                        .code());
    }
}
