package io.kubepekko.api.definition;

import static io.kubepekko.api.definition.KindDefinition.builtin;
import static io.kubepekko.api.registry.ResourceType.builder;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.cel.CelExpressionCheck;
import io.kubepekko.api.auth.review.Review;
import io.kubepekko.api.auth.review.Reviews;
import io.kubepekko.api.kinds.AutoscalingV1Conversion;
import io.kubepekko.api.kinds.CronJobStrategy;
import io.kubepekko.api.kinds.EventsV1Conversion;
import io.kubepekko.api.kinds.HorizontalPodAutoscalerStrategy;
import io.kubepekko.api.kinds.IngressStrategy;
import io.kubepekko.api.kinds.IpAddressStrategy;
import io.kubepekko.api.kinds.JobStrategy;
import io.kubepekko.api.kinds.LeaseStrategy;
import io.kubepekko.api.kinds.NetworkPolicyStrategy;
import io.kubepekko.api.kinds.PodDisruptionBudgetStrategy;
import io.kubepekko.api.kinds.PriorityClassStrategy;
import io.kubepekko.api.kinds.RoleBindingStrategy;
import io.kubepekko.api.kinds.RoleStrategy;
import io.kubepekko.api.kinds.StorageClassStrategy;
import io.kubepekko.api.kinds.WebhookConfigurationStrategy;
import io.kubepekko.api.kinds.WorkloadStrategy;
import io.kubepekko.api.registry.NameRule;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.ScaleSpec;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.registry.VersionConversion;
import io.kubepekko.api.table.ConvertedPrinter;
import io.kubepekko.api.table.CronJobPrinter;
import io.kubepekko.api.table.DaemonSetPrinter;
import io.kubepekko.api.table.DeploymentPrinter;
import io.kubepekko.api.table.EventPrinter;
import io.kubepekko.api.table.HorizontalPodAutoscalerPrinter;
import io.kubepekko.api.table.IngressPrinter;
import io.kubepekko.api.table.IpAddressPrinter;
import io.kubepekko.api.table.JobPrinter;
import io.kubepekko.api.table.LeasePrinter;
import io.kubepekko.api.table.NetworkPolicyPrinter;
import io.kubepekko.api.table.PodDisruptionBudgetPrinter;
import io.kubepekko.api.table.PriorityClassPrinter;
import io.kubepekko.api.table.ReplicaSetPrinter;
import io.kubepekko.api.table.RoleBindingPrinter;
import io.kubepekko.api.table.StatefulSetPrinter;
import io.kubepekko.api.table.StorageClassPrinter;
import io.kubepekko.api.table.TablePrinter;
import io.kubepekko.api.table.WebhookConfigurationPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The built-in kinds, as Kubernetes 1.35 registers them, each one definition: names, short names,
 * categories, scope, verbs, subresources, the facts the generic write path needs (create-on-update,
 * generation tracking, name rule, field-selector labels, whether a removing DELETE answers with the
 * object), the kind's strategy and its Table printer. Adding a built-in kind is one entry here
 * (core/v1 kinds: in {@link CoreKinds}) (plus its strategy and printer classes where it has its
 * own).
 *
 * <p>Groups appear in kube-apiserver's discovery order (apps, events.k8s.io, authentication.k8s.io,
 * authorization.k8s.io, autoscaling, batch, networking.k8s.io, policy, rbac.authorization.k8s.io,
 * storage.k8s.io, admissionregistration.k8s.io, scheduling.k8s.io, coordination.k8s.io), because
 * {@link Registry#groups()} keeps insertion order and discovery lists groups in that order.
 *
 * <p>Selectable fields are the labels clients send, which for a few kinds are not the JSON path of
 * the value they select ({@code ...ToSelectableFields} in {@code pkg/registry/*}/strategy.go):
 * Event {@code source} is {@code source.component} (else the reporting controller), Job {@code
 * status.successful} is {@code status.succeeded} (an int, so absent reads {@code 0}), and the
 * boolean labels ({@code spec.hostNetwork}, {@code spec.unschedulable}) read {@code "false"} when
 * the field is absent.
 *
 * <p>Kinds that kube prints with its default convertor (Name, Created At) name {@link
 * TablePrinter#DEFAULT}: Binding, LimitRange, Role and ClusterRole have no printer of their own in
 * kube either.
 */
public final class BuiltinKinds {
    private BuiltinKinds() {}

    /** The named groups' kinds, in kube-apiserver's discovery order of groups. */
    private static final List<KindDefinition> GROUPS =
            List.of(
                    // apps/v1
                    builtin(
                            builder("apps", "v1", "DaemonSet", "daemonsets")
                                    .shortNames("ds")
                                    .categories("all")
                                    .status()
                                    .tracksGeneration(),
                            new WorkloadStrategy(WorkloadStrategy.Kind.DAEMON_SET),
                            new DaemonSetPrinter()),
                    builtin(
                            builder("apps", "v1", "Deployment", "deployments")
                                    .shortNames("deploy")
                                    .categories("all")
                                    .status()
                                    .scale(ScaleSpec.WORKLOAD)
                                    .tracksGeneration(),
                            new WorkloadStrategy(WorkloadStrategy.Kind.DEPLOYMENT),
                            new DeploymentPrinter()),
                    // ReplicaSet's strategy computes status.replicas, but apps/v1 registers no
                    // field-label
                    // conversion, so the server rejects it (kubernetes/kubernetes#135136).
                    builtin(
                            builder("apps", "v1", "ReplicaSet", "replicasets")
                                    .shortNames("rs")
                                    .categories("all")
                                    .status()
                                    .scale(ScaleSpec.WORKLOAD)
                                    .tracksGeneration(),
                            new WorkloadStrategy(WorkloadStrategy.Kind.REPLICA_SET),
                            new ReplicaSetPrinter()),
                    // StatefulSet names become pod hostnames, so they are DNS labels (since 1.27).
                    builtin(
                            builder("apps", "v1", "StatefulSet", "statefulsets")
                                    .shortNames("sts")
                                    .categories("all")
                                    .status()
                                    .scale(ScaleSpec.WORKLOAD)
                                    .tracksGeneration()
                                    .nameRule(NameRule.DNS_LABEL),
                            new WorkloadStrategy(WorkloadStrategy.Kind.STATEFUL_SET),
                            new StatefulSetPrinter()),
                    // events.k8s.io/v1: core/v1's Events under the newer field names, stored in
                    // core/v1's collections (kube stores both groups' events together).
                    KindDefinition.servedVersion(
                            builder("events.k8s.io", "v1", "Event", "events")
                                    .shortNames("ev")
                                    .allowCreateOnUpdate()
                                    .selectableFields(
                                            "regarding.kind",
                                            "regarding.namespace",
                                            "regarding.name",
                                            "regarding.uid",
                                            "regarding.apiVersion",
                                            "regarding.resourceVersion",
                                            "regarding.fieldPath",
                                            "reason",
                                            "reportingController")
                                    .selectableFieldOr(
                                            "source",
                                            "deprecatedSource.component",
                                            "reportingController")
                                    .selectableFields("type"),
                            new GroupResource("", "events"),
                            EventsV1Conversion.INSTANCE,
                            new ConvertedPrinter(
                                    EventPrinter.INSTANCE, EventsV1Conversion.INSTANCE)),
                    // authentication.k8s.io/v1 and authorization.k8s.io/v1: reviews, created and
                    // answered from code, never stored.
                    review("authentication.k8s.io", "TokenReview", Reviews.TOKEN_REVIEW, false),
                    review(
                            "authentication.k8s.io",
                            "SelfSubjectReview",
                            Reviews.SELF_SUBJECT_REVIEW,
                            false),
                    review(
                            "authorization.k8s.io",
                            "LocalSubjectAccessReview",
                            Reviews.LOCAL_SUBJECT_ACCESS_REVIEW,
                            true),
                    review(
                            "authorization.k8s.io",
                            "SelfSubjectAccessReview",
                            Reviews.SELF_SUBJECT_ACCESS_REVIEW,
                            false),
                    review(
                            "authorization.k8s.io",
                            "SelfSubjectRulesReview",
                            Reviews.SELF_SUBJECT_RULES_REVIEW,
                            false),
                    review(
                            "authorization.k8s.io",
                            "SubjectAccessReview",
                            Reviews.SUBJECT_ACCESS_REVIEW,
                            false),
                    // autoscaling/v2, the storage version, then autoscaling/v1 over it: v1 holds
                    // one
                    // CPU target and carries the rest of v2 in annotations.
                    builtin(
                            builder(
                                            "autoscaling",
                                            "v2",
                                            "HorizontalPodAutoscaler",
                                            "horizontalpodautoscalers")
                                    .shortNames("hpa")
                                    .categories("all")
                                    .status(),
                            new HorizontalPodAutoscalerStrategy(),
                            HorizontalPodAutoscalerPrinter.INSTANCE),
                    KindDefinition.servedVersion(
                            builder(
                                            "autoscaling",
                                            "v1",
                                            "HorizontalPodAutoscaler",
                                            "horizontalpodautoscalers")
                                    .shortNames("hpa")
                                    .categories("all")
                                    .status(),
                            new GroupResource("autoscaling", "horizontalpodautoscalers"),
                            AutoscalingV1Conversion.INSTANCE,
                            new ConvertedPrinter(
                                    HorizontalPodAutoscalerPrinter.INSTANCE,
                                    AutoscalingV1Conversion.INSTANCE)),
                    // batch/v1
                    builtin(
                            builder("batch", "v1", "CronJob", "cronjobs")
                                    .shortNames("cj")
                                    .categories("all")
                                    .status()
                                    .tracksGeneration(),
                            new CronJobStrategy(),
                            new CronJobPrinter()),
                    // JobToSelectableFields: the label says "successful", the field is
                    // status.succeeded (an int).
                    builtin(
                            builder("batch", "v1", "Job", "jobs")
                                    .categories("all")
                                    .status()
                                    .tracksGeneration()
                                    .selectableField("status.successful", "status.succeeded", "0"),
                            new JobStrategy(),
                            new JobPrinter()),
                    // networking.k8s.io/v1
                    builtin(
                            builder("networking.k8s.io", "v1", "Ingress", "ingresses")
                                    .shortNames("ing")
                                    .status()
                                    .tracksGeneration(),
                            new IngressStrategy(),
                            new IngressPrinter()),
                    builtin(
                            builder("networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies")
                                    .shortNames("netpol")
                                    .tracksGeneration(),
                            new NetworkPolicyStrategy(),
                            new NetworkPolicyPrinter()),
                    // networking.k8s.io/v1 IPAddress (GA in 1.33), named by the address itself.
                    builtin(
                            builder("networking.k8s.io", "v1", "IPAddress", "ipaddresses")
                                    .clusterScoped()
                                    .shortNames("ip")
                                    .nameRule(NameRule.IP_ADDRESS),
                            IpAddressStrategy.INSTANCE,
                            IpAddressPrinter.INSTANCE),
                    // networking.k8s.io/v1beta1 IPAddress: the same schema over v1's objects.
                    // Tagged
                    // only "introduced=1.31", so deprecated in 1.34 and removed in 1.37; a beta
                    // introduced since 1.24, so off unless --runtime-config turns it on.
                    KindDefinition.servedVersion(
                                    builder(
                                                    "networking.k8s.io",
                                                    "v1beta1",
                                                    "IPAddress",
                                                    "ipaddresses")
                                            .clusterScoped()
                                            .shortNames("ip")
                                            .nameRule(NameRule.IP_ADDRESS),
                                    new GroupResource("networking.k8s.io", "ipaddresses"),
                                    VersionConversion.IDENTITY,
                                    IpAddressPrinter.INSTANCE)
                            .withLifecycle(VersionLifecycle.introduced("v1beta1", "1.31")),
                    // policy/v1: the PDB validator checks only the spec, so names get the generic
                    // path-segment rule.
                    builtin(
                            builder("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets")
                                    .shortNames("pdb")
                                    .status()
                                    .tracksGeneration()
                                    .nameRule(NameRule.PATH_SEGMENT),
                            new PodDisruptionBudgetStrategy(),
                            new PodDisruptionBudgetPrinter()),
                    // rbac.authorization.k8s.io/v1
                    builtin(
                            builder(
                                            "rbac.authorization.k8s.io",
                                            "v1",
                                            "ClusterRoleBinding",
                                            "clusterrolebindings")
                                    .clusterScoped()
                                    .nameRule(NameRule.PATH_SEGMENT)
                                    .allowCreateOnUpdate(),
                            new RoleBindingStrategy(false),
                            RoleBindingPrinter.CLUSTER_ROLE_BINDING),
                    builtin(
                            builder(
                                            "rbac.authorization.k8s.io",
                                            "v1",
                                            "ClusterRole",
                                            "clusterroles")
                                    .clusterScoped()
                                    .nameRule(NameRule.PATH_SEGMENT)
                                    .allowCreateOnUpdate(),
                            new RoleStrategy(false),
                            TablePrinter.DEFAULT),
                    builtin(
                            builder(
                                            "rbac.authorization.k8s.io",
                                            "v1",
                                            "RoleBinding",
                                            "rolebindings")
                                    .nameRule(NameRule.PATH_SEGMENT)
                                    .allowCreateOnUpdate(),
                            new RoleBindingStrategy(true),
                            RoleBindingPrinter.ROLE_BINDING),
                    builtin(
                            builder("rbac.authorization.k8s.io", "v1", "Role", "roles")
                                    .nameRule(NameRule.PATH_SEGMENT)
                                    .allowCreateOnUpdate(),
                            new RoleStrategy(true),
                            TablePrinter.DEFAULT),
                    // storage.k8s.io/v1
                    builtin(
                            builder("storage.k8s.io", "v1", "StorageClass", "storageclasses")
                                    .clusterScoped()
                                    .shortNames("sc")
                                    .returnsDeletedObject(),
                            new StorageClassStrategy(),
                            new StorageClassPrinter()),
                    // admissionregistration.k8s.io/v1
                    builtin(
                            builder(
                                            "admissionregistration.k8s.io",
                                            "v1",
                                            "MutatingWebhookConfiguration",
                                            "mutatingwebhookconfigurations")
                                    .clusterScoped()
                                    .categories("api-extensions"),
                            new WebhookConfigurationStrategy(true, CelExpressionCheck.INSTANCE),
                            WebhookConfigurationPrinter.INSTANCE),
                    builtin(
                            builder(
                                            "admissionregistration.k8s.io",
                                            "v1",
                                            "ValidatingWebhookConfiguration",
                                            "validatingwebhookconfigurations")
                                    .clusterScoped()
                                    .categories("api-extensions"),
                            new WebhookConfigurationStrategy(false, CelExpressionCheck.INSTANCE),
                            WebhookConfigurationPrinter.INSTANCE),
                    // scheduling.k8s.io/v1
                    builtin(
                            builder("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses")
                                    .clusterScoped()
                                    .shortNames("pc"),
                            new PriorityClassStrategy(),
                            new PriorityClassPrinter()),
                    // coordination.k8s.io/v1
                    builtin(
                            builder("coordination.k8s.io", "v1", "Lease", "leases")
                                    .allowCreateOnUpdate(),
                            new LeaseStrategy(),
                            new LeasePrinter()));

    /** A review kind of {@code group}/v1: only created, answered by {@code review}. */
    private static KindDefinition review(
            String group, String kind, Review review, boolean namespaced) {
        ResourceType.Builder entry =
                builder(group, "v1", kind, kind.toLowerCase(Locale.ROOT) + "s").answeredBy(review);
        if (!namespaced) {
            entry.clusterScoped();
        }
        return builtin(entry, Strategy.GENERIC, TablePrinter.DEFAULT);
    }

    private static final List<KindDefinition> ALL = concat(CoreKinds.ALL, GROUPS);

    private static List<KindDefinition> concat(List<KindDefinition> a, List<KindDefinition> b) {
        List<KindDefinition> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    /**
     * Every built-in kind, core group first ({@link CoreKinds}), then named groups in discovery
     * order.
     */
    public static List<KindDefinition> all() {
        return ALL;
    }
}
