package io.kubepekko.api.auth.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizers;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.auth.authorizer.ForbiddenMessage;
import io.kubepekko.api.auth.rbac.BootstrapPolicy;
import io.kubepekko.api.auth.rbac.RbacAuthorizer;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.selector.FieldSelector;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's Node authorizer: identity, graph-checked reads, own-object rules, static rules. */
class NodeAuthorizerTest {

    static final UserInfo N1 = node("n1");
    static final UserInfo N2 = node("n2");

    static UserInfo node(String name) {
        return UserInfo.of(
                NodeIdentifier.userName(name),
                List.of(NodeIdentifier.NODES_GROUP, UserInfo.AUTHENTICATED));
    }

    static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A pod on n1 using one of each kind of reference. */
    static final JsonNode WEB =
            json(
                    """
                    {"metadata":{"namespace":"ns","name":"web"},
                     "spec":{"nodeName":"n1","serviceAccountName":"web-sa",
                      "imagePullSecrets":[{"name":"pull"}],
                      "containers":[{"name":"c",
                        "env":[{"name":"A","valueFrom":{"secretKeyRef":{"name":"env-secret","key":"k"}}},
                               {"name":"B","valueFrom":{"configMapKeyRef":{"name":"env-cm","key":"k"}}}],
                        "envFrom":[{"secretRef":{"name":"from-secret"}},{"configMapRef":{"name":"from-cm"}}]}],
                      "volumes":[{"name":"s","secret":{"secretName":"mounted"}},
                                 {"name":"c","configMap":{"name":"mounted-cm"}},
                                 {"name":"p","projected":{"sources":[{"secret":{"name":"proj-secret"}},
                                                                     {"configMap":{"name":"proj-cm"}}]}},
                                 {"name":"data","persistentVolumeClaim":{"claimName":"data"}},
                                 {"name":"scratch","ephemeral":{"volumeClaimTemplate":{}}}]}}
                    """);

    static final JsonNode PV =
            json(
                    """
                    {"metadata":{"name":"pv-1"},
                     "spec":{"claimRef":{"namespace":"ns","name":"data"},
                      "csi":{"driver":"d","volumeHandle":"h",
                             "nodePublishSecretRef":{"namespace":"ns","name":"csi-secret"},
                             "controllerPublishSecretRef":{"namespace":"ns","name":"controller-secret"}}}}
                    """);

    static NodeGraph graphWithWeb() {
        NodeGraph g = new NodeGraph();
        g.putPod(WEB);
        g.putPersistentVolume(PV);
        return g;
    }

    static AuthorizationAttributes req(
            UserInfo user, String verb, String ns, String group, String resource, String name) {
        return req(user, verb, ns, group, resource, "", name);
    }

    static AuthorizationAttributes req(
            UserInfo user,
            String verb,
            String ns,
            String group,
            String resource,
            String sub,
            String name) {
        return AuthorizationAttributes.resource(user, verb, ns, group, "v1", resource, sub, name);
    }

    static Decision allow() {
        return Decision.allow("");
    }

    static Decision no(String reason) {
        return Decision.noOpinion(reason);
    }

    static final String NO_RELATION_N1 = "no relationship found between node 'n1' and this object";
    static final String NO_RELATION_N2 = "no relationship found between node 'n2' and this object";

    static Stream<Arguments> graphChecked() {
        return Stream.of(
                // what n1's pod uses
                Arguments.of(req(N1, "get", "ns", "", "secrets", "mounted"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "secrets", "pull"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "secrets", "env-secret"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "secrets", "from-secret"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "secrets", "proj-secret"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "configmaps", "mounted-cm"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "configmaps", "env-cm"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "configmaps", "from-cm"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "configmaps", "proj-cm"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "persistentvolumeclaims", "data"), allow()),
                Arguments.of(
                        req(N1, "get", "ns", "", "persistentvolumeclaims", "web-scratch"), allow()),
                Arguments.of(req(N1, "get", "", "", "persistentvolumes", "pv-1"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "secrets", "csi-secret"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "pods", "web"), allow()),
                Arguments.of(
                        req(N1, "create", "ns", "", "serviceaccounts", "token", "web-sa"), allow()),
                // a kubelet's single-object list/watch of a secret or config map it uses
                Arguments.of(req(N1, "watch", "ns", "", "secrets", "mounted"), allow()),
                Arguments.of(req(N1, "list", "ns", "", "configmaps", "mounted-cm"), allow()),
                // the same objects from another node
                Arguments.of(req(N2, "get", "ns", "", "secrets", "mounted"), no(NO_RELATION_N2)),
                Arguments.of(
                        req(N2, "get", "ns", "", "configmaps", "mounted-cm"), no(NO_RELATION_N2)),
                Arguments.of(
                        req(N2, "get", "ns", "", "persistentvolumeclaims", "data"),
                        no(NO_RELATION_N2)),
                Arguments.of(
                        req(N2, "get", "", "", "persistentvolumes", "pv-1"), no(NO_RELATION_N2)),
                Arguments.of(req(N2, "get", "ns", "", "secrets", "csi-secret"), no(NO_RELATION_N2)),
                Arguments.of(req(N2, "get", "ns", "", "pods", "web"), no(NO_RELATION_N2)),
                Arguments.of(
                        req(N2, "create", "ns", "", "serviceaccounts", "token", "web-sa"),
                        no(NO_RELATION_N2)),
                // objects no pod of n1 uses, or the same name elsewhere
                Arguments.of(req(N1, "get", "ns", "", "secrets", "other"), no(NO_RELATION_N1)),
                Arguments.of(req(N1, "get", "other", "", "secrets", "mounted"), no(NO_RELATION_N1)),
                Arguments.of(
                        req(N1, "get", "ns", "", "secrets", "controller-secret"),
                        no(NO_RELATION_N1)),
                // verbs and shapes the graph check refuses
                Arguments.of(req(N1, "list", "ns", "", "secrets", ""), no("No Object name found")),
                Arguments.of(
                        req(N1, "create", "ns", "", "secrets", "mounted"),
                        no("can only read resources of this type")),
                Arguments.of(
                        req(N1, "get", "ns", "", "secrets", "status", "mounted"),
                        no("cannot read subresource")),
                Arguments.of(
                        req(N1, "get", "", "", "secrets", "mounted"),
                        no("can only read namespaced object of this type")),
                Arguments.of(
                        req(N1, "list", "ns", "", "persistentvolumeclaims", "data"),
                        no("can only get individual resources of this type")),
                Arguments.of(
                        req(N1, "get", "ns", "", "persistentvolumeclaims", "status", "data"),
                        no("can only get/update/patch this type")),
                Arguments.of(
                        req(N1, "patch", "ns", "", "persistentvolumeclaims", "status", "data"),
                        allow()),
                Arguments.of(
                        req(N2, "patch", "ns", "", "persistentvolumeclaims", "status", "data"),
                        no(NO_RELATION_N2)),
                Arguments.of(
                        req(N1, "create", "ns", "", "serviceaccounts", "web-sa"),
                        no("can only create token subresource of serviceaccount")));
    }

    /**
     * kube 1.34 on (KubeletServiceAccountTokenForCredentialProviders, on by default): a node gets
     * the ServiceAccount a pod bound to it runs as, and creates its tokens; nothing else of service
     * accounts.
     */
    static Stream<Arguments> serviceAccounts() {
        return Stream.of(
                Arguments.of(req(N1, "get", "ns", "", "serviceaccounts", "web-sa"), allow()),
                Arguments.of(
                        req(N1, "create", "ns", "", "serviceaccounts", "token", "web-sa"), allow()),
                // an account no pod of the node runs as, the same name elsewhere, another node
                Arguments.of(
                        req(N1, "get", "ns", "", "serviceaccounts", "unrelated-sa"),
                        no(NO_RELATION_N1)),
                Arguments.of(
                        req(N1, "create", "ns", "", "serviceaccounts", "token", "unrelated-sa"),
                        no(NO_RELATION_N1)),
                Arguments.of(
                        req(N1, "get", "other", "", "serviceaccounts", "web-sa"),
                        no(NO_RELATION_N1)),
                Arguments.of(
                        req(N2, "get", "ns", "", "serviceaccounts", "web-sa"), no(NO_RELATION_N2)),
                // a mirror pod relates its node to nothing, as in kube's graph
                Arguments.of(
                        req(N1, "get", "ns", "", "serviceaccounts", "mirror-sa"),
                        no(NO_RELATION_N1)),
                // only one account, by name, in its namespace
                Arguments.of(
                        req(N1, "get", "", "", "serviceaccounts", "web-sa"),
                        no("can only read namespaced object of this type")),
                Arguments.of(
                        req(N1, "get", "ns", "", "serviceaccounts", ""),
                        no("No Object name found")),
                Arguments.of(
                        req(N1, "list", "ns", "", "serviceaccounts", ""),
                        no("can only create tokens for individual service accounts")),
                Arguments.of(
                        req(N1, "watch", "ns", "", "serviceaccounts", "web-sa"),
                        no("can only create tokens for individual service accounts")),
                Arguments.of(
                        req(N1, "update", "ns", "", "serviceaccounts", "web-sa"),
                        no("can only create tokens for individual service accounts")),
                Arguments.of(
                        req(N1, "get", "ns", "", "serviceaccounts", "token", "web-sa"),
                        no("can only create tokens for individual service accounts")),
                Arguments.of(
                        req(N1, "create", "ns", "", "serviceaccounts", ""),
                        no("can only create tokens for individual service accounts")));
    }

    @ParameterizedTest
    @MethodSource("serviceAccounts")
    void aNodeReachesOnlyTheServiceAccountsItsPodsRunAs(AuthorizationAttributes a, Decision want) {
        NodeGraph graph = graphWithWeb();
        graph.putPod(
                json(
                        """
                        {"metadata":{"namespace":"ns","name":"static-n1",
                          "annotations":{"kubernetes.io/config.mirror":"h"}},
                         "spec":{"nodeName":"n1","serviceAccountName":"mirror-sa"}}
                        """));
        assertEquals(want, NodeAuthorizer.of(graph).authorize(a));
    }

    @ParameterizedTest
    @MethodSource("graphChecked")
    void objectsAPodUsesAreReadableOnlyFromItsNode(AuthorizationAttributes a, Decision want) {
        assertEquals(want, NodeAuthorizer.of(graphWithWeb()).authorize(a));
    }

    static Stream<Arguments> ownObjects() {
        FieldSelector mine = FieldSelector.parse("spec.nodeName=n1");
        FieldSelector theirs = FieldSelector.parse("spec.nodeName=n2");
        return Stream.of(
                // Node
                Arguments.of(req(N1, "get", "", "", "nodes", "n1"), allow()),
                Arguments.of(req(N1, "watch", "", "", "nodes", "n1"), allow()),
                Arguments.of(
                        req(N1, "get", "", "", "nodes", "n2"),
                        no("node 'n1' cannot read 'n2', only its own Node object")),
                Arguments.of(
                        req(N1, "list", "", "", "nodes", ""),
                        no("node 'n1' cannot read all nodes, only its own Node object")),
                Arguments.of(req(N1, "create", "", "", "nodes", ""), allow()),
                Arguments.of(req(N1, "patch", "", "", "nodes", "n1"), allow()),
                Arguments.of(req(N1, "patch", "", "", "nodes", "status", "n1"), allow()),
                Arguments.of(req(N1, "delete", "", "", "nodes", "n1"), no("")),
                Arguments.of(req(N1, "get", "", "", "nodes", "proxy", "n1"), no("")),
                // Pods
                Arguments.of(req(N1, "list", "", "", "pods", "").withFieldSelector(mine), allow()),
                Arguments.of(req(N1, "watch", "", "", "pods", "").withFieldSelector(mine), allow()),
                Arguments.of(
                        req(N1, "list", "", "", "pods", "").withFieldSelector(theirs),
                        no("can only list/watch pods with spec.nodeName field selector")),
                Arguments.of(
                        req(N1, "list", "", "", "pods", ""),
                        no("can only list/watch pods with spec.nodeName field selector")),
                Arguments.of(
                        req(N1, "list", "", "", "pods", "")
                                .withFieldSelector(FieldSelector.parse("spec.nodeName!=n1")),
                        no("can only list/watch pods with spec.nodeName field selector")),
                Arguments.of(req(N1, "watch", "ns", "", "pods", "web"), allow()),
                Arguments.of(req(N2, "watch", "ns", "", "pods", "web"), no(NO_RELATION_N2)),
                Arguments.of(req(N1, "create", "ns", "", "pods", ""), allow()),
                Arguments.of(req(N1, "delete", "ns", "", "pods", "web"), allow()),
                Arguments.of(req(N1, "update", "ns", "", "pods", "web"), no("")),
                Arguments.of(req(N1, "patch", "ns", "", "pods", "status", "web"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "pods", "status", "web"), no("")),
                Arguments.of(req(N1, "create", "ns", "", "pods", "eviction", "web"), allow()),
                Arguments.of(req(N1, "get", "ns", "", "pods", "log", "web"), no("")),
                // Leases
                Arguments.of(
                        req(N1, "get", "kube-node-lease", "coordination.k8s.io", "leases", "n1"),
                        allow()),
                Arguments.of(
                        req(N1, "create", "kube-node-lease", "coordination.k8s.io", "leases", ""),
                        allow()),
                Arguments.of(
                        req(N1, "update", "kube-node-lease", "coordination.k8s.io", "leases", "n2"),
                        no(
                                "can only access node lease with the same name as the requesting"
                                        + " node")),
                Arguments.of(
                        req(N1, "get", "default", "coordination.k8s.io", "leases", "n1"),
                        no("can only access leases in the \"kube-node-lease\" system namespace")),
                Arguments.of(
                        req(N1, "list", "kube-node-lease", "coordination.k8s.io", "leases", ""),
                        no("can only get, create, update, patch, or delete a node lease")),
                // CSINode
                Arguments.of(req(N1, "update", "", "storage.k8s.io", "csinodes", "n1"), allow()),
                Arguments.of(
                        req(N1, "get", "", "storage.k8s.io", "csinodes", "n2"),
                        no("can only access CSINode with the same name as the requesting node")),
                Arguments.of(
                        req(N1, "list", "", "storage.k8s.io", "csinodes", ""),
                        no("can only get, create, update, patch, or delete a CSINode")));
    }

    @ParameterizedTest
    @MethodSource("ownObjects")
    void aNodeManagesItsOwnNodeLeaseAndPods(AuthorizationAttributes a, Decision want) {
        assertEquals(want, NodeAuthorizer.of(graphWithWeb()).authorize(a));
    }

    static Stream<Arguments> staticRules() {
        return Stream.of(
                Arguments.of(req(N1, "list", "", "", "services", ""), allow()),
                Arguments.of(req(N1, "get", "ns", "", "endpoints", "kubernetes"), allow()),
                Arguments.of(req(N1, "create", "ns", "", "events", ""), allow()),
                Arguments.of(req(N1, "patch", "ns", "", "events", "e"), allow()),
                // kube 1.35: the events.k8s.io group's events too
                Arguments.of(req(N1, "create", "ns", "events.k8s.io", "events", ""), allow()),
                Arguments.of(req(N1, "update", "ns", "events.k8s.io", "events", "e"), allow()),
                Arguments.of(req(N1, "delete", "ns", "events.k8s.io", "events", "e"), no("")),
                Arguments.of(
                        req(
                                N1,
                                "create",
                                "",
                                "certificates.k8s.io",
                                "certificatesigningrequests",
                                ""),
                        allow()),
                Arguments.of(
                        req(
                                N1,
                                "watch",
                                "",
                                "certificates.k8s.io",
                                "certificatesigningrequests",
                                ""),
                        allow()),
                Arguments.of(
                        req(N1, "create", "", "authentication.k8s.io", "tokenreviews", ""),
                        allow()),
                Arguments.of(
                        req(N1, "create", "", "authorization.k8s.io", "subjectaccessreviews", ""),
                        allow()),
                Arguments.of(req(N1, "list", "", "node.k8s.io", "runtimeclasses", ""), allow()),
                Arguments.of(req(N1, "get", "", "storage.k8s.io", "csidrivers", "d"), allow()),
                Arguments.of(req(N1, "delete", "ns", "", "services", "s"), no("")),
                Arguments.of(req(N1, "get", "ns", "apps", "deployments", "d"), no("")),
                Arguments.of(AuthorizationAttributes.nonResource(N1, "get", "/healthz"), no("")));
    }

    @ParameterizedTest
    @MethodSource("staticRules")
    void everythingElseFollowsTheSystemNodeRules(AuthorizationAttributes a, Decision want) {
        assertEquals(want, NodeAuthorizer.of(new NodeGraph()).authorize(a));
    }

    static Stream<Arguments> notNodes() {
        return Stream.of(
                Arguments.of(UserInfo.of("alice", List.of(UserInfo.AUTHENTICATED))),
                Arguments.of(UserInfo.of("system:node:n1", List.of(UserInfo.AUTHENTICATED))),
                Arguments.of(UserInfo.of("n1", List.of(NodeIdentifier.NODES_GROUP))),
                Arguments.of(UserInfo.anonymous()));
    }

    @ParameterizedTest
    @MethodSource("notNodes")
    void aUserThatIsNotANodeGetsNoOpinion(UserInfo user) {
        NodeAuthorizer authorizer = NodeAuthorizer.of(graphWithWeb());
        assertEquals(
                no(""), authorizer.authorize(req(user, "get", "ns", "", "secrets", "mounted")));
        assertEquals(no(""), authorizer.authorize(req(user, "list", "", "", "services", "")));
    }

    @Test
    void aNodeUserWithoutANodeNameIsRefusedWithKubesReason() {
        UserInfo nameless = node("");
        assertEquals(
                no("unknown node for user \"system:node:\""),
                NodeAuthorizer.of(graphWithWeb())
                        .authorize(req(nameless, "list", "", "", "services", "")));
    }

    @Test
    void aDeletedPodNoLongerGivesItsNodeItsObjects() {
        NodeGraph g = graphWithWeb();
        NodeAuthorizer authorizer = NodeAuthorizer.of(g);
        AuthorizationAttributes secret = req(N1, "get", "ns", "", "secrets", "mounted");
        AuthorizationAttributes viaVolume = req(N1, "get", "ns", "", "secrets", "csi-secret");
        assertEquals(allow(), authorizer.authorize(secret));

        g.removePod("ns", "web");

        assertEquals(no(NO_RELATION_N1), authorizer.authorize(secret));
        assertEquals(no(NO_RELATION_N1), authorizer.authorize(viaVolume));
        assertEquals(
                no(NO_RELATION_N1),
                authorizer.authorize(req(N1, "get", "", "", "persistentvolumes", "pv-1")));
    }

    @Test
    void aPodRecreatedOnAnotherNodeMovesItsObjectsThere() {
        NodeGraph g = graphWithWeb();
        NodeAuthorizer authorizer = NodeAuthorizer.of(g);
        g.remove(NodeGraph.PODS, WEB);
        JsonNode moved = WEB.deepCopy();
        ((ObjectNode) moved.path("spec")).put("nodeName", "n2");
        g.putPod(moved);

        assertEquals(
                no(NO_RELATION_N1),
                authorizer.authorize(req(N1, "get", "ns", "", "secrets", "mounted")));
        assertEquals(allow(), authorizer.authorize(req(N2, "get", "ns", "", "secrets", "mounted")));
    }

    @Test
    void aSecretStaysReadableWhileAnotherPodOnTheNodeStillUsesIt() {
        NodeGraph g = graphWithWeb();
        g.putPod(
                json(
                        """
                        {"metadata":{"namespace":"ns","name":"worker"},
                         "spec":{"nodeName":"n1","volumes":[{"name":"s","secret":{"secretName":"mounted"}}]}}
                        """));
        g.removePod("ns", "web");

        assertEquals(
                allow(),
                NodeAuthorizer.of(g).authorize(req(N1, "get", "ns", "", "secrets", "mounted")));
    }

    @Test
    void aMirrorPodOrAnUnboundPodGrantsNothing() {
        NodeGraph g = new NodeGraph();
        g.putPod(
                json(
                        """
                        {"metadata":{"namespace":"ns","name":"static-n1",
                          "annotations":{"kubernetes.io/config.mirror":"hash"}},
                         "spec":{"nodeName":"n1","volumes":[{"name":"s","secret":{"secretName":"s1"}}]}}
                        """));
        g.putPod(
                json(
                        """
                        {"metadata":{"namespace":"ns","name":"pending"},
                         "spec":{"volumes":[{"name":"s","secret":{"secretName":"s2"}}]}}
                        """));
        NodeAuthorizer authorizer = NodeAuthorizer.of(g);

        assertEquals(allow(), authorizer.authorize(req(N1, "get", "ns", "", "pods", "static-n1")));
        assertEquals(
                no(NO_RELATION_N1),
                authorizer.authorize(req(N1, "get", "ns", "", "secrets", "s1")));
        assertEquals(
                no(NO_RELATION_N1),
                authorizer.authorize(req(N1, "get", "ns", "", "secrets", "s2")));
    }

    /**
     * kube's authorizer allows any node to write pod status: the NodeRestriction admission plugin,
     * not the authorizer, confines a node to its own pods.
     */
    @Test
    void aStatusUpdateOfAnotherNodesPodIsLeftToAdmission() {
        assertEquals(
                allow(),
                NodeAuthorizer.of(graphWithWeb())
                        .authorize(req(N2, "update", "ns", "", "pods", "status", "web")));
    }

    @Test
    void behindTheUnionAForbiddenReadCarriesKubesMessage() {
        AuthorizationAttributes a = req(N2, "get", "ns", "", "secrets", "mounted");
        Decision d =
                Authorizers.union(
                                NodeAuthorizer.of(graphWithWeb()),
                                RbacAuthorizer.of(BootstrapPolicy.defaults().toRbacPolicy()))
                        .authorize(a);

        assertEquals(Decision.Outcome.NO_OPINION, d.outcome());
        assertEquals(
                "secrets \"mounted\" is forbidden: User \"system:node:n2\" cannot get resource"
                        + " \"secrets\" in API group \"\" in the namespace \"ns\": no relationship"
                        + " found between node 'n2' and this object",
                ForbiddenMessage.status(a, d.reason()).message());
    }
}
