package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** kube's default ClusterRoles and ClusterRoleBindings (bootstrappolicy testdata). */
class BootstrapPolicyTest {

    private final BootstrapPolicy policy = BootstrapPolicy.defaults();
    private final RbacAuthorizer rbac = RbacAuthorizer.of(policy.toRbacPolicy());

    private static List<String> names(List<ObjectNode> objects) {
        return objects.stream().map(o -> o.path("metadata").path("name").asText()).toList();
    }

    @Test
    void clusterRolesAreExactlyKubes() {
        assertEquals(
                List.of(
                        "admin",
                        "cluster-admin",
                        "edit",
                        "system:aggregate-to-admin",
                        "system:aggregate-to-edit",
                        "system:aggregate-to-view",
                        "system:auth-delegator",
                        "system:basic-user",
                        "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
                        "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
                        "system:certificates.k8s.io:kube-apiserver-client-approver",
                        "system:certificates.k8s.io:kube-apiserver-client-kubelet-approver",
                        "system:certificates.k8s.io:kubelet-serving-approver",
                        "system:certificates.k8s.io:legacy-unknown-approver",
                        "system:discovery",
                        "system:heapster",
                        "system:kube-aggregator",
                        "system:kube-controller-manager",
                        "system:kube-dns",
                        "system:kube-scheduler",
                        "system:kubelet-api-admin",
                        "system:monitoring",
                        "system:node",
                        "system:node-bootstrapper",
                        "system:node-problem-detector",
                        "system:node-proxier",
                        "system:persistent-volume-provisioner",
                        "system:public-info-viewer",
                        "system:service-account-issuer-discovery",
                        "system:volume-scheduler",
                        "view"),
                names(policy.clusterRoles()));
    }

    @Test
    void clusterRoleBindingsAreExactlyKubes() {
        assertEquals(
                List.of(
                        "cluster-admin",
                        "system:monitoring",
                        "system:discovery",
                        "system:basic-user",
                        "system:public-info-viewer",
                        "system:node-proxier",
                        "system:kube-controller-manager",
                        "system:kube-dns",
                        "system:kube-scheduler",
                        "system:volume-scheduler",
                        "system:node",
                        "system:service-account-issuer-discovery"),
                names(policy.clusterRoleBindings()));
    }

    @Test
    void everyObjectCarriesKubesLabelAndAnnotation() {
        for (ObjectNode o : concat()) {
            JsonNode meta = o.path("metadata");
            assertEquals(
                    "rbac-defaults",
                    meta.path("labels").path("kubernetes.io/bootstrapping").asText());
            assertEquals(
                    "true",
                    meta.path("annotations")
                            .path("rbac.authorization.kubernetes.io/autoupdate")
                            .asText());
            assertEquals("rbac.authorization.k8s.io/v1", o.path("apiVersion").asText());
        }
    }

    @Test
    void aggregatedRolesComeWithSelectorsAndLabels() {
        ObjectNode edit =
                policy.clusterRoles().stream()
                        .filter(o -> o.path("metadata").path("name").asText().equals("edit"))
                        .findFirst()
                        .orElseThrow();
        assertEquals(
                "true",
                edit.path("metadata")
                        .path("labels")
                        .path("rbac.authorization.k8s.io/aggregate-to-admin")
                        .asText());
        assertEquals(
                "true",
                edit.path("aggregationRule")
                        .path("clusterRoleSelectors")
                        .path(0)
                        .path("matchLabels")
                        .path("rbac.authorization.k8s.io/aggregate-to-edit")
                        .asText());
        assertFalse(edit.has("rules"));
    }

    @Test
    void bindingsNameTheirSubjectsAsKube() {
        ObjectNode dns = binding("system:kube-dns");
        assertEquals(
                "{\"kind\":\"ServiceAccount\",\"name\":\"kube-dns\",\"namespace\":\"kube-system\"}",
                dns.path("subjects").path(0).toString());
        ObjectNode masters = binding("cluster-admin");
        assertEquals(
                "{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Group\","
                        + "\"name\":\"system:masters\"}",
                masters.path("subjects").path(0).toString());
        assertFalse(binding("system:node").has("subjects"));
    }

    @Test
    void copiesAreIndependent() {
        policy.clusterRoles().get(0).put("kind", "Changed");
        assertEquals("ClusterRole", policy.clusterRoles().get(0).path("kind").asText());
    }

    @Test
    void anonymousMayReadHealthAndVersionButNotDiscovery() {
        UserInfo anonymous = UserInfo.anonymous();
        assertTrue(allowedPath(anonymous, "/healthz"));
        assertTrue(allowedPath(anonymous, "/version"));
        assertFalse(allowedPath(anonymous, "/api"));
        assertFalse(
                rbac.authorize(
                                AuthorizationAttributes.resource(
                                        anonymous, "list", "default", "", "v1", "pods", "", ""))
                        .allowed());
    }

    @Test
    void authenticatedUsersMayDiscoverAndReviewThemselves() {
        UserInfo u = UserInfo.of("u", List.of(UserInfo.AUTHENTICATED));
        assertTrue(allowedPath(u, "/apis/apps/v1"));
        assertTrue(allowedPath(u, "/openapi/v3"));
        assertTrue(
                rbac.authorize(
                                AuthorizationAttributes.resource(
                                        u,
                                        "create",
                                        "",
                                        "authorization.k8s.io",
                                        "v1",
                                        "selfsubjectaccessreviews",
                                        "",
                                        ""))
                        .allowed());
        assertFalse(
                rbac.authorize(
                                AuthorizationAttributes.resource(
                                        u, "get", "default", "", "v1", "secrets", "", "s"))
                        .allowed());
    }

    @Test
    void aggregatedAdminEditViewHoldTheirAggregateToRules() {
        RbacPolicy settled = policy.toRbacPolicy();
        List<PolicyRule> view = settled.clusterRole("view").rules();
        List<PolicyRule> edit = settled.clusterRole("edit").rules();
        List<PolicyRule> admin = settled.clusterRole("admin").rules();
        assertEquals(settled.clusterRole("system:aggregate-to-view").rules(), view);
        assertTrue(PolicyComparator.covers(edit, view).covered());
        assertTrue(PolicyComparator.covers(admin, edit).covered());
        assertFalse(PolicyComparator.covers(view, edit).covered());
        PolicyRule readSecrets =
                PolicyRule.resources(List.of("get"), List.of(""), List.of("secrets"), List.of());
        assertFalse(PolicyComparator.covers(view, List.of(readSecrets)).covered());
        assertTrue(PolicyComparator.covers(edit, List.of(readSecrets)).covered());
    }

    @Test
    void systemMastersHoldsClusterAdmin() {
        UserInfo admin = UserInfo.of("admin", List.of(UserInfo.MASTERS));
        assertEquals(
                "RBAC: allowed by ClusterRoleBinding \"cluster-admin\" of ClusterRole"
                        + " \"cluster-admin\" to Group \"system:masters\"",
                rbac.authorize(
                                AuthorizationAttributes.resource(
                                        admin,
                                        "delete",
                                        "kube-system",
                                        "",
                                        "v1",
                                        "secrets",
                                        "",
                                        "x"))
                        .reason());
    }

    private boolean allowedPath(UserInfo u, String path) {
        return rbac.authorize(AuthorizationAttributes.nonResource(u, "get", path)).allowed();
    }

    private ObjectNode binding(String name) {
        return policy.clusterRoleBindings().stream()
                .filter(o -> o.path("metadata").path("name").asText().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private List<ObjectNode> concat() {
        return Stream.concat(policy.clusterRoles().stream(), policy.clusterRoleBindings().stream())
                .toList();
    }
}
