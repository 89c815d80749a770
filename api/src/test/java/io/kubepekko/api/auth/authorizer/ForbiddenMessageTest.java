package io.kubepekko.api.auth.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube's 403 text (responsewriters.forbiddenMessage wrapped by apierrors.NewForbidden). */
class ForbiddenMessageTest {

    private static final UserInfo U = UserInfo.of("u", List.of(UserInfo.AUTHENTICATED));

    private static AuthorizationAttributes res(
            String verb, String ns, String group, String resource, String sub, String name) {
        return AuthorizationAttributes.resource(U, verb, ns, group, "v1", resource, sub, name);
    }

    @Test
    void namedObjectInNamespace() {
        ApiStatus s = ForbiddenMessage.status(res("get", "n", "", "pods", "", "x"), "");
        assertEquals(403, s.code());
        assertEquals("Forbidden", s.reason());
        assertEquals(
                "pods \"x\" is forbidden: User \"u\" cannot get resource \"pods\" in API group \"\""
                        + " in the namespace \"n\"",
                s.message());
        ObjectNode details = (ObjectNode) s.toJson().get("details");
        assertEquals("x", details.path("name").asText());
        assertEquals("pods", details.path("kind").asText());
        assertEquals(false, details.has("group"));
    }

    @Test
    void clusterScopeWithGroup() {
        ApiStatus s =
                ForbiddenMessage.status(
                        res("delete", "", "rbac.authorization.k8s.io", "clusterroles", "", "admin"),
                        "");
        assertEquals(
                "clusterroles.rbac.authorization.k8s.io \"admin\" is forbidden: User \"u\" cannot"
                        + " delete resource \"clusterroles\" in API group"
                        + " \"rbac.authorization.k8s.io\" at the cluster scope",
                s.message());
        ObjectNode details = (ObjectNode) s.toJson().get("details");
        assertEquals("rbac.authorization.k8s.io", details.path("group").asText());
        assertEquals("clusterroles", details.path("kind").asText());
        assertEquals("admin", details.path("name").asText());
    }

    @Test
    void listHasNoName() {
        ApiStatus s = ForbiddenMessage.status(res("list", "n", "apps", "deployments", "", ""), "");
        assertEquals(
                "deployments.apps is forbidden: User \"u\" cannot list resource \"deployments\" in"
                        + " API group \"apps\" in the namespace \"n\"",
                s.message());
        assertEquals(false, s.toJson().get("details").has("name"));
    }

    @Test
    void subresourceIsNamedWithItsResourceButDetailsKeepTheResource() {
        ApiStatus s = ForbiddenMessage.status(res("get", "n", "", "pods", "log", "x"), "");
        assertEquals(
                "pods \"x\" is forbidden: User \"u\" cannot get resource \"pods/log\" in API group"
                        + " \"\" in the namespace \"n\"",
                s.message());
        assertEquals("pods", s.toJson().get("details").path("kind").asText());
    }

    @Test
    void nonResourcePath() {
        ApiStatus s =
                ForbiddenMessage.status(AuthorizationAttributes.nonResource(U, "get", "/foo"), "");
        assertEquals("forbidden: User \"u\" cannot get path \"/foo\"", s.message());
        assertEquals(0, s.toJson().get("details").size());
    }

    @Test
    void reasonIsAppendedAfterAColon() {
        ApiStatus s =
                ForbiddenMessage.status(
                        res("get", "n", "", "pods", "", "x"),
                        "RBAC: role.rbac.authorization.k8s.io \"r\" not found");
        assertEquals(
                "pods \"x\" is forbidden: User \"u\" cannot get resource \"pods\" in API group \"\""
                        + " in the namespace \"n\": RBAC: role.rbac.authorization.k8s.io \"r\" not"
                        + " found",
                s.message());
    }

    @Test
    void htmlInTheRequestIsEscapedAndQuotesAreGoQuoted() {
        UserInfo odd = UserInfo.of("<b>\"me\"", List.of());
        assertEquals(
                "User \"&lt;b&gt;\\\"me\\\"\" cannot get path \"/a&amp;b\"",
                ForbiddenMessage.describe(AuthorizationAttributes.nonResource(odd, "get", "/a&b")));
    }
}
