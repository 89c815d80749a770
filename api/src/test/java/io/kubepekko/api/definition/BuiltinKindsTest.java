package io.kubepekko.api.definition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.registry.ForwardedCreate;
import io.kubepekko.api.registry.NameRule;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.ScaleSpec;
import io.kubepekko.api.registry.SelectableField;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.table.RoleBindingPrinter;
import io.kubepekko.api.table.TablePrinter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in table against Kubernetes 1.35 ({@code kubectl api-resources -o wide} and the
 * strategies).
 */
class BuiltinKindsTest {

    private static final Registry REGISTRY = Registry.builtin();

    private static ResourceType type(String group, String resource) {
        return REGISTRY.find(group, "v1", resource)
                .orElseThrow(() -> new AssertionError("missing " + resource + "." + group));
    }

    private static Set<String> resourcesWhere(Predicate<ResourceType> p) {
        return REGISTRY.all().stream()
                .filter(p)
                .map(ResourceType::resource)
                .collect(Collectors.toSet());
    }

    @ParameterizedTest(name = "{2}.{0}/{1} is kind {3}, list kind {3}List, singular {4}")
    @CsvSource({
        "'', v1, configmaps, ConfigMap, configmap",
        "'', v1, endpoints, Endpoints, endpoints",
        "'', v1, events, Event, event",
        "'', v1, limitranges, LimitRange, limitrange",
        "'', v1, namespaces, Namespace, namespace",
        "'', v1, nodes, Node, node",
        "'', v1, persistentvolumeclaims, PersistentVolumeClaim, persistentvolumeclaim",
        "'', v1, persistentvolumes, PersistentVolume, persistentvolume",
        "'', v1, pods, Pod, pod",
        "'', v1, resourcequotas, ResourceQuota, resourcequota",
        "'', v1, secrets, Secret, secret",
        "'', v1, serviceaccounts, ServiceAccount, serviceaccount",
        "'', v1, services, Service, service",
        "apps, v1, daemonsets, DaemonSet, daemonset",
        "apps, v1, deployments, Deployment, deployment",
        "apps, v1, replicasets, ReplicaSet, replicaset",
        "apps, v1, statefulsets, StatefulSet, statefulset",
        "autoscaling, v2, horizontalpodautoscalers, HorizontalPodAutoscaler, horizontalpodautoscaler",
        "autoscaling, v1, horizontalpodautoscalers, HorizontalPodAutoscaler, horizontalpodautoscaler",
        "batch, v1, cronjobs, CronJob, cronjob",
        "batch, v1, jobs, Job, job",
        "networking.k8s.io, v1, ingresses, Ingress, ingress",
        "networking.k8s.io, v1, networkpolicies, NetworkPolicy, networkpolicy",
        "networking.k8s.io, v1, ipaddresses, IPAddress, ipaddress",
        "policy, v1, poddisruptionbudgets, PodDisruptionBudget, poddisruptionbudget",
        "rbac.authorization.k8s.io, v1, clusterrolebindings, ClusterRoleBinding, clusterrolebinding",
        "rbac.authorization.k8s.io, v1, clusterroles, ClusterRole, clusterrole",
        "rbac.authorization.k8s.io, v1, rolebindings, RoleBinding, rolebinding",
        "rbac.authorization.k8s.io, v1, roles, Role, role",
        "storage.k8s.io, v1, storageclasses, StorageClass, storageclass",
        "admissionregistration.k8s.io, v1, mutatingwebhookconfigurations, MutatingWebhookConfiguration, mutatingwebhookconfiguration",
        "admissionregistration.k8s.io, v1, validatingwebhookconfigurations, ValidatingWebhookConfiguration, validatingwebhookconfiguration",
        "scheduling.k8s.io, v1, priorityclasses, PriorityClass, priorityclass",
        "coordination.k8s.io, v1, leases, Lease, lease",
    })
    void servesEveryBuiltinKind(
            String group, String version, String resource, String kind, String singular) {
        ResourceType t = REGISTRY.find(group, version, resource).orElseThrow();
        assertEquals(kind, t.kind());
        assertEquals(kind + "List", t.listKind());
        assertEquals(singular, t.singular());
    }

    @Test
    void listsExactlyTheThirtyThreeBuiltinKindsBindingsTheSixReviewsEventsV1AndAutoscalingV1() {
        // events.k8s.io/v1 Events are served, but stored as core/v1 Events; autoscaling/v1
        // HorizontalPodAutoscalers as autoscaling/v2 ones; networking.k8s.io/v1beta1
        // IPAddresses are held, off by default.
        assertEquals(33, REGISTRY.stored().size());
        assertEquals(42, REGISTRY.all().size());
    }

    /**
     * kube-apiserver's review storages (tokenreview, selfsubjectreview, the four access reviews):
     * create only, no short names, nothing stored; only LocalSubjectAccessReview is namespaced.
     */
    @ParameterizedTest(name = "{0}/{1} namespaced={2}")
    @CsvSource({
        "authentication.k8s.io, tokenreviews, false, TokenReview",
        "authentication.k8s.io, selfsubjectreviews, false, SelfSubjectReview",
        "authorization.k8s.io, subjectaccessreviews, false, SubjectAccessReview",
        "authorization.k8s.io, localsubjectaccessreviews, true, LocalSubjectAccessReview",
        "authorization.k8s.io, selfsubjectaccessreviews, false, SelfSubjectAccessReview",
        "authorization.k8s.io, selfsubjectrulesreviews, false, SelfSubjectRulesReview"
    })
    void reviewsAreOnlyCreatedAndNeverStored(
            String group, String resource, boolean namespaced, String kind) {
        ResourceType t = type(group, resource);
        assertEquals(kind, t.kind());
        assertEquals("v1", t.version());
        assertEquals(namespaced, t.namespaced());
        assertEquals(List.of("create"), t.verbs());
        assertEquals(List.of(), t.shortNames());
        assertEquals(Set.of(), t.subresources());
        assertTrue(t.review() != null, "answered from code");
        assertFalse(t.stored());
        assertEquals(Optional.empty(), REGISTRY.findKind(group + "/v1", kind), "never an owner");
    }

    /**
     * kube-apiserver's LegacyBindingREST: a create-only resource whose create is a pod's binding.
     */
    @Test
    void bindingsAreOnlyCreatedThroughThePodsBindingSubresource() {
        ResourceType bindings = type("", "bindings");
        assertEquals("Binding", bindings.kind());
        assertEquals("binding", bindings.singular());
        assertTrue(bindings.namespaced());
        assertEquals(List.of("create"), bindings.verbs());
        assertEquals(new ForwardedCreate("pods", "binding"), bindings.forwardedCreate());
        assertFalse(bindings.stored());
        assertFalse(REGISTRY.stored().contains(bindings));
        assertEquals(Optional.empty(), REGISTRY.findKind("v1", "Binding"), "never an owner");
        assertTrue(type("", "pods").stored());
    }

    @ParameterizedTest(name = "{1}.{0}: short names [{2}], categories [{3}]")
    @CsvSource({
        "'', configmaps, cm, ''",
        "'', endpoints, ep, ''",
        "'', events, ev, ''",
        "'', limitranges, limits, ''",
        "'', namespaces, ns, ''",
        "'', nodes, no, ''",
        "'', persistentvolumeclaims, pvc, ''",
        "'', persistentvolumes, pv, ''",
        "'', pods, po, all",
        "'', resourcequotas, quota, ''",
        "'', secrets, '', ''",
        "'', serviceaccounts, sa, ''",
        "'', services, svc, all",
        "apps, daemonsets, ds, all",
        "apps, deployments, deploy, all",
        "apps, replicasets, rs, all",
        "apps, statefulsets, sts, all",
        "autoscaling, horizontalpodautoscalers, hpa, all",
        "batch, cronjobs, cj, all",
        "batch, jobs, '', all",
        "networking.k8s.io, ingresses, ing, ''",
        "networking.k8s.io, networkpolicies, netpol, ''",
        "policy, poddisruptionbudgets, pdb, ''",
        "rbac.authorization.k8s.io, roles, '', ''",
        "storage.k8s.io, storageclasses, sc, ''",
        "scheduling.k8s.io, priorityclasses, pc, ''",
        "coordination.k8s.io, leases, '', ''",
    })
    void hasKubectlShortNamesAndCategories(
            String group, String resource, String shortNames, String categories) {
        ResourceType t = type(group, resource);
        assertEquals(split(shortNames), t.shortNames());
        assertEquals(split(categories), t.categories());
    }

    private static List<String> split(String csv) {
        return csv.isEmpty() ? List.of() : List.of(csv.split(" "));
    }

    @Test
    void namespacesAloneLackDeleteCollection() {
        assertEquals(
                Set.of("namespaces"),
                resourcesWhere(t -> t.stored() && !t.supports("deletecollection")));
        assertEquals(
                List.of("create", "delete", "get", "list", "patch", "update", "watch"),
                type("", "namespaces").verbs());
        assertEquals(ResourceType.ALL_VERBS, type("", "services").verbs());
    }

    @Test
    void clusterScopedKindsAreTheTenKubernetesDeclares() {
        // Of the kinds with objects; the reviews' scopes are checked with them.
        assertEquals(
                Set.of(
                        "namespaces",
                        "nodes",
                        "ipaddresses",
                        "persistentvolumes",
                        "clusterroles",
                        "clusterrolebindings",
                        "storageclasses",
                        "mutatingwebhookconfigurations",
                        "validatingwebhookconfigurations",
                        "priorityclasses"),
                resourcesWhere(t -> t.stored() && !t.namespaced()));
    }

    @Test
    void statusSubresourceOnlyWhereKubernetesServesIt() {
        assertEquals(
                Set.of(
                        "horizontalpodautoscalers",
                        "namespaces",
                        "nodes",
                        "persistentvolumeclaims",
                        "persistentvolumes",
                        "pods",
                        "resourcequotas",
                        "services",
                        "daemonsets",
                        "deployments",
                        "replicasets",
                        "statefulsets",
                        "cronjobs",
                        "jobs",
                        "ingresses",
                        "poddisruptionbudgets"),
                resourcesWhere(ResourceType::hasStatus));
    }

    @Test
    void scaleSubresourceOnWorkloadsWithReplicas() {
        assertEquals(
                Set.of("deployments", "replicasets", "statefulsets"),
                resourcesWhere(ResourceType::hasScale));
        assertEquals(ScaleSpec.WORKLOAD, type("apps", "deployments").scale());
    }

    @Test
    void podsAdvertiseTheirBindingEvictionAndLogSubresources() {
        assertEquals(
                Set.of("binding", "eviction", "log", "status"), type("", "pods").subresources());
    }

    @Test
    void createOnUpdateOnlyWhereTheStrategyAllowsIt() {
        assertEquals(
                Set.of(
                        "endpoints",
                        "events",
                        "limitranges",
                        "services",
                        "leases",
                        "roles",
                        "rolebindings",
                        "clusterroles",
                        "clusterrolebindings"),
                resourcesWhere(ResourceType::allowCreateOnUpdate));
    }

    @Test
    void generationTrackedByStrategiesThatSetItOnCreate() {
        assertEquals(
                Set.of(
                        "pods",
                        "daemonsets",
                        "deployments",
                        "replicasets",
                        "statefulsets",
                        "cronjobs",
                        "jobs",
                        "ingresses",
                        "networkpolicies",
                        "poddisruptionbudgets"),
                resourcesWhere(ResourceType::tracksGeneration));
    }

    static Stream<Arguments> nameRules() {
        return Stream.of(
                Arguments.of("", "namespaces", NameRule.DNS_LABEL),
                Arguments.of("apps", "statefulsets", NameRule.DNS_LABEL),
                Arguments.of("", "services", NameRule.DNS1035_LABEL),
                Arguments.of("", "events", NameRule.PATH_SEGMENT),
                Arguments.of("policy", "poddisruptionbudgets", NameRule.PATH_SEGMENT),
                Arguments.of("rbac.authorization.k8s.io", "roles", NameRule.PATH_SEGMENT),
                Arguments.of(
                        "rbac.authorization.k8s.io", "clusterrolebindings", NameRule.PATH_SEGMENT),
                Arguments.of("", "configmaps", NameRule.DNS_SUBDOMAIN),
                Arguments.of("", "persistentvolumes", NameRule.DNS_SUBDOMAIN),
                Arguments.of("apps", "deployments", NameRule.DNS_SUBDOMAIN),
                Arguments.of("batch", "cronjobs", NameRule.DNS_SUBDOMAIN));
    }

    @ParameterizedTest(name = "{1}.{0} names follow {2}")
    @MethodSource("nameRules")
    void namesFollowTheKindsValidateNameFunc(String group, String resource, NameRule rule) {
        assertEquals(rule, type(group, resource).nameRule());
    }

    static Stream<Arguments> selectableFields() {
        return Stream.of(
                Arguments.of("", "services", List.of("spec.clusterIP", "spec.type")),
                Arguments.of("", "secrets", List.of("type")),
                Arguments.of("", "namespaces", List.of("status.phase")),
                Arguments.of("", "nodes", List.of("spec.unschedulable")),
                Arguments.of("batch", "jobs", List.of("status.successful")),
                Arguments.of("apps", "replicasets", List.of()),
                Arguments.of("batch", "cronjobs", List.of()),
                Arguments.of("", "configmaps", List.of()));
    }

    @ParameterizedTest(name = "{1}.{0} selects on {2}")
    @MethodSource("selectableFields")
    void fieldSelectorsMatchTheFieldLabelConversions(
            String group, String resource, List<String> fields) {
        assertEquals(fields, type(group, resource).selectableLabels());
    }

    @Test
    void podFieldSelectorsIncludeNodeNameAndPhase() {
        List<String> fields = type("", "pods").selectableLabels();
        assertTrue(
                fields.containsAll(
                        List.of(
                                "spec.nodeName",
                                "status.phase",
                                "status.podIP",
                                "spec.hostNetwork")));
        assertFalse(fields.contains("metadata.name"), "metadata fields are implied, not listed");
    }

    @Test
    void groupsFollowKubeApiserverDiscoveryOrder() {
        assertEquals(
                List.of(
                        "",
                        "apps",
                        "events.k8s.io",
                        "authentication.k8s.io",
                        "authorization.k8s.io",
                        "autoscaling",
                        "batch",
                        "networking.k8s.io",
                        "policy",
                        "rbac.authorization.k8s.io",
                        "storage.k8s.io",
                        "admissionregistration.k8s.io",
                        "scheduling.k8s.io",
                        "coordination.k8s.io"),
                REGISTRY.groups());
    }

    /**
     * Each kind with its strategy and Table printer, as its definition names them: a kind added
     * without one of its parts, or wired to another kind's, fails here (and, for a missing part, at
     * start-up).
     */
    @ParameterizedTest(name = "{1}.{0}: strategy {2}, printer {3}")
    @CsvSource({
        "'', Binding, BindingStrategy, DEFAULT",
        "'', ConfigMap, ConfigMapStrategy, ConfigMapPrinter",
        "'', Endpoints, EndpointsStrategy, EndpointsPrinter",
        "'', Event, EventStrategy, EventPrinter",
        "'', LimitRange, LimitRangeStrategy, DEFAULT",
        "'', Namespace, NamespaceStrategy, NamespacePrinter",
        "'', Node, NodeStrategy, NodePrinter",
        "'', PersistentVolumeClaim, PersistentVolumeClaimStrategy, PersistentVolumeClaimPrinter",
        "'', PersistentVolume, PersistentVolumeStrategy, PersistentVolumePrinter",
        "'', Pod, PodStrategy, PodPrinter",
        "'', ResourceQuota, ResourceQuotaStrategy, ResourceQuotaPrinter",
        "'', Secret, SecretStrategy, SecretPrinter",
        "'', ServiceAccount, GENERIC, ServiceAccountPrinter",
        "'', Service, ServiceStrategy, ServicePrinter",
        "apps, DaemonSet, WorkloadStrategy, DaemonSetPrinter",
        "apps, Deployment, WorkloadStrategy, DeploymentPrinter",
        "apps, ReplicaSet, WorkloadStrategy, ReplicaSetPrinter",
        "apps, StatefulSet, WorkloadStrategy, StatefulSetPrinter",
        "autoscaling, HorizontalPodAutoscaler, HorizontalPodAutoscalerStrategy, HorizontalPodAutoscalerPrinter",
        "batch, CronJob, CronJobStrategy, CronJobPrinter",
        "batch, Job, JobStrategy, JobPrinter",
        "networking.k8s.io, Ingress, IngressStrategy, IngressPrinter",
        "networking.k8s.io, NetworkPolicy, NetworkPolicyStrategy, NetworkPolicyPrinter",
        "policy, PodDisruptionBudget, PodDisruptionBudgetStrategy, PodDisruptionBudgetPrinter",
        "rbac.authorization.k8s.io, ClusterRoleBinding, RoleBindingStrategy, RoleBindingPrinter",
        "rbac.authorization.k8s.io, ClusterRole, RoleStrategy, DEFAULT",
        "rbac.authorization.k8s.io, RoleBinding, RoleBindingStrategy, RoleBindingPrinter",
        "rbac.authorization.k8s.io, Role, RoleStrategy, DEFAULT",
        "storage.k8s.io, StorageClass, StorageClassStrategy, StorageClassPrinter",
        "scheduling.k8s.io, PriorityClass, PriorityClassStrategy, PriorityClassPrinter",
        "coordination.k8s.io, Lease, LeaseStrategy, LeasePrinter",
    })
    void everyKindIsDefinedWithItsStrategyAndPrinter(
            String group, String kind, String strategy, String printer) {
        KindDefinition d = BuiltinDefinitions.of(group, kind);
        assertEquals(
                strategy,
                d.strategy() == Strategy.GENERIC
                        ? "GENERIC"
                        : d.strategy().getClass().getSimpleName());
        assertEquals(
                printer,
                d.printer() == TablePrinter.DEFAULT
                        ? "DEFAULT"
                        : d.printer().getClass().getSimpleName());
    }

    @Test
    void everyDefinitionIsBuiltinCompleteAndListedOnce() {
        assertEquals(43, BuiltinKinds.all().size());
        for (KindDefinition d : BuiltinKinds.all()) {
            assertTrue(d.type().builtin(), d.type().kind());
            assertEquals(
                    List.of(), KindDefinition.problems(d.type(), d.printer()), d.type().kind());
            assertSame(
                    d,
                    REGISTRY.definition(d.type().group(), d.type().version(), d.type().resource())
                            .orElseThrow());
        }
    }

    @Test
    void rbacBindingsPrintTheirOwnRoleWords() {
        assertSame(
                RoleBindingPrinter.ROLE_BINDING,
                BuiltinDefinitions.printer("rbac.authorization.k8s.io", "RoleBinding"));
        assertSame(
                RoleBindingPrinter.CLUSTER_ROLE_BINDING,
                BuiltinDefinitions.printer("rbac.authorization.k8s.io", "ClusterRoleBinding"));
    }

    @Test
    void fieldLabelsWithTheirOwnSourcesAndAliases() {
        assertEquals(
                new SelectableField("status.successful", "status.succeeded", "0"),
                type("batch", "jobs").selectableFields().get(0));
        assertEquals(
                new SelectableField("spec.unschedulable", "spec.unschedulable", "false"),
                type("", "nodes").selectableFields().get(0));
        assertTrue(
                type("", "events")
                        .selectableFields()
                        .contains(
                                new SelectableField(
                                        "source", "source.component", "", "reportingComponent")));
        assertTrue(
                type("", "pods")
                        .selectableFields()
                        .contains(
                                new SelectableField(
                                        "spec.hostNetwork", "spec.hostNetwork", "false")));
        assertEquals(Map.of("spec.host", "spec.nodeName"), type("", "pods").fieldLabelAliases());
    }
}
