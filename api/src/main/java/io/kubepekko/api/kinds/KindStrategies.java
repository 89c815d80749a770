package io.kubepekko.api.kinds;

import io.kubepekko.api.registry.Strategy;

import java.util.Map;

/**
 * The per-kind strategies of the built-in kinds, by group and kind. Kinds without an entry behave
 * generically.
 */
public final class KindStrategies {
    private KindStrategies() {}

    private static final Map<String, Strategy> BY_KIND = Map.ofEntries(
            Map.entry("/Binding", new BindingStrategy()),
            Map.entry("/ConfigMap", new ConfigMapStrategy()),
            Map.entry("/Endpoints", new EndpointsStrategy()),
            Map.entry("/Event", new EventStrategy()),
            Map.entry("/LimitRange", new LimitRangeStrategy()),
            Map.entry("/Namespace", new NamespaceStrategy()),
            Map.entry("/Node", new NodeStrategy()),
            Map.entry("/PersistentVolume", new PersistentVolumeStrategy()),
            Map.entry("/PersistentVolumeClaim", new PersistentVolumeClaimStrategy()),
            Map.entry("/Pod", new PodStrategy()),
            Map.entry("/ResourceQuota", new ResourceQuotaStrategy()),
            Map.entry("/Secret", new SecretStrategy()),
            Map.entry("/Service", new ServiceStrategy()),
            Map.entry("apps/DaemonSet", new WorkloadStrategy(WorkloadStrategy.Kind.DAEMON_SET)),
            Map.entry("apps/Deployment", new WorkloadStrategy(WorkloadStrategy.Kind.DEPLOYMENT)),
            Map.entry("apps/ReplicaSet", new WorkloadStrategy(WorkloadStrategy.Kind.REPLICA_SET)),
            Map.entry("apps/StatefulSet", new WorkloadStrategy(WorkloadStrategy.Kind.STATEFUL_SET)),
            Map.entry("batch/CronJob", new CronJobStrategy()),
            Map.entry("batch/Job", new JobStrategy()),
            Map.entry("coordination.k8s.io/Lease", new LeaseStrategy()),
            Map.entry("networking.k8s.io/Ingress", new IngressStrategy()),
            Map.entry("networking.k8s.io/NetworkPolicy", new NetworkPolicyStrategy()),
            Map.entry("policy/PodDisruptionBudget", new PodDisruptionBudgetStrategy()),
            Map.entry("rbac.authorization.k8s.io/ClusterRole", new RoleStrategy(false)),
            Map.entry("rbac.authorization.k8s.io/ClusterRoleBinding", new RoleBindingStrategy(false)),
            Map.entry("rbac.authorization.k8s.io/Role", new RoleStrategy(true)),
            Map.entry("rbac.authorization.k8s.io/RoleBinding", new RoleBindingStrategy(true)),
            Map.entry("scheduling.k8s.io/PriorityClass", new PriorityClassStrategy()),
            Map.entry("storage.k8s.io/StorageClass", new StorageClassStrategy()));

    /** The strategy of a built-in kind; {@link Strategy#GENERIC} for kinds (like ServiceAccount) with no rules of their own. */
    public static Strategy of(String group, String kind) {
        return BY_KIND.getOrDefault((group == null ? "" : group) + "/" + kind, Strategy.GENERIC);
    }
}
