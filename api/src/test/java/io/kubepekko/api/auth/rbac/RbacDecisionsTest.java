package io.kubepekko.api.auth.rbac;

import static io.kubepekko.api.auth.rbac.RbacAuthorizerTest.binding;
import static io.kubepekko.api.auth.rbac.RbacAuthorizerTest.clusterRole;
import static io.kubepekko.api.auth.rbac.RbacAuthorizerTest.role;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RBAC decisions remembered per snapshot: two requests that differ in anything RBAC reads get their
 * own decisions, whichever comes first; the memory is bounded.
 */
class RbacDecisionsTest {

    private static final UserInfo ALICE = UserInfo.of("alice", List.of(UserInfo.AUTHENTICATED));
    private static final UserInfo BOB_IN_OPS =
            UserInfo.of("bob", List.of("ops", UserInfo.AUTHENTICATED));
    private static final UserInfo BOB = UserInfo.of("bob", List.of(UserInfo.AUTHENTICATED));

    private static final RbacPolicy POLICY =
            RbacPolicy.fromObjects(
                    List.of(
                            role(
                                    "team",
                                    "reader",
                                    "[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],"
                                            + "\"resources\":[\"pods\",\"pods/log\"]},"
                                            + "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],"
                                            + "\"resources\":[\"configmaps\"],"
                                            + "\"resourceNames\":[\"cm-a\"]}]")),
                    List.of(
                            clusterRole(
                                    "health",
                                    "[{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/healthz\"]}]"),
                            clusterRole(
                                    "nodes",
                                    "[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],"
                                            + "\"resources\":[\"nodes\"]}]")),
                    List.of(
                            binding(
                                    "team",
                                    "alice-reads",
                                    "Role",
                                    "reader",
                                    "[{\"kind\":\"User\",\"name\":\"alice\"}]")),
                    List.of(
                            binding(
                                    "",
                                    "health",
                                    "ClusterRole",
                                    "health",
                                    "[{\"kind\":\"Group\",\"name\":\"system:authenticated\"}]"),
                            binding(
                                    "",
                                    "ops-nodes",
                                    "ClusterRole",
                                    "nodes",
                                    "[{\"kind\":\"Group\",\"name\":\"ops\"}]")));

    private static AuthorizationAttributes request(
            UserInfo user,
            String verb,
            String ns,
            String group,
            String resource,
            String sub,
            String name) {
        return AuthorizationAttributes.resource(user, verb, ns, group, "v1", resource, sub, name);
    }

    private static AuthorizationAttributes alicesGet(String resource, String name) {
        return request(ALICE, "get", "team", "", resource, "", name);
    }

    /** Pairs of requests that differ in one thing RBAC reads: the first allowed, the second not. */
    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of(
                        "user name",
                        alicesGet("pods", "p"),
                        request(
                                UserInfo.of("mallory", ALICE.groups()),
                                "get",
                                "team",
                                "",
                                "pods",
                                "",
                                "p")),
                Arguments.of(
                        "groups",
                        request(BOB_IN_OPS, "get", "", "", "nodes", "", "n"),
                        request(BOB, "get", "", "", "nodes", "", "n")),
                Arguments.of(
                        "verb",
                        alicesGet("pods", "p"),
                        request(ALICE, "delete", "team", "", "pods", "", "p")),
                Arguments.of(
                        "namespace",
                        alicesGet("pods", "p"),
                        request(ALICE, "get", "other", "", "pods", "", "p")),
                Arguments.of(
                        "API group",
                        alicesGet("pods", "p"),
                        request(ALICE, "get", "team", "apps", "pods", "", "p")),
                Arguments.of("resource", alicesGet("pods", "p"), alicesGet("secrets", "p")),
                Arguments.of(
                        "subresource",
                        request(ALICE, "get", "team", "", "pods", "log", "p"),
                        request(ALICE, "get", "team", "", "pods", "exec", "p")),
                Arguments.of(
                        "name", alicesGet("configmaps", "cm-a"), alicesGet("configmaps", "cm-b")),
                Arguments.of(
                        "non-resource path",
                        AuthorizationAttributes.nonResource(ALICE, "get", "/healthz"),
                        AuthorizationAttributes.nonResource(ALICE, "get", "/metrics")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void requestsDifferingInOneAttributeGetTheirOwnDecisionsInEitherOrder(
            String differs, AuthorizationAttributes allowed, AuthorizationAttributes refused) {
        RbacAuthorizer first = RbacAuthorizer.of(POLICY);
        assertTrue(first.authorize(allowed).allowed(), differs);
        assertFalse(first.authorize(refused).allowed(), differs);
        assertTrue(first.authorize(allowed).allowed(), differs);

        RbacAuthorizer second = RbacAuthorizer.of(POLICY);
        assertFalse(second.authorize(refused).allowed(), differs);
        assertTrue(second.authorize(allowed).allowed(), differs);
    }

    @Test
    void aRememberedDecisionIsTheWalkedOneReasonIncluded() {
        RbacAuthorizer remembering = RbacAuthorizer.of(POLICY);
        RbacAuthorizer walking = RbacAuthorizer.walking(POLICY);
        AuthorizationAttributes request = alicesGet("pods", "p");
        Decision walked = walking.authorize(request);
        assertEquals(walked, remembering.authorize(request));
        assertEquals(walked, remembering.authorize(request));
    }

    @Test
    void theMemoryStartsOverAtItsLimit() {
        RbacDecisions decisions = new RbacDecisions(POLICY);
        Function<RbacPolicy, Decision> walk = p -> Decision.noOpinion("");
        for (int i = 0; i <= RbacDecisions.LIMIT; i++) {
            decisions.decide(alicesGet("configmaps", "cm-" + i), walk);
        }
        assertEquals(1, decisions.size());
        decisions.decide(alicesGet("configmaps", "cm-x"), walk);
        assertEquals(2, decisions.size());
    }
}
