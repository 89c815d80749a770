package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.rbac.BootstrapPolicy;
import io.kubepekko.api.auth.rbac.RbacAuthorizer;
import io.kubepekko.http.server.ApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * RBAC in the running control plane: kube's bootstrap ClusterRoles and ClusterRoleBindings (the
 * controllers' too) and the Roles and RoleBindings of kube-system and kube-public exist after start
 * and are reconciled by the next start, the aggregation controller keeps aggregated roles current,
 * and every server's policy follows roles and bindings within a deadline.
 */
class RbacPolicyIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String unique(String prefix) {
        return prefix + "-" + names.incrementAndGet();
    }

    @Test
    void theBootstrapRolesAndBindingsExistWithKubesLabelAndAnnotation() {
        Response admin = api.get(RBAC + "/clusterroles/cluster-admin");
        assertEquals(200, admin.code(), admin.text());
        ObjectNode role = admin.json();
        assertEquals(
                "rbac-defaults", role.at("/metadata/labels/kubernetes.io~1bootstrapping").asText());
        assertEquals(
                "true",
                role.at("/metadata/annotations/rbac.authorization.kubernetes.io~1autoupdate")
                        .asText());
        Response binding = api.get(RBAC + "/clusterrolebindings/cluster-admin");
        assertEquals(200, binding.code(), binding.text());
        assertEquals("system:masters", binding.json().at("/subjects/0/name").asText());

        List<String> roles = TestApiServer.itemNames(api.get(RBAC + "/clusterroles").json());
        for (ObjectNode expected : BootstrapPolicy.defaults().clusterRoles()) {
            assertTrue(roles.contains(expected.at("/metadata/name").asText()), roles.toString());
        }
        List<String> bindings =
                TestApiServer.itemNames(api.get(RBAC + "/clusterrolebindings").json());
        for (ObjectNode expected : BootstrapPolicy.defaults().clusterRoleBindings()) {
            assertTrue(
                    bindings.contains(expected.at("/metadata/name").asText()), bindings.toString());
        }
    }

    @Test
    void theControllersRolesAndTheKubeSystemAndKubePublicRolesExistAfterStart() {
        BootstrapPolicy policy = BootstrapPolicy.defaults();
        for (String ns : List.of("kube-system", "kube-public")) {
            for (String kind : List.of("roles", "rolebindings")) {
                Response list = api.get(RBAC + "/namespaces/" + ns + "/" + kind);
                assertEquals(200, list.code(), list.text());
                List<ObjectNode> expected =
                        kind.equals("roles") ? policy.roles() : policy.roleBindings();
                assertEquals(
                        expected.stream()
                                .filter(o -> o.at("/metadata/namespace").asText().equals(ns))
                                .map(o -> o.at("/metadata/name").asText())
                                .sorted()
                                .toList(),
                        TestApiServer.itemNames(list.json()).stream().sorted().toList(),
                        ns + " " + kind);
            }
        }
        JsonNode reader =
                api.get(
                                RBAC
                                        + "/namespaces/kube-system/roles/extension-apiserver-authentication-reader")
                        .json();
        assertEquals(
                "extension-apiserver-authentication",
                reader.at("/rules/0/resourceNames/0").asText(),
                reader.toString());
        JsonNode controller =
                api.get(RBAC + "/clusterrolebindings/system:controller:namespace-controller")
                        .json();
        assertEquals("ServiceAccount", controller.at("/subjects/0/kind").asText());
        assertEquals("kube-system", controller.at("/subjects/0/namespace").asText());
        assertEquals("namespace-controller", controller.at("/subjects/0/name").asText());
        JsonNode deployments =
                api.get(RBAC + "/clusterroles/system:controller:deployment-controller").json();
        assertEquals(
                "rbac-defaults",
                deployments.at("/metadata/labels/kubernetes.io~1bootstrapping").asText());
        assertEquals("deployments", deployments.at("/rules/0/resources/0").asText());
    }

    @Test
    void aClusterRoleLabelledAggregateToViewGetsItsRulesIntoViewEditAndAdmin() {
        String name = unique("widget-viewer");
        api.create(
                RBAC + "/clusterroles",
                json(
                        "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'ClusterRole',"
                                + "'metadata':{'name':'"
                                + name
                                + "','labels':{'rbac.authorization.k8s.io/aggregate-to-view':'true'}},"
                                + "'rules':[{'apiGroups':['example.com'],'resources':['"
                                + name
                                + "'],'verbs':['get','list']}]}"));
        for (String into : List.of("view", "edit", "admin")) {
            await().atMost(DEADLINE)
                    .untilAsserted(
                            () ->
                                    assertTrue(
                                            grantsResource(into, name),
                                            into + " has no rule on " + name));
        }
    }

    @Test
    void everyServersPolicyFollowsANewRoleBindingWithinTheDeadline() {
        String ns = unique("rbac");
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        UserInfo alice = UserInfo.of(unique("alice"), List.of(UserInfo.AUTHENTICATED));
        AuthorizationAttributes getPod =
                AuthorizationAttributes.resource(alice, "get", ns, "", "v1", "pods", "", "p");
        for (ApiServer node : api.servers()) {
            await().atMost(DEADLINE).until(() -> node.rbacPolicy().synced());
            assertFalse(authorizer(node).authorize(getPod).allowed());
        }
        // A namespaced grant of the aggregated `view`: the policy sees bindings and
        // aggregation's rules alike.
        api.create(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings",
                json(
                        "{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'RoleBinding',"
                                + "'metadata':{'name':'alice-view'},"
                                + "'roleRef':{'apiGroup':'rbac.authorization.k8s.io','kind':'ClusterRole','name':'view'},"
                                + "'subjects':[{'apiGroup':'rbac.authorization.k8s.io','kind':'User','name':'"
                                + alice.name()
                                + "'}]}"));
        for (ApiServer node : api.servers()) {
            await().atMost(DEADLINE)
                    .untilAsserted(
                            () ->
                                    assertEquals(
                                            "RBAC: allowed by RoleBinding \"alice-view/"
                                                    + ns
                                                    + "\" of ClusterRole \"view\" to User \""
                                                    + alice.name()
                                                    + "\"",
                                            authorizer(node).authorize(getPod).reason()));
        }
        AuthorizationAttributes elsewhere =
                AuthorizationAttributes.resource(
                        alice, "get", "default", "", "v1", "pods", "", "p");
        assertFalse(authorizer(api.server()).authorize(elsewhere).allowed());
    }

    @Test
    void theNextStartRestoresWhatABootstrapRoleLostUnlessItOptedOut() throws Exception {
        // basic-user loses its rules; public-info-viewer loses them too but opts out.
        stripRules("system:basic-user", null);
        stripRules("system:public-info-viewer", "false");
        Response deleted = api.delete(RBAC + "/clusterrolebindings/system:discovery");
        assertEquals(200, deleted.code(), deleted.text());
        // The same for a Role of kube-system and a RoleBinding of kube-public.
        String schedulerLock =
                RBAC + "/namespaces/kube-system/roles/system::leader-locking-kube-scheduler";
        ObjectNode lock = api.get(schedulerLock).json();
        lock.putArray("rules");
        Response stripped = api.put(schedulerLock, lock.toString());
        assertEquals(200, stripped.code(), stripped.text());
        String signer =
                RBAC + "/namespaces/kube-public/rolebindings/system:controller:bootstrap-signer";
        Response unbound = api.delete(signer);
        assertEquals(200, unbound.code(), unbound.text());

        api.restart();

        JsonNode basic = api.get(RBAC + "/clusterroles/system:basic-user").json();
        assertFalse(basic.path("rules").isEmpty(), basic.toString());
        JsonNode info = api.get(RBAC + "/clusterroles/system:public-info-viewer").json();
        assertTrue(info.path("rules").isEmpty(), info.toString());
        assertEquals(200, api.get(RBAC + "/clusterrolebindings/system:discovery").code());
        // kube's reconcile adds what is missing as one rule per verb and resource.
        JsonNode restoredLock = api.get(schedulerLock).json();
        assertEquals(10, restoredLock.path("rules").size(), restoredLock.toString());
        Response rebound = api.get(signer);
        assertEquals(200, rebound.code(), rebound.text());
        assertEquals("bootstrap-signer", rebound.json().at("/subjects/0/name").asText());
    }

    private static void stripRules(String role, String autoupdate) {
        ObjectNode obj = api.get(RBAC + "/clusterroles/" + role).json();
        obj.putArray("rules");
        if (autoupdate != null) {
            ((ObjectNode) obj.at("/metadata/annotations"))
                    .put(BootstrapPolicy.AUTOUPDATE_ANNOTATION, autoupdate);
        }
        Response r = api.put(RBAC + "/clusterroles/" + role, obj.toString());
        assertEquals(200, r.code(), r.text());
    }

    private static boolean grantsResource(String role, String resource) {
        List<String> found = new ArrayList<>();
        api.get(RBAC + "/clusterroles/" + role)
                .json()
                .path("rules")
                .forEach(r -> r.path("resources").forEach(x -> found.add(x.asText())));
        return found.contains(resource);
    }

    private static RbacAuthorizer authorizer(ApiServer node) {
        return new RbacAuthorizer(node.rbacPolicy().policy());
    }
}
