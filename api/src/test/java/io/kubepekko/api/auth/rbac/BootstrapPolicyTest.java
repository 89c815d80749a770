package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * kube 1.35's default RBAC objects (bootstrappolicy testdata: cluster roles, controller roles,
 * namespace roles and their bindings).
 */
class BootstrapPolicyTest {

    private final BootstrapPolicy policy = BootstrapPolicy.defaults();
    private final RbacAuthorizer rbac = RbacAuthorizer.of(policy.toRbacPolicy());

    private static List<String> names(List<ObjectNode> objects) {
        return objects.stream().map(o -> o.path("metadata").path("name").asText()).toList();
    }

    /** kube-controller-manager's controllers that have a role of their own (kube 1.35). */
    private static final List<String> CONTROLLERS =
            List.of(
                    "attachdetach-controller",
                    "certificate-controller",
                    "clusterrole-aggregation-controller",
                    "cronjob-controller",
                    "daemon-set-controller",
                    "deployment-controller",
                    "disruption-controller",
                    "endpoint-controller",
                    "endpointslice-controller",
                    "endpointslicemirroring-controller",
                    "ephemeral-volume-controller",
                    "expand-controller",
                    "generic-garbage-collector",
                    "horizontal-pod-autoscaler",
                    "job-controller",
                    "legacy-service-account-token-cleaner",
                    "namespace-controller",
                    "node-controller",
                    "persistent-volume-binder",
                    "pod-garbage-collector",
                    "pv-protection-controller",
                    "pvc-protection-controller",
                    "replicaset-controller",
                    "replication-controller",
                    "resource-claim-controller",
                    "resourcequota-controller",
                    "root-ca-cert-publisher",
                    "route-controller",
                    "selinux-warning-controller",
                    "service-account-controller",
                    "service-cidrs-controller",
                    "service-controller",
                    "statefulset-controller",
                    "ttl-after-finished-controller",
                    "ttl-controller",
                    "validatingadmissionpolicy-status-controller",
                    "volumeattributesclass-protection-controller");

    @Test
    void clusterRolesAreExactlyKubesThenTheControllers() {
        List<String> expected =
                new ArrayList<>(
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
                                "view"));
        CONTROLLERS.forEach(c -> expected.add("system:controller:" + c));
        assertEquals(expected, names(policy.clusterRoles()));
        assertEquals(31 + 37, policy.clusterRoles().size());
    }

    @Test
    void clusterRoleBindingsAreExactlyKubesThenTheControllers() {
        List<String> expected =
                new ArrayList<>(
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
                                "system:service-account-issuer-discovery"));
        CONTROLLERS.forEach(c -> expected.add("system:controller:" + c));
        assertEquals(expected, names(policy.clusterRoleBindings()));
    }

    @Test
    void rolesAndRoleBindingsAreKubesInKubeSystemAndKubePublic() {
        List<String> roles =
                List.of(
                        "kube-public/system:controller:bootstrap-signer",
                        "kube-system/extension-apiserver-authentication-reader",
                        "kube-system/system::leader-locking-kube-controller-manager",
                        "kube-system/system::leader-locking-kube-scheduler",
                        "kube-system/system:controller:bootstrap-signer",
                        "kube-system/system:controller:cloud-provider",
                        "kube-system/system:controller:token-cleaner");
        assertEquals(roles, qualified(policy.roles()));
        assertEquals(
                List.of(
                        "kube-public/system:controller:bootstrap-signer",
                        "kube-system/system::extension-apiserver-authentication-reader",
                        "kube-system/system::leader-locking-kube-controller-manager",
                        "kube-system/system::leader-locking-kube-scheduler",
                        "kube-system/system:controller:bootstrap-signer",
                        "kube-system/system:controller:cloud-provider",
                        "kube-system/system:controller:token-cleaner"),
                qualified(policy.roleBindings()));
        for (ObjectNode b : policy.roleBindings()) {
            assertEquals("Role", b.at("/roleRef/kind").asText());
            String role =
                    b.at("/metadata/namespace").asText() + "/" + b.at("/roleRef/name").asText();
            assertTrue(roles.contains(role), role);
        }
    }

    @Test
    void theDeploymentControllersRoleIsKubes() {
        List<String> apps = List.of("apps", "extensions");
        assertEquals(
                List.of(
                        rule(List.of("get", "list", "update", "watch"), apps, "deployments"),
                        rule(List.of("update"), apps, "deployments/status"),
                        rule(List.of("update"), apps, "deployments/finalizers"),
                        rule(
                                List.of(
                                        "create", "delete", "get", "list", "patch", "update",
                                        "watch"),
                                apps,
                                "replicasets"),
                        rule(List.of("get", "list", "update", "watch"), List.of(""), "pods"),
                        rule(
                                List.of("create", "patch", "update"),
                                List.of("", "events.k8s.io"),
                                "events")),
                PolicyRule.listFromJson(
                        clusterRole("system:controller:deployment-controller").path("rules")));
    }

    private static PolicyRule rule(List<String> verbs, List<String> groups, String resource) {
        return PolicyRule.resources(verbs, groups, List.of(resource), List.of());
    }

    @Test
    void eachControllerIsBoundToItsServiceAccountInKubeSystem() {
        ObjectNode ns = binding("system:controller:namespace-controller");
        assertEquals(
                "{\"kind\":\"ServiceAccount\",\"name\":\"namespace-controller\","
                        + "\"namespace\":\"kube-system\"}",
                ns.path("subjects").path(0).toString());
        assertEquals(1, ns.path("subjects").size());
        assertEquals(
                "{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\","
                        + "\"name\":\"system:controller:namespace-controller\"}",
                ns.path("roleRef").toString());
        UserInfo controller =
                UserInfo.of(
                        "system:serviceaccount:kube-system:namespace-controller",
                        List.of("system:serviceaccounts", "system:serviceaccounts:kube-system"));
        assertTrue(
                rbac.authorize(
                                AuthorizationAttributes.resource(
                                        controller,
                                        "deletecollection",
                                        "team-a",
                                        "apps",
                                        "v1",
                                        "deployments",
                                        "",
                                        ""))
                        .allowed());
        assertFalse(
                rbac.authorize(
                                AuthorizationAttributes.resource(
                                        controller, "create", "team-a", "", "v1", "pods", "", ""))
                        .allowed());
    }

    @Test
    void theRulesAreThoseOf135WithItsDefaultFeatureGates() {
        // Came with 1.36 (DRADeviceTaints beta, granular ResourceClaim status authorization,
        // the PVC Unused condition), so not in 1.35.
        assertFalse(
                names(policy.clusterRoles())
                        .contains("system:controller:device-taint-eviction-controller"));
        assertFalse(
                resources(clusterRole("system:controller:resource-claim-controller"))
                        .contains("resourceclaims/binding"));
        assertFalse(
                resources(clusterRole("system:controller:pvc-protection-controller"))
                        .contains("persistentvolumeclaims/status"));
        // The in-tree Portworx plugin's rule, gone in 1.36, is still there in 1.35.
        assertTrue(
                resources(clusterRole("system:controller:expand-controller")).contains("services"));
        // Alpha or off-by-default beta in 1.35: no role, no rule.
        assertFalse(names(policy.clusterRoles()).contains("system:cluster-trust-bundle-discovery"));
        assertFalse(urls(clusterRole("system:monitoring")).contains("/flagz"));
        assertFalse(resources(clusterRole("system:node")).contains("clustertrustbundles"));
        // On by default in 1.35: DRA (GA in 1.34), fine-grained kubelet authorization.
        assertTrue(resources(clusterRole("system:kube-scheduler")).contains("resourceslices"));
        assertTrue(
                resources(clusterRole("system:aggregate-to-edit"))
                        .contains("resourceclaimtemplates"));
        assertTrue(resources(clusterRole("system:kubelet-api-admin")).contains("nodes/pods"));
        assertTrue(
                urls(clusterRole("system:service-account-issuer-discovery"))
                        .contains("/openid/v1/jwks/"));
    }

    /** A resource rule from comma-separated verbs, groups and resources, as kube's testdata. */
    private static PolicyRule r(String verbs, String groups, String resources) {
        return PolicyRule.resources(
                List.of(verbs.split(",")),
                List.of(groups.split(",", -1)),
                List.of(resources.split(",")),
                List.of());
    }

    private List<PolicyRule> rules(String clusterRole) {
        return PolicyRule.listFromJson(clusterRole(clusterRole).path("rules"));
    }

    /**
     * The roles 1.34 and 1.35 changed, rule by rule as kube's testdata lists them: the kubelet's
     * metrics for system:monitoring (1.34, #132178), and events of events.k8s.io beside the core
     * group's for view, edit and the node (1.35, #133740).
     */
    @Test
    void theRolesChangedIn134And135AreKubesRuleByRule() {
        assertEquals(
                List.of(
                        PolicyRule.nonResource(
                                List.of("get"),
                                List.of(
                                        "/healthz",
                                        "/healthz/*",
                                        "/livez",
                                        "/livez/*",
                                        "/metrics",
                                        "/metrics/slis",
                                        "/readyz",
                                        "/readyz/*")),
                        r("get", "", "nodes/metrics")),
                rules("system:monitoring"));
        assertEquals(
                List.of(
                        r("create", "authentication.k8s.io", "tokenreviews"),
                        r(
                                "create",
                                "authorization.k8s.io",
                                "localsubjectaccessreviews,subjectaccessreviews"),
                        r("get,list,watch", "", "services"),
                        r("create,get,list,watch", "", "nodes"),
                        r("patch,update", "", "nodes/status"),
                        r("patch,update", "", "nodes"),
                        r("create,patch,update", ",events.k8s.io", "events"),
                        r("get,list,watch", "", "pods"),
                        r("create,delete", "", "pods"),
                        r("patch,update", "", "pods/status"),
                        r("create", "", "pods/eviction"),
                        r("get,list,watch", "", "configmaps,secrets"),
                        r("get", "", "persistentvolumeclaims,persistentvolumes"),
                        r("get", "", "endpoints"),
                        r(
                                "create,get,list,watch",
                                "certificates.k8s.io",
                                "certificatesigningrequests"),
                        r("create,delete,get,patch,update", "coordination.k8s.io", "leases"),
                        r("get", "storage.k8s.io", "volumeattachments"),
                        r("create", "", "serviceaccounts/token"),
                        r("get,patch,update", "", "persistentvolumeclaims/status"),
                        r("get,list,watch", "storage.k8s.io", "csidrivers"),
                        r("create,delete,get,patch,update", "storage.k8s.io", "csinodes"),
                        r("get,list,watch", "node.k8s.io", "runtimeclasses"),
                        r("get", "resource.k8s.io", "resourceclaims"),
                        r("deletecollection", "resource.k8s.io", "resourceslices"),
                        r("get", "", "serviceaccounts")),
                rules("system:node"));
        String readOnly = "get,list,watch";
        assertEquals(
                List.of(
                        r(
                                readOnly,
                                "",
                                "configmaps,endpoints,persistentvolumeclaims,"
                                        + "persistentvolumeclaims/status,pods,replicationcontrollers,"
                                        + "replicationcontrollers/scale,serviceaccounts,services,"
                                        + "services/status"),
                        r(
                                readOnly,
                                "",
                                "bindings,limitranges,namespaces/status,pods/log,pods/status,"
                                        + "replicationcontrollers/status,resourcequotas,"
                                        + "resourcequotas/status"),
                        r(readOnly, "", "namespaces"),
                        r(readOnly, ",events.k8s.io", "events"),
                        r(readOnly, "discovery.k8s.io", "endpointslices"),
                        r(
                                readOnly,
                                "apps",
                                "controllerrevisions,daemonsets,daemonsets/status,deployments,"
                                        + "deployments/scale,deployments/status,replicasets,"
                                        + "replicasets/scale,replicasets/status,statefulsets,"
                                        + "statefulsets/scale,statefulsets/status"),
                        r(
                                readOnly,
                                "autoscaling",
                                "horizontalpodautoscalers,horizontalpodautoscalers/status"),
                        r(readOnly, "batch", "cronjobs,cronjobs/status,jobs,jobs/status"),
                        r(
                                readOnly,
                                "extensions",
                                "daemonsets,daemonsets/status,deployments,deployments/scale,"
                                        + "deployments/status,ingresses,ingresses/status,"
                                        + "networkpolicies,replicasets,replicasets/scale,"
                                        + "replicasets/status,replicationcontrollers/scale"),
                        r(readOnly, "policy", "poddisruptionbudgets,poddisruptionbudgets/status"),
                        r(
                                readOnly,
                                "networking.k8s.io",
                                "ingresses,ingresses/status,networkpolicies"),
                        r(
                                readOnly,
                                "resource.k8s.io",
                                "resourceclaims,resourceclaims/status,resourceclaimtemplates")),
                rules("system:aggregate-to-view"));
        String write = "create,delete,deletecollection,patch,update";
        assertEquals(
                List.of(
                        r(
                                readOnly,
                                "",
                                "pods/attach,pods/exec,pods/portforward,pods/proxy,secrets,"
                                        + "services/proxy"),
                        r("impersonate", "", "serviceaccounts"),
                        r(write, "", "pods,pods/attach,pods/exec,pods/portforward,pods/proxy"),
                        r("create", "", "pods/eviction"),
                        r(
                                write,
                                "",
                                "configmaps,persistentvolumeclaims,replicationcontrollers,"
                                        + "replicationcontrollers/scale,secrets,serviceaccounts,"
                                        + "services,services/proxy"),
                        r("create", "", "serviceaccounts/token"),
                        r(write, ",events.k8s.io", "events"),
                        r(
                                write,
                                "apps",
                                "daemonsets,deployments,deployments/rollback,deployments/scale,"
                                        + "replicasets,replicasets/scale,statefulsets,"
                                        + "statefulsets/scale"),
                        r(write, "autoscaling", "horizontalpodautoscalers"),
                        r(write, "batch", "cronjobs,jobs"),
                        r(
                                write,
                                "extensions",
                                "daemonsets,deployments,deployments/rollback,deployments/scale,"
                                        + "ingresses,networkpolicies,replicasets,replicasets/scale,"
                                        + "replicationcontrollers/scale"),
                        r(write, "policy", "poddisruptionbudgets"),
                        r(write, "networking.k8s.io", "ingresses,networkpolicies"),
                        r(
                                "create,delete,deletecollection,get,list,patch,update,watch",
                                "coordination.k8s.io",
                                "leases"),
                        r(write, "resource.k8s.io", "resourceclaims,resourceclaimtemplates")),
                rules("system:aggregate-to-edit"));
    }

    @Test
    void theControllerManagerAndSchedulerMayUseTheirKubeSystemRolesThereOnly() {
        UserInfo kcm =
                UserInfo.of("system:kube-controller-manager", List.of(UserInfo.AUTHENTICATED));
        UserInfo scheduler = UserInfo.of("system:kube-scheduler", List.of(UserInfo.AUTHENTICATED));
        assertEquals(
                "RBAC: allowed by RoleBinding"
                        + " \"system::extension-apiserver-authentication-reader/kube-system\" of"
                        + " Role \"extension-apiserver-authentication-reader\" to User"
                        + " \"system:kube-scheduler\"",
                rbac.authorize(authConfig(scheduler, "kube-system")).reason());
        assertFalse(rbac.authorize(authConfig(scheduler, "default")).allowed());
        // Its ClusterRole lets the controller manager update its own lease only; the
        // leader-locking Role any lease of kube-system.
        assertTrue(rbac.authorize(updateLease(kcm, "kube-system")).allowed());
        assertFalse(rbac.authorize(updateLease(kcm, "default")).allowed());
    }

    private static AuthorizationAttributes authConfig(UserInfo u, String namespace) {
        return AuthorizationAttributes.resource(
                u,
                "get",
                namespace,
                "",
                "v1",
                "configmaps",
                "",
                "extension-apiserver-authentication");
    }

    private static AuthorizationAttributes updateLease(UserInfo u, String namespace) {
        return AuthorizationAttributes.resource(
                u, "update", namespace, "coordination.k8s.io", "v1", "leases", "", "other");
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

    private ObjectNode clusterRole(String name) {
        return policy.clusterRoles().stream()
                .filter(o -> o.path("metadata").path("name").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ClusterRole " + name));
    }

    private static List<String> resources(ObjectNode role) {
        List<String> out = new ArrayList<>();
        role.path("rules").forEach(r -> r.path("resources").forEach(x -> out.add(x.asText())));
        return out;
    }

    private static List<String> urls(ObjectNode role) {
        List<String> out = new ArrayList<>();
        role.path("rules")
                .forEach(r -> r.path("nonResourceURLs").forEach(x -> out.add(x.asText())));
        return out;
    }

    private static List<String> qualified(List<ObjectNode> objects) {
        return objects.stream()
                .map(
                        o ->
                                o.at("/metadata/namespace").asText()
                                        + "/"
                                        + o.at("/metadata/name").asText())
                .toList();
    }

    private ObjectNode binding(String name) {
        return policy.clusterRoleBindings().stream()
                .filter(o -> o.path("metadata").path("name").asText().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private List<ObjectNode> concat() {
        return Stream.of(
                        policy.clusterRoles(),
                        policy.clusterRoleBindings(),
                        policy.roles(),
                        policy.roleBindings())
                .flatMap(List::stream)
                .toList();
    }
}
