package io.kubepekko.api.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AuthenticatorUnionTest {

    private static final UserInfo ALICE = UserInfo.of("alice", List.of("dev"));
    private static final Authentication.Authenticator ACCEPTS =
            c -> new Authentication.Authenticated(ALICE);
    private static final Authentication.Authenticator REJECTS =
            c -> new Authentication.Rejected("bad certificate");
    private static final Authentication.Authenticator ABSENT =
            c -> new Authentication.NotPresented();

    private static Credentials bearer(String token) {
        return new Credentials(List.of(), Optional.of(token), false);
    }

    @Test
    void firstAuthenticatedWinsAndGetsTheAuthenticatedGroup() {
        Authentication a =
                new AuthenticatorUnion(List.of(ABSENT, ACCEPTS), true).authenticate(bearer("x"));
        assertEquals(
                new Authentication.Authenticated(
                        UserInfo.of("alice", List.of("dev", UserInfo.AUTHENTICATED))),
                a);
    }

    @Test
    void aLaterAuthenticatorStillWinsAfterAnEarlierRejected() {
        Authentication a =
                new AuthenticatorUnion(List.of(REJECTS, ACCEPTS), false).authenticate(bearer("x"));
        assertInstanceOf(Authentication.Authenticated.class, a);
    }

    @Test
    void doesNotAddTheAuthenticatedGroupTwice() {
        UserInfo admin =
                new UserInfo(
                        "admin", "", List.of(UserInfo.AUTHENTICATED, UserInfo.MASTERS), Map.of());
        Authentication a =
                new AuthenticatorUnion(List.of(c -> new Authentication.Authenticated(admin)), true)
                        .authenticate(bearer("x"));
        assertEquals(new Authentication.Authenticated(admin), a);
    }

    @Test
    void rejectedWithNoneAuthenticatedIsRejectedEvenWithAnonymousOn() {
        Authentication a =
                new AuthenticatorUnion(List.of(ABSENT, REJECTS), true).authenticate(bearer("x"));
        assertEquals(new Authentication.Rejected("bad certificate"), a);
    }

    @Test
    void nothingPresentedIsAnonymousWhenAllowed() {
        Authentication a =
                new AuthenticatorUnion(List.of(ABSENT), true).authenticate(Credentials.none());
        assertEquals(
                new Authentication.Authenticated(
                        UserInfo.of(UserInfo.ANONYMOUS, List.of(UserInfo.UNAUTHENTICATED))),
                a);
    }

    @Test
    void nothingPresentedIsNotPresentedWhenAnonymousIsOff() {
        Authentication a =
                new AuthenticatorUnion(List.of(ABSENT), false).authenticate(Credentials.none());
        assertEquals(new Authentication.NotPresented(), a);
    }

    @Test
    void anAuthenticatorThatThrowsCostsA401NotA500() {
        Authentication a =
                new AuthenticatorUnion(
                                List.of(
                                        c -> {
                                            throw new IllegalStateException("boom");
                                        }),
                                true)
                        .authenticate(bearer("x"));
        assertInstanceOf(Authentication.Rejected.class, a);
    }

    @Test
    void anUnknownBearerTokenIsRejectedAsKubesInvalidBearerToken() {
        BearerTokenAuthenticator bearer =
                new BearerTokenAuthenticator(
                        List.of((t, aud) -> new Authentication.NotPresented()), List.of("api"));
        assertEquals(
                new Authentication.Rejected(BearerTokenAuthenticator.INVALID_TOKEN),
                new AuthenticatorUnion(List.of(bearer), true).authenticate(bearer("garbage")));
        assertEquals(new Authentication.NotPresented(), bearer.authenticate(Credentials.none()));
    }

    @Test
    void bearerTokensAreCheckedForTheApiAudiences() {
        TokenAuthenticator fileTokens =
                TokenAuthenticator.audienceAgnostic(
                        List.of("api"),
                        (t, aud) ->
                                t.equals("good")
                                        ? new Authentication.Authenticated(ALICE)
                                        : new Authentication.NotPresented());
        BearerTokenAuthenticator bearer =
                new BearerTokenAuthenticator(List.of(fileTokens), List.of("api"));
        assertEquals(
                new Authentication.Authenticated(ALICE, List.of("api")),
                bearer.authenticate(bearer("good")));
        assertEquals(
                new Authentication.Rejected(BearerTokenAuthenticator.INVALID_TOKEN),
                bearer.authenticateToken("good", List.of("vault")));
    }
}
