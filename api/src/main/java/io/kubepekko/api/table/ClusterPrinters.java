package io.kubepekko.api.table;

import java.util.Map;

/**
 * The Table printers of the networking.k8s.io, policy, rbac.authorization.k8s.io, storage.k8s.io,
 * scheduling.k8s.io and coordination.k8s.io kinds. Role and ClusterRole have no entry: kube prints
 * them with the default Name and Created At columns, which {@link TablePrinter#DEFAULT} covers.
 */
final class ClusterPrinters {
    private ClusterPrinters() {}

    static final Map<String, TablePrinter> ALL = Map.of(
            "networking.k8s.io/Ingress", new IngressPrinter(),
            "networking.k8s.io/NetworkPolicy", new NetworkPolicyPrinter(),
            "policy/PodDisruptionBudget", new PodDisruptionBudgetPrinter(),
            "rbac.authorization.k8s.io/RoleBinding", RoleBindingPrinter.ROLE_BINDING,
            "rbac.authorization.k8s.io/ClusterRoleBinding", RoleBindingPrinter.CLUSTER_ROLE_BINDING,
            "storage.k8s.io/StorageClass", new StorageClassPrinter(),
            "scheduling.k8s.io/PriorityClass", new PriorityClassPrinter(),
            "coordination.k8s.io/Lease", new LeasePrinter());
}
