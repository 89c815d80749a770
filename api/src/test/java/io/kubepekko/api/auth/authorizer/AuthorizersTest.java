package io.kubepekko.api.auth.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.auth.UserInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuthorizersTest {

    private static final UserInfo ALICE = UserInfo.of("alice", List.of(UserInfo.AUTHENTICATED));
    private static final UserInfo ADMIN =
            UserInfo.of("admin", List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED));
    private static final AuthorizationAttributes GET_POD =
            AuthorizationAttributes.resource(ALICE, "get", "ns", "", "v1", "pods", "", "x");

    @Test
    void alwaysAllowAllowsWithoutReason() {
        assertEquals(Decision.allow(""), Authorizers.alwaysAllow().authorize(GET_POD));
    }

    @Test
    void alwaysDenyHasNoOpinionWithKubesReason() {
        assertEquals(
                Decision.noOpinion("Everything is forbidden."),
                Authorizers.alwaysDeny().authorize(GET_POD));
    }

    @Test
    void systemMastersAllowsOnlyMembers() {
        Authorizer masters = Authorizers.systemMasters();
        assertEquals(Decision.Outcome.ALLOW, masters.authorize(GET_POD.withUser(ADMIN)).outcome());
        assertEquals(Decision.noOpinion(""), masters.authorize(GET_POD));
    }

    @Test
    void unionStopsAtTheFirstAllowOrDeny() {
        Authorizer deny = a -> Decision.deny("no");
        Authorizer allow = a -> Decision.allow("yes");
        assertEquals(
                Decision.deny("no"),
                Authorizers.union(Authorizers.alwaysDeny(), deny, allow).authorize(GET_POD));
        assertEquals(
                Decision.allow("yes"),
                Authorizers.union(Authorizers.systemMasters(), allow, deny).authorize(GET_POD));
    }

    @Test
    void alwaysDenyBeforeAnotherModeLetsThatModeAllow() {
        assertEquals(
                Decision.Outcome.ALLOW,
                Authorizers.union(Authorizers.alwaysDeny(), Authorizers.alwaysAllow())
                        .authorize(GET_POD)
                        .outcome());
    }

    @Test
    void unionWithoutOpinionJoinsTheNonEmptyReasonsByNewline() {
        Authorizer first = a -> Decision.noOpinion("first");
        Authorizer silent = a -> Decision.noOpinion("");
        Authorizer second = a -> Decision.noOpinion("second");
        assertEquals(
                Decision.noOpinion("first\nsecond"),
                Authorizers.union(first, silent, second).authorize(GET_POD));
        assertEquals(Decision.noOpinion(""), Authorizers.union().authorize(GET_POD));
    }
}
