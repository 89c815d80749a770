package io.kubepekko.api.definition;

import io.kubepekko.api.GroupVersionKind;
import java.util.List;

/**
 * The versions of kinds this server serves that kube 1.35 no longer serves, with the lifecycle
 * their {@code +k8s:prerelease-lifecycle-gen} tags give them: removed in 1.35 or earlier, so never
 * registered here. A request to one answers 404 as any unknown path does, and discovery and OpenAPI
 * do not list it. A definition with such a lifecycle given to a {@link Registry} would be held and
 * not served ({@link Registry#unavailable()}); these are not even defined, since nothing reads
 * them.
 */
public final class RemovedVersions {
    private RemovedVersions() {}

    /**
     * One removed version of a kind.
     *
     * @param kind the removed group, version and kind
     * @param resource its resource name
     * @param namespaced whether its objects live in namespaces
     * @param lifecycle when it was introduced, deprecated and removed, and what replaces it
     */
    public record RemovedVersion(
            GroupVersionKind kind,
            String resource,
            boolean namespaced,
            VersionLifecycle lifecycle) {

        /** The collection's path ({@code /apis/batch/v1beta1/namespaces/default/cronjobs}). */
        public String collectionPath(String namespace) {
            return kind.pathPrefix()
                    + (namespaced ? "/namespaces/" + namespace : "")
                    + "/"
                    + resource;
        }
    }

    private static RemovedVersion removed(
            String group,
            String version,
            String kind,
            String resource,
            boolean namespaced,
            String introduced,
            String deprecated,
            String removed,
            String replacementGroup) {
        return removed(
                group,
                version,
                kind,
                resource,
                namespaced,
                introduced,
                deprecated,
                removed,
                replacementGroup,
                "v1");
    }

    private static RemovedVersion removed(
            String group,
            String version,
            String kind,
            String resource,
            boolean namespaced,
            String introduced,
            String deprecated,
            String removed,
            String replacementGroup,
            String replacementVersion) {
        return new RemovedVersion(
                new GroupVersionKind(group, version, kind),
                resource,
                namespaced,
                VersionLifecycle.tagged(
                        version,
                        introduced,
                        deprecated,
                        removed,
                        new GroupVersionKind(replacementGroup, replacementVersion, kind)));
    }

    /** kube 1.35's removed versions of the kinds this server serves. */
    public static final List<RemovedVersion> KUBE_1_35 =
            List.of(
                    removed(
                            "extensions",
                            "v1beta1",
                            "Deployment",
                            "deployments",
                            true,
                            "1.1",
                            "1.8",
                            "1.16",
                            "apps"),
                    removed(
                            "extensions",
                            "v1beta1",
                            "DaemonSet",
                            "daemonsets",
                            true,
                            "1.1",
                            "1.8",
                            "1.16",
                            "apps"),
                    removed(
                            "extensions",
                            "v1beta1",
                            "ReplicaSet",
                            "replicasets",
                            true,
                            "1.2",
                            "1.8",
                            "1.16",
                            "apps"),
                    removed(
                            "extensions",
                            "v1beta1",
                            "NetworkPolicy",
                            "networkpolicies",
                            true,
                            "1.3",
                            "1.9",
                            "1.16",
                            "networking.k8s.io"),
                    removed(
                            "extensions",
                            "v1beta1",
                            "Ingress",
                            "ingresses",
                            true,
                            "1.1",
                            "1.14",
                            "1.22",
                            "networking.k8s.io"),
                    removed(
                            "apps",
                            "v1beta1",
                            "Deployment",
                            "deployments",
                            true,
                            "1.6",
                            "1.8",
                            "1.16",
                            "apps"),
                    removed(
                            "apps",
                            "v1beta1",
                            "StatefulSet",
                            "statefulsets",
                            true,
                            "1.5",
                            "1.8",
                            "1.16",
                            "apps"),
                    removed(
                            "apps",
                            "v1beta2",
                            "Deployment",
                            "deployments",
                            true,
                            "1.8",
                            "1.9",
                            "1.16",
                            "apps"),
                    removed(
                            "apps",
                            "v1beta2",
                            "DaemonSet",
                            "daemonsets",
                            true,
                            "1.8",
                            "1.9",
                            "1.16",
                            "apps"),
                    removed(
                            "apps",
                            "v1beta2",
                            "ReplicaSet",
                            "replicasets",
                            true,
                            "1.8",
                            "1.9",
                            "1.16",
                            "apps"),
                    removed(
                            "apps",
                            "v1beta2",
                            "StatefulSet",
                            "statefulsets",
                            true,
                            "1.8",
                            "1.9",
                            "1.16",
                            "apps"),
                    removed(
                            "batch",
                            "v1beta1",
                            "CronJob",
                            "cronjobs",
                            true,
                            "1.8",
                            "1.21",
                            "1.25",
                            "batch"),
                    // autoscaling/v2beta1 and v2beta2: replaced by autoscaling/v2 (tags introduced,
                    // deprecated and replacement; removed three minors after the deprecation).
                    removed(
                            "autoscaling",
                            "v2beta1",
                            "HorizontalPodAutoscaler",
                            "horizontalpodautoscalers",
                            true,
                            "1.8",
                            "1.22",
                            "1.25",
                            "autoscaling",
                            "v2"),
                    removed(
                            "autoscaling",
                            "v2beta2",
                            "HorizontalPodAutoscaler",
                            "horizontalpodautoscalers",
                            true,
                            "1.12",
                            "1.23",
                            "1.26",
                            "autoscaling",
                            "v2"),
                    removed(
                            "policy",
                            "v1beta1",
                            "PodDisruptionBudget",
                            "poddisruptionbudgets",
                            true,
                            "1.5",
                            "1.22",
                            "1.25",
                            "policy"),
                    removed(
                            "networking.k8s.io",
                            "v1beta1",
                            "Ingress",
                            "ingresses",
                            true,
                            "1.14",
                            "1.19",
                            "1.22",
                            "networking.k8s.io"),
                    removed(
                            "events.k8s.io",
                            "v1beta1",
                            "Event",
                            "events",
                            true,
                            "1.8",
                            "1.22",
                            "1.25",
                            "events.k8s.io"),
                    removed(
                            "coordination.k8s.io",
                            "v1beta1",
                            "Lease",
                            "leases",
                            true,
                            "1.12",
                            "1.19",
                            "1.22",
                            "coordination.k8s.io"),
                    removed(
                            "rbac.authorization.k8s.io",
                            "v1beta1",
                            "Role",
                            "roles",
                            true,
                            "1.6",
                            "1.17",
                            "1.22",
                            "rbac.authorization.k8s.io"),
                    removed(
                            "rbac.authorization.k8s.io",
                            "v1beta1",
                            "RoleBinding",
                            "rolebindings",
                            true,
                            "1.6",
                            "1.17",
                            "1.22",
                            "rbac.authorization.k8s.io"),
                    removed(
                            "rbac.authorization.k8s.io",
                            "v1beta1",
                            "ClusterRole",
                            "clusterroles",
                            false,
                            "1.6",
                            "1.17",
                            "1.22",
                            "rbac.authorization.k8s.io"),
                    removed(
                            "rbac.authorization.k8s.io",
                            "v1beta1",
                            "ClusterRoleBinding",
                            "clusterrolebindings",
                            false,
                            "1.6",
                            "1.17",
                            "1.22",
                            "rbac.authorization.k8s.io"),
                    removed(
                            "rbac.authorization.k8s.io",
                            "v1alpha1",
                            "Role",
                            "roles",
                            true,
                            "1.6",
                            "1.17",
                            "1.22",
                            "rbac.authorization.k8s.io"),
                    removed(
                            "rbac.authorization.k8s.io",
                            "v1alpha1",
                            "ClusterRole",
                            "clusterroles",
                            false,
                            "1.6",
                            "1.17",
                            "1.22",
                            "rbac.authorization.k8s.io"),
                    removed(
                            "storage.k8s.io",
                            "v1beta1",
                            "StorageClass",
                            "storageclasses",
                            false,
                            "1.4",
                            "1.19",
                            "1.22",
                            "storage.k8s.io"),
                    removed(
                            "scheduling.k8s.io",
                            "v1beta1",
                            "PriorityClass",
                            "priorityclasses",
                            false,
                            "1.11",
                            "1.14",
                            "1.22",
                            "scheduling.k8s.io"),
                    removed(
                            "scheduling.k8s.io",
                            "v1alpha1",
                            "PriorityClass",
                            "priorityclasses",
                            false,
                            "1.8",
                            "1.14",
                            "1.22",
                            "scheduling.k8s.io"),
                    removed(
                            "authentication.k8s.io",
                            "v1beta1",
                            "TokenReview",
                            "tokenreviews",
                            false,
                            "1.3",
                            "1.19",
                            "1.22",
                            "authentication.k8s.io"),
                    removed(
                            "authentication.k8s.io",
                            "v1beta1",
                            "SelfSubjectReview",
                            "selfsubjectreviews",
                            false,
                            "1.27",
                            "1.30",
                            "1.33",
                            "authentication.k8s.io"),
                    removed(
                            "authorization.k8s.io",
                            "v1beta1",
                            "SubjectAccessReview",
                            "subjectaccessreviews",
                            false,
                            "1.3",
                            "1.19",
                            "1.22",
                            "authorization.k8s.io"),
                    removed(
                            "authorization.k8s.io",
                            "v1beta1",
                            "SelfSubjectAccessReview",
                            "selfsubjectaccessreviews",
                            false,
                            "1.3",
                            "1.19",
                            "1.22",
                            "authorization.k8s.io"),
                    removed(
                            "authorization.k8s.io",
                            "v1beta1",
                            "LocalSubjectAccessReview",
                            "localsubjectaccessreviews",
                            true,
                            "1.3",
                            "1.19",
                            "1.22",
                            "authorization.k8s.io"),
                    removed(
                            "authorization.k8s.io",
                            "v1beta1",
                            "SelfSubjectRulesReview",
                            "selfsubjectrulesreviews",
                            false,
                            "1.8",
                            "1.19",
                            "1.22",
                            "authorization.k8s.io"));
}
