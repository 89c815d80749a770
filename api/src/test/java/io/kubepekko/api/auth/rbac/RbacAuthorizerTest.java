package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.meta.Json;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** kube's RBAC authorizer over stored objects: subjects, scopes, reasons, missing roles. */
class RbacAuthorizerTest {

    static JsonNode obj(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static JsonNode role(String ns, String name, String rules) {
        return obj(
                "{\"kind\":\"Role\",\"metadata\":{\"namespace\":\""
                        + ns
                        + "\",\"name\":\""
                        + name
                        + "\"},\"rules\":"
                        + rules
                        + "}");
    }

    static JsonNode clusterRole(String name, String rules) {
        return obj(
                "{\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\""
                        + name
                        + "\"},\"rules\":"
                        + rules
                        + "}");
    }

    static JsonNode binding(String ns, String name, String refKind, String ref, String subjects) {
        String meta =
                ns.isEmpty()
                        ? "{\"name\":\"" + name + "\"}"
                        : "{\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\"}";
        return obj(
                "{\"metadata\":"
                        + meta
                        + ",\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\""
                        + refKind
                        + "\",\"name\":\""
                        + ref
                        + "\"},\"subjects\":"
                        + subjects
                        + "}");
    }

    static final String READ_PODS =
            "[{\"verbs\":[\"get\",\"list\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]";
    static final String ALL =
            "[{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]},"
                    + "{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}]";

    private static final UserInfo ALICE = UserInfo.of("alice", List.of(UserInfo.AUTHENTICATED));
    private static final UserInfo BOB = UserInfo.of("bob", List.of("devs", UserInfo.AUTHENTICATED));
    private static final UserInfo SA =
            UserInfo.of(
                    "system:serviceaccount:team:builder",
                    List.of("system:serviceaccounts", "system:serviceaccounts:team"));

    private final RbacPolicy policy =
            RbacPolicy.fromObjects(
                    List.of(role("team", "pod-reader", READ_PODS)),
                    List.of(
                            clusterRole("super", ALL),
                            clusterRole("cr-pod-reader", READ_PODS),
                            clusterRole(
                                    "health",
                                    "[{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/healthz\"]}]")),
                    List.of(
                            binding(
                                    "team",
                                    "alice-reads",
                                    "Role",
                                    "pod-reader",
                                    "[{\"kind\":\"User\",\"name\":\"alice\"}]"),
                            binding(
                                    "team",
                                    "sa-reads",
                                    "ClusterRole",
                                    "cr-pod-reader",
                                    "[{\"kind\":\"ServiceAccount\",\"name\":\"builder\"}]"),
                            binding(
                                    "other",
                                    "missing",
                                    "Role",
                                    "gone",
                                    "[{\"kind\":\"User\",\"name\":\"alice\"}]")),
                    List.of(
                            binding(
                                    "",
                                    "devs-super",
                                    "ClusterRole",
                                    "super",
                                    "[{\"kind\":\"User\",\"name\":\"carol\"},"
                                            + "{\"kind\":\"Group\",\"name\":\"devs\"}]"),
                            binding(
                                    "",
                                    "health",
                                    "ClusterRole",
                                    "health",
                                    "[{\"kind\":\"Group\",\"name\":\"system:authenticated\"}]"),
                            binding(
                                    "",
                                    "sa-without-namespace",
                                    "ClusterRole",
                                    "super",
                                    "[{\"kind\":\"ServiceAccount\",\"name\":\"builder\"}]")));

    private final RbacAuthorizer rbac = RbacAuthorizer.of(policy);

    private static AuthorizationAttributes get(
            UserInfo u, String ns, String resource, String name) {
        return AuthorizationAttributes.resource(u, "get", ns, "", "v1", resource, "", name);
    }

    @Test
    void roleBindingGrantsItsRoleInItsNamespaceOnly() {
        assertEquals(
                Decision.allow(
                        "RBAC: allowed by RoleBinding \"alice-reads/team\" of Role \"pod-reader\" to"
                                + " User \"alice\""),
                rbac.authorize(get(ALICE, "team", "pods", "p")));
        assertEquals(
                Decision.Outcome.NO_OPINION,
                rbac.authorize(get(ALICE, "default", "pods", "p")).outcome());
        assertEquals(
                Decision.Outcome.NO_OPINION,
                rbac.authorize(get(ALICE, "team", "secrets", "s")).outcome());
    }

    @Test
    void clusterRoleBindingGrantsEverywhereThroughAGroup() {
        Decision d = rbac.authorize(get(BOB, "anywhere", "secrets", "s"));
        assertEquals(
                Decision.allow(
                        "RBAC: allowed by ClusterRoleBinding \"devs-super\" of ClusterRole \"super\""
                                + " to Group \"devs\""),
                d);
        assertTrue(rbac.authorize(get(BOB, "", "nodes", "n")).allowed());
    }

    @Test
    void roleBindingToAClusterRoleGrantsItInTheBindingsNamespaceToItsServiceAccount() {
        assertEquals(
                Decision.allow(
                        "RBAC: allowed by RoleBinding \"sa-reads/team\" of ClusterRole"
                                + " \"cr-pod-reader\" to ServiceAccount \"builder/team\""),
                rbac.authorize(get(SA, "team", "pods", "p")));
        assertEquals(
                Decision.Outcome.NO_OPINION,
                rbac.authorize(get(SA, "other", "pods", "p")).outcome());
    }

    @Test
    void serviceAccountWithoutNamespaceNeverAppliesInAClusterRoleBinding() {
        assertEquals(
                Decision.Outcome.NO_OPINION, rbac.authorize(get(SA, "", "nodes", "n")).outcome());
    }

    @Test
    void nonResourceRulesComeFromClusterRoleBindings() {
        assertTrue(
                rbac.authorize(AuthorizationAttributes.nonResource(ALICE, "get", "/healthz"))
                        .allowed());
        assertEquals(
                Decision.noOpinion(""),
                rbac.authorize(AuthorizationAttributes.nonResource(ALICE, "get", "/metrics")));
    }

    @Test
    void missingRoleIsNamedInTheReason() {
        assertEquals(
                Decision.noOpinion("RBAC: role.rbac.authorization.k8s.io \"gone\" not found"),
                rbac.authorize(get(ALICE, "other", "pods", "p")));
    }

    @Test
    void bindingThroughSeveralSubjectsIsNamedByTheFirst() {
        UserInfo carol = UserInfo.of("carol", List.of("devs"));
        assertEquals(
                "RBAC: allowed by ClusterRoleBinding \"devs-super\" of ClusterRole \"super\" to User"
                        + " \"carol\"",
                rbac.authorize(get(carol, "x", "pods", "p")).reason());
    }

    @Test
    void aBindingNamingTheUserTwiceGrantsItsRulesOnce() {
        UserInfo carol = UserInfo.of("carol", List.of("devs"));
        assertEquals(2, rbac.rulesFor(carol, "").rules().size());
    }

    @Test
    void rulesForListsClusterRulesThenNamespaceRules() {
        UserRules rules = rbac.rulesFor(ALICE, "team");
        assertEquals(2, rules.rules().size());
        assertEquals(List.of("/healthz"), rules.nonResourceRules().get(0).nonResourceURLs());
        assertEquals(List.of("pods"), rules.resourceRules().get(0).resources());
        assertEquals(List.of(), rules.errors());
        assertEquals(
                "role.rbac.authorization.k8s.io \"gone\" not found",
                rbac.rulesFor(ALICE, "other").evaluationError());
    }

    @Test
    void aSwappedSnapshotIsReadOnTheNextDecision() {
        AtomicReference<RbacPolicy> current = new AtomicReference<>(RbacPolicy.empty());
        RbacAuthorizer live = new RbacAuthorizer(current::get);
        AuthorizationAttributes request = get(ALICE, "team", "pods", "p");
        assertEquals(Decision.noOpinion(""), live.authorize(request));
        current.set(policy);
        assertTrue(live.authorize(request).allowed());
    }

    @Test
    void aggregateErrorTextAsKube() {
        assertEquals("", RbacAuthorizer.aggregate(List.of()));
        assertEquals("a", RbacAuthorizer.aggregate(List.of("a")));
        assertEquals("a", RbacAuthorizer.aggregate(List.of("a", "a")));
        assertEquals("[a, b]", RbacAuthorizer.aggregate(List.of("a", "b", "a")));
    }
}
