package io.kubepekko.api.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which rule decides a request: kube's checker.go semantics, first match wins. */
class AuditPolicyTest {

    private static final UserInfo ALICE =
            UserInfo.of("alice", List.of("devs", UserInfo.AUTHENTICATED));
    private static final UserInfo BOB = UserInfo.of("bob", List.of(UserInfo.AUTHENTICATED));

    private static AuthorizationAttributes res(
            UserInfo user,
            String verb,
            String ns,
            String group,
            String resource,
            String sub,
            String name) {
        return AuthorizationAttributes.resource(user, verb, ns, group, "v1", resource, sub, name);
    }

    private static AuthorizationAttributes path(String verb, String path) {
        return AuthorizationAttributes.nonResource(ALICE, verb, path);
    }

    /** One rule at Metadata, read from its YAML, then a policy level None default. */
    private static AuditLevel levelOf(String ruleYaml, AuthorizationAttributes attrs) {
        String text =
                "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n" + ruleYaml;
        AuditPolicy policy =
                ((AuditPolicyReader.Result.Loaded)
                                AuditPolicyReader.read(text.getBytes(StandardCharsets.UTF_8)))
                        .policy();
        return policy.evaluate(attrs).level();
    }

    static Stream<Arguments> cases() {
        AuthorizationAttributes getPod = res(ALICE, "get", "ns", "", "pods", "", "web");
        AuthorizationAttributes podLog = res(ALICE, "get", "ns", "", "pods", "log", "web");
        AuthorizationAttributes scale =
                res(ALICE, "update", "ns", "apps", "deployments", "scale", "web");
        AuthorizationAttributes listNodes = res(ALICE, "list", "", "", "nodes", "", "");
        return Stream.of(
                Arguments.of("empty rule matches a resource request", "", getPod, true),
                Arguments.of(
                        "empty rule matches a non-resource request", "", path("get", "/x"), true),
                Arguments.of("user named", "  users: [alice]\n", getPod, true),
                Arguments.of("other user", "  users: [bob]\n", getPod, false),
                Arguments.of("one of the groups", "  userGroups: [ops, devs]\n", getPod, true),
                Arguments.of(
                        "no group in common", "  userGroups: [ops]\n", getPod.withUser(BOB), false),
                Arguments.of("verb listed", "  verbs: [get, list]\n", getPod, true),
                Arguments.of("verb not listed", "  verbs: [list]\n", getPod, false),
                Arguments.of("namespace listed", "  namespaces: [ns]\n", getPod, true),
                Arguments.of("namespace not listed", "  namespaces: [other]\n", getPod, false),
                Arguments.of(
                        "\"\" matches cluster scope", "  namespaces: [\"\"]\n", listNodes, true),
                Arguments.of(
                        "\"\" does not match a namespace", "  namespaces: [\"\"]\n", getPod, false),
                Arguments.of(
                        "namespaces never match a path",
                        "  namespaces: [ns]\n",
                        path("get", "/x"),
                        false),
                Arguments.of(
                        "group with no resources: all of it",
                        "  resources:\n  - group: \"\"\n",
                        podLog,
                        true),
                Arguments.of("other group", "  resources:\n  - group: apps\n", getPod, false),
                Arguments.of(
                        "resource named", "  resources:\n  - resources: [pods]\n", getPod, true),
                Arguments.of(
                        "resource does not match its subresource",
                        "  resources:\n  - resources: [pods]\n",
                        podLog,
                        false),
                Arguments.of(
                        "subresource named",
                        "  resources:\n  - resources: [pods/log]\n",
                        podLog,
                        true),
                Arguments.of(
                        "star matches subresources",
                        "  resources:\n  - resources: [\"*\"]\n",
                        podLog,
                        true),
                Arguments.of(
                        "pods/* matches a subresource",
                        "  resources:\n  - resources: [pods/*]\n",
                        podLog,
                        true),
                Arguments.of(
                        "pods/* matches pods itself",
                        "  resources:\n  - resources: [pods/*]\n",
                        getPod,
                        true),
                Arguments.of(
                        "*/scale matches any scale",
                        "  resources:\n  - group: apps\n    resources: [\"*/scale\"]\n",
                        scale,
                        true),
                Arguments.of(
                        "*/scale does not match the resource",
                        "  resources:\n  - resources: [\"*/scale\"]\n",
                        getPod,
                        false),
                Arguments.of(
                        "resource name listed",
                        "  resources:\n  - resources: [pods]\n    resourceNames: [web]\n",
                        getPod,
                        true),
                Arguments.of(
                        "resource name not listed",
                        "  resources:\n  - resources: [pods]\n    resourceNames: [db]\n",
                        getPod,
                        false),
                Arguments.of(
                        "resource name and a list (no name)",
                        "  resources:\n  - resources: [nodes]\n    resourceNames: [n1]\n",
                        listNodes,
                        false),
                Arguments.of(
                        "resources never match a path",
                        "  resources:\n  - resources: [\"*\"]\n",
                        path("get", "/api"),
                        false),
                Arguments.of(
                        "path exact",
                        "  nonResourceURLs: [/version]\n",
                        path("get", "/version"),
                        true),
                Arguments.of(
                        "path prefix with star",
                        "  nonResourceURLs: [/healthz*]\n",
                        path("get", "/healthz/etcd"),
                        true),
                Arguments.of(
                        "star alone",
                        "  nonResourceURLs: [\"*\"]\n",
                        path("get", "/anything"),
                        true),
                Arguments.of(
                        "path not listed",
                        "  nonResourceURLs: [/version]\n",
                        path("get", "/versions"),
                        false),
                Arguments.of(
                        "paths never match a resource",
                        "  nonResourceURLs: [\"*\"]\n",
                        getPod,
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void ruleMatchesAsKube(
            String name, String rule, AuthorizationAttributes attrs, boolean matches) {
        assertEquals(matches ? AuditLevel.METADATA : AuditLevel.NONE, levelOf(rule, attrs));
    }

    @Test
    void firstMatchingRuleWinsAndItsStagesAndManagedFieldsApply() {
        String text =
                "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\n"
                        + "omitManagedFields: true\nrules:\n"
                        + "- level: None\n  users: [system:kube-proxy]\n"
                        + "- level: RequestResponse\n  resources:\n  - resources: [pods]\n"
                        + "  omitStages: [ResponseStarted]\n  omitManagedFields: false\n"
                        + "- level: Metadata\n";
        AuditPolicy policy =
                ((AuditPolicyReader.Result.Loaded)
                                AuditPolicyReader.read(text.getBytes(StandardCharsets.UTF_8)))
                        .policy();
        AuthorizationAttributes getPod = res(ALICE, "get", "ns", "", "pods", "", "web");
        assertEquals(
                new RequestAuditConfig(
                        AuditLevel.REQUEST_RESPONSE,
                        Set.of(AuditStage.REQUEST_RECEIVED, AuditStage.RESPONSE_STARTED),
                        false),
                policy.evaluate(getPod));
        assertEquals(
                new RequestAuditConfig(
                        AuditLevel.METADATA, Set.of(AuditStage.REQUEST_RECEIVED), true),
                policy.evaluate(res(ALICE, "get", "ns", "", "secrets", "", "s")));
        assertEquals(
                AuditLevel.NONE,
                policy.evaluate(getPod.withUser(UserInfo.of("system:kube-proxy", List.of())))
                        .level());
    }

    @Test
    void noMatchingRuleMeansNotAuditedWithThePolicysStages() {
        AuditPolicy policy =
                new AuditPolicy(
                        List.of(
                                new AuditRule(
                                        AuditLevel.METADATA,
                                        List.of("bob"),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        Set.of(),
                                        Optional.empty())),
                        Set.of(AuditStage.PANIC),
                        false);
        assertEquals(
                new RequestAuditConfig(AuditLevel.NONE, Set.of(AuditStage.PANIC), false),
                policy.evaluate(path("get", "/version")));
    }

    @Test
    void aRequestWithoutAUserMatchesNoRuleNamingUsersOrGroups() {
        AuditPolicy policy =
                new AuditPolicy(
                        List.of(
                                new AuditRule(
                                        AuditLevel.REQUEST,
                                        List.of(),
                                        List.of(UserInfo.UNAUTHENTICATED),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        List.of(),
                                        Set.of(),
                                        Optional.empty()),
                                AuditRule.catchAll(AuditLevel.METADATA)),
                        Set.of(),
                        false);
        AuthorizationAttributes anonymous =
                AuthorizationAttributes.nonResource(UserInfo.anonymous(), "get", "/api");
        assertEquals(AuditLevel.REQUEST, policy.evaluate(anonymous).level());
        assertEquals(AuditLevel.METADATA, policy.evaluateWithoutUser(anonymous).level());
    }
}
