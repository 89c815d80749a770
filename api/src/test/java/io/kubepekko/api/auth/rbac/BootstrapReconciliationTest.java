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
    }
}
