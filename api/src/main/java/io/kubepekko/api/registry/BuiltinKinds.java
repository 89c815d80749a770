package io.kubepekko.api.registry;

import java.util.List;

import static io.kubepekko.api.registry.ResourceType.builder;

/**
 * The built-in kinds, as Kubernetes 1.35 registers them: names, short names, categories, scope, verbs,
 * subresources, and the strategy facts the generic write path needs (create-on-update, generation
 * tracking, name rule, field-selector labels, whether a removing DELETE answers with the object).
 *
 * <p>Groups appear in kube-apiserver's discovery order (apps, batch, networking.k8s.io, policy,
 * rbac.authorization.k8s.io, storage.k8s.io, scheduling.k8s.io, coordination.k8s.io), because
 * {@link Registry#groups()} keeps insertion order and discovery lists groups in that order.
 *
 * <p>Selectable fields are the labels clients send, which for a few kinds are not the JSON path of the
 * value they select: Event {@code source} is {@code source.component} (falling back to
 * {@code reportingComponent}), Job {@code status.successful} is {@code status.succeeded},
 * Pod {@code status.podIP} is {@code status.podIPs[0].ip}, and the boolean labels
 * ({@code spec.hostNetwork}, {@code spec.unschedulable}) read {@code "false"} when the field is absent.
 */
public final class BuiltinKinds {
    private BuiltinKinds() {}

    private static final String[] NO_DELETECOLLECTION =
            {"create", "delete", "get", "list", "patch", "update", "watch"};

    /** Every built-in kind, core group first, then named groups in discovery order. */
    public static List<ResourceType> all() {
        return List.of(
                // core/v1: bindings hold nothing; a create binds the pod it names (pods/{name}/binding).
                builder("", "v1", "Binding", "bindings").forwardsCreateTo("pods", "binding").build(),
                builder("", "v1", "ConfigMap", "configmaps").shortNames("cm").build(),
                builder("", "v1", "Endpoints", "endpoints").shortNames("ep").allowCreateOnUpdate().build(),
                // core/v1 events validate only the generic path-segment name rule (strict names are
                // reserved for events.k8s.io/v1).
                builder("", "v1", "Event", "events").shortNames("ev").allowCreateOnUpdate()
                        .nameRule(NameRule.PATH_SEGMENT)
                        .selectableFields("involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
                                "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
                                "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type")
                        .build(),
                builder("", "v1", "LimitRange", "limitranges").shortNames("limits").allowCreateOnUpdate().build(),
                builder("", "v1", "Namespace", "namespaces").clusterScoped().shortNames("ns")
                        .verbs(NO_DELETECOLLECTION).status().subresource("finalize")
                        .returnsDeletedObject().nameRule(NameRule.DNS_LABEL)
                        .selectableFields("status.phase").build(),
                builder("", "v1", "Node", "nodes").clusterScoped().shortNames("no").status()
                        .selectableFields("spec.unschedulable").build(),
                builder("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims").shortNames("pvc").status()
                        .returnsDeletedObject().build(),
                builder("", "v1", "PersistentVolume", "persistentvolumes").clusterScoped().shortNames("pv").status()
                        .returnsDeletedObject().build(),
                builder("", "v1", "Pod", "pods").shortNames("po").categories("all").status().subresource("log")
                        .subresource("binding")
                        .tracksGeneration().returnsDeletedObject()
                        .selectableFields("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
                                "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
                                "status.nominatedNodeName")
                        .build(),
                builder("", "v1", "ResourceQuota", "resourcequotas").shortNames("quota").status().returnsDeletedObject()
                        .build(),
                builder("", "v1", "Secret", "secrets").selectableFields("type").build(),
                builder("", "v1", "ServiceAccount", "serviceaccounts").shortNames("sa").returnsDeletedObject().build(),
                builder("", "v1", "Service", "services").shortNames("svc").categories("all").status()
                        .nameRule(NameRule.DNS1035_LABEL).allowCreateOnUpdate().returnsDeletedObject()
                        .selectableFields("spec.clusterIP", "spec.type").build(),
                // apps/v1
                builder("apps", "v1", "DaemonSet", "daemonsets").shortNames("ds").categories("all").status()
                        .tracksGeneration().build(),
                builder("apps", "v1", "Deployment", "deployments").shortNames("deploy").categories("all").status()
                        .scale(ScaleSpec.WORKLOAD).tracksGeneration().build(),
                // ReplicaSet's strategy computes status.replicas, but apps/v1 registers no field-label
                // conversion, so the server rejects it (kubernetes/kubernetes#135136).
                builder("apps", "v1", "ReplicaSet", "replicasets").shortNames("rs").categories("all").status()
                        .scale(ScaleSpec.WORKLOAD).tracksGeneration().build(),
                // StatefulSet names become pod hostnames, so they are DNS labels (since 1.27).
                builder("apps", "v1", "StatefulSet", "statefulsets").shortNames("sts").categories("all").status()
                        .scale(ScaleSpec.WORKLOAD).tracksGeneration().nameRule(NameRule.DNS_LABEL).build(),
                // batch/v1
                builder("batch", "v1", "CronJob", "cronjobs").shortNames("cj").categories("all").status()
                        .tracksGeneration().build(),
                builder("batch", "v1", "Job", "jobs").categories("all").status().tracksGeneration()
                        .selectableFields("status.successful").build(),
                // networking.k8s.io/v1
                builder("networking.k8s.io", "v1", "Ingress", "ingresses").shortNames("ing").status()
                        .tracksGeneration().build(),
                builder("networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies").shortNames("netpol")
                        .tracksGeneration().build(),
                // policy/v1: the PDB validator checks only the spec, so names get the generic path-segment rule.
                builder("policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets").shortNames("pdb").status()
                        .tracksGeneration().nameRule(NameRule.PATH_SEGMENT).build(),
                // rbac.authorization.k8s.io/v1
                builder("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings").clusterScoped()
                        .nameRule(NameRule.PATH_SEGMENT).allowCreateOnUpdate().build(),
                builder("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles").clusterScoped()
                        .nameRule(NameRule.PATH_SEGMENT).allowCreateOnUpdate().build(),
                builder("rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings")
                        .nameRule(NameRule.PATH_SEGMENT).allowCreateOnUpdate().build(),
                builder("rbac.authorization.k8s.io", "v1", "Role", "roles")
                        .nameRule(NameRule.PATH_SEGMENT).allowCreateOnUpdate().build(),
                // storage.k8s.io/v1
                builder("storage.k8s.io", "v1", "StorageClass", "storageclasses").clusterScoped().shortNames("sc")
                        .returnsDeletedObject().build(),
                // scheduling.k8s.io/v1
                builder("scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses").clusterScoped().shortNames("pc")
                        .build(),
                // coordination.k8s.io/v1
                builder("coordination.k8s.io", "v1", "Lease", "leases").allowCreateOnUpdate().build());
    }
}
