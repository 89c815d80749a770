package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.definition.BuiltinDefinitions;
import io.kubepekko.api.meta.Json;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClusterPrintersTest {
    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

    /** Three hours before {@link #NOW}. */
    private static final String CREATED = "\"creationTimestamp\":\"2024-12-31T21:00:00Z\"";

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> names(TablePrinter printer) {
        return printer.columns().stream().map(Column::name).toList();
    }

    private static List<Integer> priorities(TablePrinter printer) {
        return printer.columns().stream().map(Column::priority).toList();
    }

    private static List<Object> cells(String group, String kind, String object) {
        TablePrinter printer = BuiltinDefinitions.printer(group, kind);
        List<Object> cells = printer.cells(json(object), NOW);
        assertEquals(printer.columns().size(), cells.size(), "one cell per column");
        return cells;
    }

    @Test
    void rolesPrintWithTheDefaultNameAndCreatedAt() {
        assertSame(
                TablePrinter.DEFAULT,
                BuiltinDefinitions.printer("rbac.authorization.k8s.io", "Role"));
        assertSame(
                TablePrinter.DEFAULT,
                BuiltinDefinitions.printer("rbac.authorization.k8s.io", "ClusterRole"));
    }

    /**
     * Printers read whatever is stored: wrong types and missing parts give kube's unset cells,
     * never an exception.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "networking.k8s.io/Ingress",
                "networking.k8s.io/NetworkPolicy",
                "policy/PodDisruptionBudget",
                "rbac.authorization.k8s.io/RoleBinding",
                "rbac.authorization.k8s.io/ClusterRoleBinding",
                "storage.k8s.io/StorageClass",
                "scheduling.k8s.io/PriorityClass",
                "coordination.k8s.io/Lease"
            })
    void oddlyTypedObjectsStillPrintOneCellPerColumn(String key) {
        String[] gk = key.split("/");
        TablePrinter printer = BuiltinDefinitions.printer(gk[0], gk[1]);
        for (String odd :
                List.of(
                        "{}",
                        "{'metadata':'x','spec':'y','status':7}",
                        "{'metadata':{'name':5,'annotations':[]},'spec':{'rules':{'host':'a'},'tls':'x',"
                                + "'podSelector':'app=x','minAvailable':true,'holderIdentity':3},"
                                + "'subjects':{'kind':'User'},'roleRef':[],'value':'high','globalDefault':'yes',"
                                + "'allowVolumeExpansion':'true','status':{'loadBalancer':{'ingress':{'ip':'1.2.3.4'}}}}")) {
            List<Object> cells = printer.cells(json(odd), NOW);
            assertEquals(printer.columns().size(), cells.size(), odd);
        }
    }

    @Nested
    class Ingress {
        @Test
        void columns() {
            TablePrinter printer = BuiltinDefinitions.printer("networking.k8s.io", "Ingress");
            assertEquals(
                    List.of("Name", "Class", "Hosts", "Address", "Ports", "Age"), names(printer));
            assertEquals(List.of(0, 0, 0, 0, 0, 0), priorities(printer));
            assertEquals(Column.NAME, printer.columns().get(0));
            assertEquals(
                    new Column(
                            "Address",
                            "string",
                            "",
                            "Address is a list containing ingress points for the load-balancer",
                            0),
                    printer.columns().get(3));
            assertEquals(
                    new Column("Age", "string", "", Descriptions.CREATION_TIMESTAMP, 0),
                    printer.columns().get(5));
        }

        @Test
        void aServedIngress() {
            assertEquals(
                    List.of(
                            "web",
                            "nginx",
                            "a.example.com,b.example.com",
                            "10.0.0.2,10.0.0.9,lb.example.com",
                            "80, 443",
                            "3h"),
                    cells(
                            "networking.k8s.io",
                            "Ingress",
                            "{'metadata':{'name':'web',"
                                    + CREATED
                                    + "},"
                                    + "'spec':{'ingressClassName':'nginx','tls':[{'hosts':['a.example.com']}],"
                                    + "'rules':[{'host':'a.example.com'},{'host':'b.example.com'}]},"
                                    + "'status':{'loadBalancer':{'ingress':[{'ip':'10.0.0.9'},{'hostname':'lb.example.com'},"
                                    + "{'ip':'10.0.0.2','hostname':'ignored.example.com'},{'ip':'10.0.0.9'},{}]}}}"));
        }

        @Test
        void aBareIngressHasNoClassAnyHostNoAddressAndPort80() {
            assertEquals(
                    List.of("bare", "<none>", "*", "", "80", "<unknown>"),
                    cells(
                            "networking.k8s.io",
                            "Ingress",
                            "{'metadata':{'name':'bare'},"
                                    + "'spec':{'defaultBackend':{'service':{'name':'s','port':{'number':80}}},'tls':[]}}"));
        }

        @Test
        void rulesWithoutHostsShowAsAnyHost() {
            assertEquals("*", IngressPrinter.hosts(json("[{'http':{}},{'host':''}]")));
        }

        @Test
        void theAddressIsNeverClippedBecauseTheServerPrintsWide() {
            assertEquals(
                    "a-very-long-load-balancer-name.example.com",
                    IngressPrinter.address(
                            json("[{'hostname':'a-very-long-load-balancer-name.example.com'}]")));
        }

        @Test
        void moreThanThreeHostsAreCountedFromAllTheRulesAfterTheThird() {
            // Kube's quirk: the count is rules - 3, hostless rules included.
            assertEquals(
                    "a,b,c + 3 more...",
                    IngressPrinter.hosts(
                            json("[{'host':'a'},{},{'host':'b'},{'host':'c'},{'host':'d'},{}]")));
            assertEquals(
                    "a,b,c",
                    IngressPrinter.hosts(json("[{'host':'a'},{'host':'b'},{'host':'c'}]")));
            assertEquals(
                    "a,b,c + 1 more...",
                    IngressPrinter.hosts(
                            json("[{'host':'a'},{'host':'b'},{'host':'c'},{'host':'d'}]")));
        }
    }

    @Nested
    class NetworkPolicy {
        @Test
        void columns() {
            TablePrinter printer = BuiltinDefinitions.printer("networking.k8s.io", "NetworkPolicy");
            assertEquals(List.of("Name", "Pod-Selector", "Age"), names(printer));
            assertEquals(List.of(0, 0, 0), priorities(printer));
            assertEquals(
                    new Column(
                            "Pod-Selector",
                            "string",
                            "",
                            NetworkPolicyPrinter.POD_SELECTOR_DESCRIPTION,
                            0),
                    printer.columns().get(1));
        }

        @Test
        void theSelectorPrintsSortedByKeyWithSortedSetValues() {
            assertEquals(
                    List.of("db", "app=x,!legacy,role,tier in (a,b),zone notin (e,w)", "3h"),
                    cells(
                            "networking.k8s.io",
                            "NetworkPolicy",
                            "{'metadata':{'name':'db',"
                                    + CREATED
                                    + "},"
                                    + "'spec':{'podSelector':{'matchLabels':{'app':'x'},'matchExpressions':["
                                    + "{'key':'zone','operator':'NotIn','values':['w','e']},"
                                    + "{'key':'tier','operator':'In','values':['b','a']},"
                                    + "{'key':'role','operator':'Exists'},"
                                    + "{'key':'legacy','operator':'DoesNotExist'}]}}}"));
        }

        @Test
        void anEmptySelectorSelectsAllPodsAndPrintsNone() {
            assertEquals(
                    "<none>",
                    cells(
                                    "networking.k8s.io",
                                    "NetworkPolicy",
                                    "{'metadata':{'name':'all'},'spec':{'podSelector':{}}}")
                            .get(1));
            assertEquals(
                    "<none>",
                    cells(
                                    "networking.k8s.io",
                                    "NetworkPolicy",
                                    "{'metadata':{'name':'all'},'spec':{}}")
                            .get(1));
        }

        @Test
        void anInvalidSelectorPrintsError() {
            assertEquals(
                    "<error>",
                    cells(
                                    "networking.k8s.io",
                                    "NetworkPolicy",
                                    "{'metadata':{'name':'bad'},"
                                            + "'spec':{'podSelector':{'matchExpressions':[{'key':'a','operator':'Near','values':['b']}]}}}")
                            .get(1));
            assertEquals(
                    "<error>",
                    cells(
                                    "networking.k8s.io",
                                    "NetworkPolicy",
                                    "{'metadata':{'name':'bad'},"
                                            + "'spec':{'podSelector':{'matchExpressions':[{'key':'a','operator':'In','values':[]}]}}}")
                            .get(1));
        }
    }

    @Nested
    class PodDisruptionBudget {
        @Test
        void columns() {
            TablePrinter printer = BuiltinDefinitions.printer("policy", "PodDisruptionBudget");
            assertEquals(
                    List.of(
                            "Name",
                            "Min Available",
                            "Max Unavailable",
                            "Allowed Disruptions",
                            "Age"),
                    names(printer));
            assertEquals(List.of(0, 0, 0, 0, 0), priorities(printer));
            assertEquals(
                    new Column(
                            "Allowed Disruptions",
                            "integer",
                            "",
                            "Calculated number of pods that may be disrupted at this time.",
                            0),
                    printer.columns().get(3));
            assertEquals("string", printer.columns().get(1).type());
        }

        @Test
        void intOrStringBoundsAndTheUnsetOneAsNotApplicable() {
            assertEquals(
                    List.of("pdb", "2", "N/A", 1L, "3h"),
                    cells(
                            "policy",
                            "PodDisruptionBudget",
                            "{'metadata':{'name':'pdb',"
                                    + CREATED
                                    + "},'spec':{'minAvailable':2},"
                                    + "'status':{'disruptionsAllowed':1}}"));
            assertEquals(
                    List.of("pdb", "N/A", "25%", 0L, "3h"),
                    cells(
                            "policy",
                            "PodDisruptionBudget",
                            "{'metadata':{'name':'pdb',"
                                    + CREATED
                                    + "},'spec':{'maxUnavailable':'25%','minAvailable':null}}"));
        }
    }

    @Nested
    class RoleBindings {
        @Test
        void columns() {
            TablePrinter printer =
                    BuiltinDefinitions.printer("rbac.authorization.k8s.io", "RoleBinding");
            assertEquals(
                    List.of("Name", "Role", "Age", "Users", "Groups", "ServiceAccounts"),
                    names(printer));
            assertEquals(List.of(0, 0, 0, 1, 1, 1), priorities(printer));
            assertEquals(
                    "roleRef can reference a Role in the current namespace or a ClusterRole in the global "
                            + "namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.",
                    printer.columns().get(1).description());
            assertEquals(
                    new Column("Groups", "string", "", "Groups in the roleBinding", 1),
                    printer.columns().get(4));
        }

        @Test
        void clusterRoleBindingColumnsDifferOnlyInDescriptions() {
            TablePrinter printer =
                    BuiltinDefinitions.printer("rbac.authorization.k8s.io", "ClusterRoleBinding");
            assertEquals(
                    List.of("Name", "Role", "Age", "Users", "Groups", "ServiceAccounts"),
                    names(printer));
            assertEquals(List.of(0, 0, 0, 1, 1, 1), priorities(printer));
            assertEquals(
                    "roleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot "
                            + "be resolved, the Authorizer must return an error.",
                    printer.columns().get(1).description());
            assertEquals(
                    "ServiceAccounts in the clusterRoleBinding",
                    printer.columns().get(5).description());
        }

        @Test
        void subjectsSplitByKindWithServiceAccountsNamespaced() {
            assertEquals(
                    List.of(
                            "readers",
                            "ClusterRole/view",
                            "3h",
                            "alice, bob",
                            "devs",
                            "default/builder, ci/runner"),
                    cells(
                            "rbac.authorization.k8s.io",
                            "RoleBinding",
                            "{'metadata':{'name':'readers',"
                                    + CREATED
                                    + "},'roleRef':{'apiGroup':'rbac.authorization.k8s.io','kind':'ClusterRole','name':'view'},"
                                    + "'subjects':[{'kind':'User','name':'alice'},{'kind':'Group','name':'devs'},"
                                    + "{'kind':'ServiceAccount','namespace':'default','name':'builder'},"
                                    + "{'kind':'Robot','name':'r2'},{'kind':'User','name':'bob'},"
                                    + "{'kind':'ServiceAccount','namespace':'ci','name':'runner'}]}"));
        }

        @Test
        void noSubjectsAndNoRoleRef() {
            assertEquals(
                    List.of("empty", "/", "<unknown>", "", "", ""),
                    cells(
                            "rbac.authorization.k8s.io",
                            "ClusterRoleBinding",
                            "{'metadata':{'name':'empty'}}"));
        }
    }

    @Nested
    class StorageClass {
        @Test
        void columns() {
            TablePrinter printer = BuiltinDefinitions.printer("storage.k8s.io", "StorageClass");
            assertEquals(
                    List.of(
                            "Name",
                            "Provisioner",
                            "ReclaimPolicy",
                            "VolumeBindingMode",
                            "AllowVolumeExpansion",
                            "Age"),
                    names(printer));
            assertEquals(List.of(0, 0, 0, 0, 0, 0), priorities(printer));
            // Kube declares the boolean column a string one.
            assertEquals(
                    new Column(
                            "AllowVolumeExpansion",
                            "string",
                            "",
                            "allowVolumeExpansion shows whether the storage class allow volume expand.",
                            0),
                    printer.columns().get(4));
        }

        @Test
        void theDefaultClassIsMarkedAndUnsetPoliciesShowTheirDefaults() {
            assertEquals(
                    List.of(
                            "standard (default)",
                            "rancher.io/local-path",
                            "Delete",
                            "Immediate",
                            false,
                            "3h"),
                    cells(
                            "storage.k8s.io",
                            "StorageClass",
                            "{'metadata':{'name':'standard',"
                                    + CREATED
                                    + ","
                                    + "'annotations':{'storageclass.kubernetes.io/is-default-class':'true'}},"
                                    + "'provisioner':'rancher.io/local-path'}"));
        }

        @Test
        void theBetaAnnotationAlsoMarksTheDefault() {
            assertEquals(
                    "old (default)",
                    cells(
                                    "storage.k8s.io",
                                    "StorageClass",
                                    "{'metadata':{'name':'old',"
                                            + "'annotations':{'storageclass.beta.kubernetes.io/is-default-class':'true'}}}")
                            .get(0));
        }

        @Test
        void onlyTheExactValueTrueMarksTheDefault() {
            assertEquals(
                    List.of(
                            "fast",
                            "csi.example.com",
                            "Retain",
                            "WaitForFirstConsumer",
                            true,
                            "3h"),
                    cells(
                            "storage.k8s.io",
                            "StorageClass",
                            "{'metadata':{'name':'fast',"
                                    + CREATED
                                    + ","
                                    + "'annotations':{'storageclass.kubernetes.io/is-default-class':'True'}},"
                                    + "'provisioner':'csi.example.com','reclaimPolicy':'Retain',"
                                    + "'volumeBindingMode':'WaitForFirstConsumer','allowVolumeExpansion':true}"));
        }
    }

    @Nested
    class PriorityClass {
        @Test
        void columns() {
            TablePrinter printer = BuiltinDefinitions.printer("scheduling.k8s.io", "PriorityClass");
            assertEquals(
                    List.of("Name", "Value", "Global-Default", "Age", "PreemptionPolicy"),
                    names(printer));
            assertEquals(List.of(0, 0, 0, 0, 0), priorities(printer));
            assertEquals("integer", printer.columns().get(1).type());
            assertEquals("boolean", printer.columns().get(2).type());
            assertEquals(
                    "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, "
                            + "PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.",
                    printer.columns().get(4).description());
        }

        @Test
        void valueIsAnInt64AndThePolicyIsShownAlways() {
            assertEquals(
                    List.of(
                            "system-node-critical",
                            2000001000L,
                            false,
                            "3h",
                            "PreemptLowerPriority"),
                    cells(
                            "scheduling.k8s.io",
                            "PriorityClass",
                            "{'metadata':{'name':'system-node-critical',"
                                    + CREATED
                                    + "},'value':2000001000,'preemptionPolicy':'PreemptLowerPriority'}"));
            assertEquals(
                    List.of("batch", -5L, true, "3h", ""),
                    cells(
                            "scheduling.k8s.io",
                            "PriorityClass",
                            "{'metadata':{'name':'batch',"
                                    + CREATED
                                    + "},'value':-5,'globalDefault':true}"));
        }
    }

    @Nested
    class Lease {
        @Test
        void columns() {
            TablePrinter printer = BuiltinDefinitions.printer("coordination.k8s.io", "Lease");
            assertEquals(List.of("Name", "Holder", "Age"), names(printer));
            assertEquals(List.of(0, 0, 0), priorities(printer));
        }

        @Test
        void theHolderOrEmpty() {
            assertEquals(
                    List.of("kube-scheduler", "node-1_4b2f", "3h"),
                    cells(
                            "coordination.k8s.io",
                            "Lease",
                            "{'metadata':{'name':'kube-scheduler',"
                                    + CREATED
                                    + "},"
                                    + "'spec':{'holderIdentity':'node-1_4b2f','leaseDurationSeconds':15}}"));
            assertEquals(
                    List.of("free", "", "3h"),
                    cells(
                            "coordination.k8s.io",
                            "Lease",
                            "{'metadata':{'name':'free'," + CREATED + "},'spec':{}}"));
        }
    }
}
