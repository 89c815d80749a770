package io.kubepekko.api.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReviewsTest {

    private static final UserInfo BOB =
            new UserInfo("bob", "uid-b", List.of("dev"), Map.of("scopes", List.of("a")));

    private static ObjectNode json(String s) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static final TokenAuthenticator TOKENS =
            new BearerTokenAuthenticator(
                            List.of(
                                    TokenAuthenticator.audienceAgnostic(
                                            List.of("api"),
                                            (t, aud) ->
                                                    t.equals("good")
                                                            ? new Authentication.Authenticated(BOB)
                                                            : new Authentication.NotPresented())),
                            List.of("api"))
                    ::authenticateToken;

    private static ObjectNode review(String body) {
        return assertInstanceOf(
                        Reviews.Reviewed.class,
                        Reviews.tokenReview(json(body), TOKENS, List.of("api")))
                .response();
    }

    @Test
    void reportsTheUserOfAValidTokenWithTheAuthenticatedGroup() {
        ObjectNode r =
                review(
                        "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenReview','spec':{'token':'good'}}");
        assertEquals(
                json(
                        "{'authenticated':true,'user':{'username':'bob','uid':'uid-b','groups':['dev','system:authenticated'],'extra':{'scopes':['a']}},'audiences':['api']}"),
                r.path("status"));
        assertEquals("good", r.path("spec").path("token").asText());
    }

    @Test
    void reportsAnInvalidTokenAsUnauthenticatedWithKubesError() {
        ObjectNode r = review("{'spec':{'token':'bad'}}");
        assertEquals(json("{'user':{},'error':'invalid bearer token'}"), r.path("status"));
    }

    @Test
    void aTokenForOtherAudiencesIsNotAuthenticated() {
        ObjectNode r = review("{'spec':{'token':'good','audiences':['vault']}}");
        assertEquals(false, r.path("status").path("authenticated").asBoolean());
    }

    @Test
    void requiresAToken() {
        Reviews.Refused refused =
                assertInstanceOf(
                        Reviews.Refused.class,
                        Reviews.tokenReview(json("{'spec':{}}"), TOKENS, List.of("api")));
        assertEquals(400, refused.status().code());
        assertEquals(
                "token is required for TokenReview in authentication", refused.status().message());
    }

    @Test
    void refusesAudiencesOfTheWrongType() {
        for (String body :
                List.of(
                        "{'spec':{'token':'good','audiences':'api'}}",
                        "{'spec':{'token':'good','audiences':[1]}}")) {
            Reviews.Refused refused =
                    assertInstanceOf(
                            Reviews.Refused.class,
                            Reviews.tokenReview(json(body), TOKENS, List.of("api")));
            assertEquals(400, refused.status().code());
        }
    }

    @Test
    void answersWhoAmIWithTheRequestsUser() {
        assertEquals(
                json(
                        "{'kind':'SelfSubjectReview','apiVersion':'authentication.k8s.io/v1','metadata':{'creationTimestamp':'2026-11-29T08:00:00Z'},"
                                + "'status':{'userInfo':{'username':'system:anonymous','groups':['system:unauthenticated']}}}"),
                Reviews.selfSubjectReview(
                        UserInfo.anonymous(), Instant.parse("2026-11-29T08:00:00.5Z")));
    }
}
