package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.meta.Json;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's RuleAllows, as a table (cases after kube's rbac_test.go TestRuleMatches). */
class PolicyRuleTest {

    private static final UserInfo U = UserInfo.of("u", List.of());

    private static PolicyRule rule(String json) {
        try {
            return PolicyRule.fromJson(Json.MAPPER.readTree(json));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static AuthorizationAttributes req(
            String verb, String group, String resource, String sub, String name) {
        return AuthorizationAttributes.resource(U, verb, "ns", group, "v1", resource, sub, name);
    }

    private static AuthorizationAttributes path(String verb, String p) {
        return AuthorizationAttributes.nonResource(U, verb, p);
    }

    static Stream<Arguments> cases() {
        String podsGet = "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}";
        String star = "{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]}";
        String scale = "{\"verbs\":[\"get\"],\"apiGroups\":[\"*\"],\"resources\":[\"*/scale\"]}";
        String named =
                "{\"verbs\":[\"get\",\"list\",\"create\"],\"apiGroups\":[\"\"],"
                        + "\"resources\":[\"configmaps\"],\"resourceNames\":[\"cm1\"]}";
        String podLog = "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods/log\"]}";
        String urls =
                "{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/healthz\",\"/apis/*\",\"/logs**\"]}";
        String allUrls = "{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}";
        return Stream.of(
                Arguments.of(
                        "exact verb, group, resource",
                        podsGet,
                        req("get", "", "pods", "", "x"),
                        true),
                Arguments.of("other verb", podsGet, req("list", "", "pods", "", ""), false),
                Arguments.of("other group", podsGet, req("get", "apps", "pods", "", "x"), false),
                Arguments.of(
                        "resource does not grant its subresource",
                        podsGet,
                        req("get", "", "pods", "log", "x"),
                        false),
                Arguments.of(
                        "subresource rule grants it",
                        podLog,
                        req("get", "", "pods", "log", "x"),
                        true),
                Arguments.of(
                        "subresource rule does not grant the resource",
                        podLog,
                        req("get", "", "pods", "", "x"),
                        false),
                Arguments.of(
                        "star grants everything",
                        star,
                        req("deletecollection", "apps", "deployments", "", ""),
                        true),
                Arguments.of(
                        "star resource grants subresources",
                        star,
                        req("get", "", "pods", "exec", "x"),
                        true),
                Arguments.of(
                        "*/scale grants any scale",
                        scale,
                        req("get", "apps", "deployments", "scale", "d"),
                        true),
                Arguments.of(
                        "*/scale does not grant the resource",
                        scale,
                        req("get", "apps", "deployments", "", "d"),
                        false),
                Arguments.of(
                        "*/scale does not grant another subresource",
                        scale,
                        req("get", "apps", "deployments", "status", "d"),
                        false),
                Arguments.of("named object", named, req("get", "", "configmaps", "", "cm1"), true),
                Arguments.of("other name", named, req("get", "", "configmaps", "", "cm2"), false),
                Arguments.of(
                        "names do not grant a list",
                        named,
                        req("list", "", "configmaps", "", ""),
                        false),
                Arguments.of(
                        "names do not grant a create without name",
                        named,
                        req("create", "", "configmaps", "", ""),
                        false),
                Arguments.of(
                        "resource rule does not grant a path",
                        podsGet,
                        path("get", "/pods"),
                        false),
                Arguments.of("exact path", urls, path("get", "/healthz"), true),
                Arguments.of(
                        "exact path is not a prefix", urls, path("get", "/healthz/etcd"), false),
                Arguments.of("star suffix is a prefix", urls, path("get", "/apis/apps/v1"), true),
                Arguments.of("star suffix needs the slash", urls, path("get", "/apis"), false),
                Arguments.of(
                        "several stars trim to one prefix", urls, path("get", "/logsfoo"), true),
                Arguments.of("path rule verb", urls, path("post", "/healthz"), false),
                Arguments.of("star path", allUrls, path("put", "/anything"), true),
                Arguments.of(
                        "path rule does not grant a resource",
                        allUrls,
                        req("get", "", "pods", "", ""),
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void allows(String name, String rule, AuthorizationAttributes request, boolean allowed) {
        assertEquals(allowed, rule(rule).allows(request));
    }

    @Test
    void compactStringAsKube() {
        PolicyRule r =
                PolicyRule.resources(
                        List.of("get", "list"),
                        List.of("apps"),
                        List.of("deployments"),
                        List.of("d"));
        assertEquals(
                "{APIGroups:[\"apps\"], Resources:[\"deployments\"], ResourceNames:[\"d\"],"
                        + " Verbs:[\"get\" \"list\"]}",
                r.compactString());
        assertEquals(
                "{NonResourceURLs:[\"/x\"], Verbs:[\"get\"]}",
                PolicyRule.nonResource(List.of("get"), List.of("/x")).compactString());
    }

    @Test
    void roundTripsThroughJson() {
        PolicyRule r =
                PolicyRule.resources(List.of("get"), List.of(""), List.of("pods"), List.of());
        assertEquals(r, PolicyRule.fromJson(r.toJson()));
        assertEquals(
                "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}",
                r.toJson().toString());
    }
}
