package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation.Action;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation.Create;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation.Protected;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation.Recreate;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation.Unchanged;
import io.kubepekko.api.auth.rbac.BootstrapReconciliation.Update;
import io.kubepekko.api.meta.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube's reconcile of bootstrap roles and bindings at start, union mode (reconcile_role.go). */
class BootstrapReconciliationTest {

    private static ObjectNode obj(String singleQuoted) {
        return Json.parseTrusted(singleQuoted.replace('\'', '"').getBytes());
    }

    private static final ObjectNode EXPECTED_ROLE =
            obj(
                    "{'kind':'ClusterRole','metadata':{'name':'r',"
                            + "'labels':{'kubernetes.io/bootstrapping':'rbac-defaults'},"
                            + "'annotations':{'rbac.authorization.kubernetes.io/autoupdate':'true'}},"
                            + "'rules':[{'verbs':['get','list'],'apiGroups':[''],'resources':['pods']}]}");

    private static final ObjectNode EXPECTED_BINDING =
            obj(
                    "{'kind':'ClusterRoleBinding','metadata':{'name':'b',"
                            + "'labels':{'kubernetes.io/bootstrapping':'rbac-defaults'},"
                            + "'annotations':{'rbac.authorization.kubernetes.io/autoupdate':'true'}},"
                            + "'roleRef':{'apiGroup':'rbac.authorization.k8s.io','kind':'ClusterRole','name':'r'},"
                            + "'subjects':[{'apiGroup':'rbac.authorization.k8s.io','kind':'Group','name':'g'}]}");

    @Test
    void aMissingRoleIsCreatedAsExpected() {
        Action a = BootstrapReconciliation.clusterRole(EXPECTED_ROLE, null);
        assertEquals(EXPECTED_ROLE, assertInstanceOf(Create.class, a).object());
    }

    @Test
    void aRoleHoldingEverythingIsLeftUnchanged() {
        ObjectNode existing = EXPECTED_ROLE.deepCopy();
        ((ObjectNode) existing.get("metadata")).put("resourceVersion", "7");
        assertInstanceOf(
                Unchanged.class, BootstrapReconciliation.clusterRole(EXPECTED_ROLE, existing));
    }

    @Test
    void aRoleAnnotatedAutoupdateFalseIsNeverTouched() {
        ObjectNode existing =
                obj(
                        "{'metadata':{'name':'r','annotations':"
                                + "{'rbac.authorization.kubernetes.io/autoupdate':'false'}},'rules':[]}");
        assertInstanceOf(
                Protected.class, BootstrapReconciliation.clusterRole(EXPECTED_ROLE, existing));
    }

    @Test
    void missingRulesAreAddedAsUncoveredAtomsAndExtraRulesAndValuesAreKept() {
        ObjectNode existing =
                obj(
                        "{'metadata':{'name':'r','resourceVersion':'7','labels':{'kubernetes.io/bootstrapping':'mine'}},"
                                + "'rules':[{'verbs':['get'],'apiGroups':[''],'resources':['pods']},"
                                + "{'verbs':['delete'],'apiGroups':['apps'],'resources':['deployments']}]}");
        ObjectNode updated =
                assertInstanceOf(
                                Update.class,
                                BootstrapReconciliation.clusterRole(EXPECTED_ROLE, existing))
                        .object();
        assertEquals(
                obj("{'a':[{'verbs':['get'],'apiGroups':[''],'resources':['pods']},"
                                + "{'verbs':['delete'],'apiGroups':['apps'],'resources':['deployments']},"
                                + "{'verbs':['list'],'apiGroups':[''],'resources':['pods']}]}")
                        .get("a"),
                updated.get("rules"));
        // The object's own label value wins; the missing annotation is added.
        assertEquals("mine", updated.at("/metadata/labels/kubernetes.io~1bootstrapping").asText());
        assertEquals(
                "true",
                updated.at("/metadata/annotations/rbac.authorization.kubernetes.io~1autoupdate")
                        .asText());
        assertEquals("7", updated.at("/metadata/resourceVersion").asText());
    }

    @Test
    void anAggregatedRoleKeepsItsAggregatedRulesAndGainsMissingSelectors() {
        ObjectNode expected =
                obj(
                        "{'metadata':{'name':'view'},'aggregationRule':{'clusterRoleSelectors':["
                                + "{'matchLabels':{'rbac.authorization.k8s.io/aggregate-to-view':'true'}}]}}");
        ObjectNode existing =
                obj(
                        "{'metadata':{'name':'view'},'aggregationRule':{'clusterRoleSelectors':["
                                + "{'matchLabels':{'custom':'true'}}]},"
                                + "'rules':[{'verbs':['get'],'apiGroups':[''],'resources':['pods']}]}");
        ObjectNode updated =
                assertInstanceOf(
                                Update.class,
                                BootstrapReconciliation.clusterRole(expected, existing))
                        .object();
        assertEquals(existing.get("rules"), updated.get("rules"));
        JsonNode selectors = updated.at("/aggregationRule/clusterRoleSelectors");
        assertEquals(2, selectors.size());
        assertEquals("true", selectors.get(0).at("/matchLabels/custom").asText());
        assertEquals(expected.at("/aggregationRule/clusterRoleSelectors/0"), selectors.get(1));
    }

    @Test
    void anAggregationRuleKubeDoesNotExpectIsRemoved() {
        ObjectNode existing = EXPECTED_ROLE.deepCopy();
        existing.putObject("aggregationRule").putArray("clusterRoleSelectors");
        ObjectNode updated =
                assertInstanceOf(
                                Update.class,
                                BootstrapReconciliation.clusterRole(EXPECTED_ROLE, existing))
                        .object();
        assertEquals(null, updated.get("aggregationRule"));
    }

    @Test
    void aMissingBindingIsCreated() {
        assertInstanceOf(
                Create.class, BootstrapReconciliation.clusterRoleBinding(EXPECTED_BINDING, null));
    }

    @Test
    void missingSubjectsAreAppendedAndExtraOnesKept() {
        ObjectNode existing = EXPECTED_BINDING.deepCopy();
        existing.putArray("subjects")
                .addObject()
                .put("apiGroup", "rbac.authorization.k8s.io")
                .put("kind", "User")
                .put("name", "alice");
        ObjectNode updated =
                assertInstanceOf(
                                Update.class,
                                BootstrapReconciliation.clusterRoleBinding(
                                        EXPECTED_BINDING, existing))
                        .object();
        assertEquals(
                List.of("User:alice", "Group:g"),
                List.of(
                        updated.at("/subjects/0/kind").asText()
                                + ":"
                                + updated.at("/subjects/0/name").asText(),
                        updated.at("/subjects/1/kind").asText()
                                + ":"
                                + updated.at("/subjects/1/name").asText()));
        assertInstanceOf(
                Unchanged.class,
                BootstrapReconciliation.clusterRoleBinding(EXPECTED_BINDING, updated));
    }

    @Test
    void aBindingToAnotherRoleIsRecreatedUnlessProtected() {
        ObjectNode existing = EXPECTED_BINDING.deepCopy();
        ((ObjectNode) existing.get("roleRef")).put("name", "other");
        assertEquals(
                EXPECTED_BINDING,
                assertInstanceOf(
                                Recreate.class,
                                BootstrapReconciliation.clusterRoleBinding(
                                        EXPECTED_BINDING, existing))
                        .object());
        ((ObjectNode) existing.at("/metadata/annotations"))
                .put(BootstrapPolicy.AUTOUPDATE_ANNOTATION, "false");
        assertInstanceOf(
                Protected.class,
                BootstrapReconciliation.clusterRoleBinding(EXPECTED_BINDING, existing));
    }

    @Test
    void everyBootstrapObjectReconciledWithItselfIsUnchanged() {
        BootstrapPolicy p = BootstrapPolicy.defaults();
        for (ObjectNode r : p.clusterRoles()) {
            assertInstanceOf(Unchanged.class, BootstrapReconciliation.clusterRole(r, r.deepCopy()));
        }
        for (ObjectNode b : p.clusterRoleBindings()) {
            assertInstanceOf(
                    Unchanged.class, BootstrapReconciliation.clusterRoleBinding(b, b.deepCopy()));
        }
        for (ObjectNode r : p.roles()) {
            assertInstanceOf(Unchanged.class, BootstrapReconciliation.role(r, r.deepCopy()));
        }
        for (ObjectNode b : p.roleBindings()) {
            assertInstanceOf(Unchanged.class, BootstrapReconciliation.roleBinding(b, b.deepCopy()));
        }
    }

    @Test
    void aMissingNamespacedRoleOrBindingIsCreatedInItsNamespace() {
        ObjectNode reader =
                namespaced(
                        BootstrapPolicy.defaults().roles(),
                        "kube-system",
                        "extension-apiserver-authentication-reader");
        ObjectNode created =
                assertInstanceOf(Create.class, BootstrapReconciliation.role(reader, null)).object();
        assertEquals("kube-system", created.at("/metadata/namespace").asText());
        assertEquals("Role", created.path("kind").asText());
        ObjectNode binding =
                namespaced(
                        BootstrapPolicy.defaults().roleBindings(),
                        "kube-public",
                        "system:controller:bootstrap-signer");
        assertEquals(
                "kube-public",
                assertInstanceOf(Create.class, BootstrapReconciliation.roleBinding(binding, null))
                        .object()
                        .at("/metadata/namespace")
                        .asText());
    }

    @Test
    void aNamespacedRoleGetsTheRulesItLostAndKeepsTheOnesAUserAdded() {
        ObjectNode expected =
                namespaced(
                        BootstrapPolicy.defaults().roles(),
                        "kube-system",
                        "system::leader-locking-kube-scheduler");
        ObjectNode existing = expected.deepCopy();
        ((ObjectNode) existing.get("metadata")).put("resourceVersion", "12");
        // A user narrowed the leases rule to get and added a rule of their own.
        existing.putArray("rules")
                .add(
                        obj(
                                "{'verbs':['get'],'apiGroups':['coordination.k8s.io'],"
                                        + "'resources':['leases']}"))
                .add(obj("{'verbs':['get'],'apiGroups':[''],'resources':['configmaps']}"));
        ObjectNode updated =
                assertInstanceOf(Update.class, BootstrapReconciliation.role(expected, existing))
                        .object();
        List<PolicyRule> rules = PolicyRule.listFromJson(updated.path("rules"));
        assertEquals(PolicyRule.listFromJson(existing.path("rules")), rules.subList(0, 2));
        assertEquals(
                true,
                PolicyComparator.covers(rules, PolicyRule.listFromJson(expected.path("rules")))
                        .covered());
        assertEquals("12", updated.at("/metadata/resourceVersion").asText());
        assertEquals(null, updated.get("aggregationRule"));
        assertInstanceOf(Unchanged.class, BootstrapReconciliation.role(expected, updated));
    }

    @Test
    void aNamespacedBindingGetsItsMissingSubjectsUnlessProtected() {
        ObjectNode expected =
                namespaced(
                        BootstrapPolicy.defaults().roleBindings(),
                        "kube-system",
                        "system::leader-locking-kube-controller-manager");
        ObjectNode existing = expected.deepCopy();
        existing.putArray("subjects")
                .add(obj("{'kind':'ServiceAccount','name':'mine','namespace':'kube-system'}"));
        ObjectNode updated =
                assertInstanceOf(
                                Update.class,
                                BootstrapReconciliation.roleBinding(expected, existing))
                        .object();
        assertEquals(4, updated.path("subjects").size(), updated.toString());
        assertEquals("mine", updated.at("/subjects/0/name").asText());
        ((ObjectNode) existing.at("/metadata/annotations"))
                .put(BootstrapPolicy.AUTOUPDATE_ANNOTATION, "false");
        assertInstanceOf(Protected.class, BootstrapReconciliation.roleBinding(expected, existing));
        ObjectNode otherRole = expected.deepCopy();
        ((ObjectNode) otherRole.get("roleRef")).put("name", "other");
        assertInstanceOf(Recreate.class, BootstrapReconciliation.roleBinding(expected, otherRole));
    }

    private static ObjectNode namespaced(List<ObjectNode> objects, String ns, String name) {
        return objects.stream()
                .filter(o -> o.at("/metadata/namespace").asText().equals(ns))
                .filter(o -> o.at("/metadata/name").asText().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(ns + "/" + name + " is not bootstrapped"));
    }
}
