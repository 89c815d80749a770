package io.kubepekko.api.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.auth.Impersonation.Outcome;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ImpersonationTest {

    private static final UserInfo ADMIN =
            UserInfo.of("admin", List.of("admins", UserInfo.AUTHENTICATED));

    private final List<AuthorizationAttributes> asked = new ArrayList<>();

    private Authorizer allowing() {
        return a -> {
            asked.add(a);
            return Decision.allow("");
        };
    }

    private static List<Map.Entry<String, String>> headers(String... pairs) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.add(Map.entry(pairs[i], pairs[i + 1]));
        }
        return out;
    }

    private Outcome decide(Authorizer authorizer, String... pairs) {
        return Impersonation.decide(ADMIN, Impersonation.read(headers(pairs)), authorizer);
    }

    @Test
    void withoutImpersonationHeadersTheRequesterActsAsItself() {
        Outcome outcome = decide(allowing(), "Accept", "application/json");
        assertEquals(new Outcome.ActAs(ADMIN), outcome);
        assertTrue(asked.isEmpty());
    }

    @Test
    void anImpersonatedUserIsCheckedAsUsersAndGetsTheAuthenticatedGroup() {
        Outcome outcome = decide(allowing(), "impersonate-user", "jane");
        UserInfo jane = assertInstanceOf(Outcome.ActAs.class, outcome).user();
        assertEquals("jane", jane.name());
        assertEquals(List.of(UserInfo.AUTHENTICATED), jane.groups());
        AuthorizationAttributes check = asked.get(0);
        assertEquals("impersonate", check.verb());
        assertEquals("users", check.resource());
        assertEquals("", check.apiGroup());
        assertEquals("jane", check.name());
        assertEquals(ADMIN, check.user());
    }

    @Test
    void aServiceAccountUserIsCheckedAsItsServiceAccountAndGetsItsGroups() {
        Outcome outcome = decide(allowing(), "Impersonate-User", "system:serviceaccount:ns1:robot");
        UserInfo robot = assertInstanceOf(Outcome.ActAs.class, outcome).user();
        assertEquals(
                List.of(
                        "system:serviceaccounts",
                        "system:serviceaccounts:ns1",
                        UserInfo.AUTHENTICATED),
                robot.groups());
        AuthorizationAttributes check = asked.get(0);
        assertEquals("serviceaccounts", check.resource());
        assertEquals("ns1", check.namespace());
        assertEquals("robot", check.name());
    }

    @Test
    void groupsUidAndExtrasAreEachCheckedAndTaken() {
        Outcome outcome =
                decide(
                        allowing(),
                        "Impersonate-User",
                        "jane",
                        "Impersonate-Group",
                        "devs",
                        "Impersonate-Group",
                        "ops",
                        "Impersonate-Uid",
                        "u-1",
                        "Impersonate-Extra-Scopes",
                        "view",
                        "Impersonate-Extra-Acme.com%2Fproject",
                        "p1");
        UserInfo jane = assertInstanceOf(Outcome.ActAs.class, outcome).user();
        assertEquals(List.of("devs", "ops", UserInfo.AUTHENTICATED), jane.groups());
        assertEquals("u-1", jane.uid());
        assertEquals(
                Map.of("scopes", List.of("view"), "acme.com/project", List.of("p1")), jane.extra());
        assertEquals(
                List.of("users", "groups", "groups", "uids", "userextras", "userextras"),
                asked.stream().map(AuthorizationAttributes::resource).toList());
        AuthorizationAttributes extra = asked.get(5);
        assertEquals("authentication.k8s.io", extra.apiGroup());
        assertEquals("acme.com/project", extra.subresource());
        assertEquals("p1", extra.name());
    }

    @Test
    void namingTheUnauthenticatedGroupKeepsTheAuthenticatedOneOut() {
        Outcome outcome =
                decide(
                        allowing(),
                        "Impersonate-User",
                        "jane",
                        "Impersonate-Group",
                        UserInfo.UNAUTHENTICATED);
        assertEquals(
                List.of(UserInfo.UNAUTHENTICATED),
                assertInstanceOf(Outcome.ActAs.class, outcome).user().groups());
    }

    @Test
    void anImpersonatedAnonymousUserIsUnauthenticated() {
        Outcome outcome = decide(allowing(), "Impersonate-User", UserInfo.ANONYMOUS);
        assertEquals(
                List.of(UserInfo.UNAUTHENTICATED),
                assertInstanceOf(Outcome.ActAs.class, outcome).user().groups());
    }

    @Test
    void groupsWithoutAUserAreABadRequest() {
        Outcome outcome = decide(allowing(), "Impersonate-Group", "devs");
        var refused = assertInstanceOf(Outcome.Refused.class, outcome);
        assertEquals(400, refused.status().code());
        assertEquals(
                "requesting uid, groups or user-extra for [Group devs] without impersonating a user",
                refused.status().message());
        assertTrue(asked.isEmpty());
    }

    @Test
    void aRefusedGroupAnswersKubes403ForThatCheck() {
        Authorizer onlyUsers =
                a -> a.resource().equals("users") ? Decision.allow("") : Decision.noOpinion("");
        Outcome outcome =
                decide(
                        onlyUsers,
                        "Impersonate-User",
                        "jane",
                        "Impersonate-Group",
                        "system:masters");
        var refused = assertInstanceOf(Outcome.Refused.class, outcome);
        assertEquals(403, refused.status().code());
        assertEquals(
                "groups \"system:masters\" is forbidden: User \"admin\" cannot impersonate resource"
                        + " \"groups\" in API group \"\" at the cluster scope",
                refused.status().message());
    }

    @Test
    void aMalformedExtraEscapeKeepsTheKeyAsSent() {
        assertEquals("a%zzb", Impersonation.extraKey("A%zzB"));
        assertEquals("a%2", Impersonation.extraKey("a%2"));
        assertEquals("a b", Impersonation.extraKey("a%20b"));
        assertEquals("a+b", Impersonation.extraKey("a+b"));
    }
}
