package io.kubepekko.api.definition;

import static io.kubepekko.api.definition.KindDefinition.builtin;
import static io.kubepekko.api.registry.ResourceType.builder;

import io.kubepekko.api.kinds.BindingStrategy;
import io.kubepekko.api.kinds.ConfigMapStrategy;
import io.kubepekko.api.kinds.EndpointsStrategy;
import io.kubepekko.api.kinds.EventStrategy;
import io.kubepekko.api.kinds.LimitRangeStrategy;
import io.kubepekko.api.kinds.NamespaceStrategy;
import io.kubepekko.api.kinds.NodeStrategy;
import io.kubepekko.api.kinds.PersistentVolumeClaimStrategy;
import io.kubepekko.api.kinds.PersistentVolumeStrategy;
import io.kubepekko.api.kinds.PodStrategy;
import io.kubepekko.api.kinds.ResourceQuotaStrategy;
import io.kubepekko.api.kinds.SecretStrategy;
import io.kubepekko.api.kinds.ServiceStrategy;
import io.kubepekko.api.registry.NameRule;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.table.ConfigMapPrinter;
import io.kubepekko.api.table.EndpointsPrinter;
import io.kubepekko.api.table.EventPrinter;
import io.kubepekko.api.table.NamespacePrinter;
import io.kubepekko.api.table.NodePrinter;
import io.kubepekko.api.table.PersistentVolumeClaimPrinter;
import io.kubepekko.api.table.PersistentVolumePrinter;
import io.kubepekko.api.table.PodPrinter;
import io.kubepekko.api.table.ResourceQuotaPrinter;
import io.kubepekko.api.table.SecretPrinter;
import io.kubepekko.api.table.ServiceAccountPrinter;
import io.kubepekko.api.table.ServicePrinter;
import io.kubepekko.api.table.TablePrinter;
import java.util.List;

/**
 * The core group's ({@code /api/v1}) built-in kinds, in discovery order: the first part of {@link
 * BuiltinKinds}, kept apart because the core group alone holds twenty kinds.
 */
final class CoreKinds {
    private CoreKinds() {}

    private static final String[] NO_DELETECOLLECTION = {
        "create", "delete", "get", "list", "patch", "update", "watch"
    };

    static final List<KindDefinition> ALL =
            List.of(
                    // core/v1: bindings hold nothing; a create binds the pod it names
                    // (pods/{name}/binding).
                    builtin(
                            builder("", "v1", "Binding", "bindings")
                                    .forwardsCreateTo("pods", "binding"),
                            new BindingStrategy(),
                            TablePrinter.DEFAULT),
                    builtin(
                            builder("", "v1", "ConfigMap", "configmaps").shortNames("cm"),
                            new ConfigMapStrategy(),
                            new ConfigMapPrinter()),
                    builtin(
                            builder("", "v1", "Endpoints", "endpoints")
                                    .shortNames("ep")
                                    .allowCreateOnUpdate(),
                            new EndpointsStrategy(),
                            EndpointsPrinter.INSTANCE),
                    // core/v1 events validate only the generic path-segment name rule (strict names
                    // are
                    // reserved for events.k8s.io/v1).
                    builtin(
                            builder("", "v1", "Event", "events")
                                    .shortNames("ev")
                                    .allowCreateOnUpdate()
                                    .nameRule(NameRule.PATH_SEGMENT)
                                    .selectableFields(
                                            "involvedObject.kind",
                                            "involvedObject.namespace",
                                            "involvedObject.name",
                                            "involvedObject.uid",
                                            "involvedObject.apiVersion",
                                            "involvedObject.resourceVersion",
                                            "involvedObject.fieldPath",
                                            "reason",
                                            "reportingComponent")
                                    // EventToSelectableFields: "source" is the source component,
                                    // else
                                    // the reporting controller.
                                    .selectableFieldOr(
                                            "source", "source.component", "reportingComponent")
                                    .selectableFields("type"),
                            new EventStrategy(),
                            EventPrinter.INSTANCE),
                    builtin(
                            builder("", "v1", "LimitRange", "limitranges")
                                    .shortNames("limits")
                                    .allowCreateOnUpdate(),
                            new LimitRangeStrategy(),
                            TablePrinter.DEFAULT),
                    builtin(
                            builder("", "v1", "Namespace", "namespaces")
                                    .clusterScoped()
                                    .shortNames("ns")
                                    .verbs(NO_DELETECOLLECTION)
                                    .status()
                                    .subresource("finalize")
                                    .returnsDeletedObject()
                                    .nameRule(NameRule.DNS_LABEL)
                                    .selectableFields("status.phase"),
                            new NamespaceStrategy(),
                            NamespacePrinter.INSTANCE),
                    // NodeToSelectableFields formats the bool, so absent reads "false".
                    builtin(
                            builder("", "v1", "Node", "nodes")
                                    .clusterScoped()
                                    .shortNames("no")
                                    .status()
                                    .selectableField(
                                            "spec.unschedulable", "spec.unschedulable", "false"),
                            new NodeStrategy(),
                            NodePrinter.INSTANCE),
                    builtin(
                            builder("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims")
                                    .shortNames("pvc")
                                    .status()
                                    .returnsDeletedObject(),
                            new PersistentVolumeClaimStrategy(),
                            new PersistentVolumeClaimPrinter()),
                    builtin(
                            builder("", "v1", "PersistentVolume", "persistentvolumes")
                                    .clusterScoped()
                                    .shortNames("pv")
                                    .status()
                                    .returnsDeletedObject(),
                            new PersistentVolumeStrategy(),
                            new PersistentVolumePrinter()),
                    builtin(
                            builder("", "v1", "Pod", "pods")
                                    .shortNames("po")
                                    .categories("all")
                                    .status()
                                    .subresource("log")
                                    .subresource("binding")
                                    .subresource("eviction")
                                    .tracksGeneration()
                                    .returnsDeletedObject()
                                    .selectableFields(
                                            "spec.nodeName",
                                            "spec.restartPolicy",
                                            "spec.schedulerName",
                                            "spec.serviceAccountName")
                                    // PodToSelectableFields reports false when there is no host
                                    // network setting.
                                    .selectableField(
                                            "spec.hostNetwork", "spec.hostNetwork", "false")
                                    .selectableFields(
                                            "status.phase",
                                            "status.podIP",
                                            "status.nominatedNodeName")
                                    // The label old clients send for the node name, which
                                    // kube-apiserver rewrites.
                                    .fieldLabelAlias("spec.host", "spec.nodeName"),
                            new PodStrategy(),
                            PodPrinter.INSTANCE),
                    builtin(
                            builder("", "v1", "ResourceQuota", "resourcequotas")
                                    .shortNames("quota")
                                    .status()
                                    .returnsDeletedObject(),
                            new ResourceQuotaStrategy(),
                            new ResourceQuotaPrinter()),
                    builtin(
                            builder("", "v1", "Secret", "secrets").selectableFields("type"),
                            new SecretStrategy(),
                            new SecretPrinter()),
                    // ServiceAccount has only the generic metadata rules.
                    builtin(
                            builder("", "v1", "ServiceAccount", "serviceaccounts")
                                    .shortNames("sa")
                                    .subresource("token")
                                    .returnsDeletedObject(),
                            Strategy.GENERIC,
                            new ServiceAccountPrinter()),
                    builtin(
                            builder("", "v1", "Service", "services")
                                    .shortNames("svc")
                                    .categories("all")
                                    .status()
                                    .nameRule(NameRule.DNS1035_LABEL)
                                    .allowCreateOnUpdate()
                                    .returnsDeletedObject()
                                    .selectableFields("spec.clusterIP", "spec.type"),
                            new ServiceStrategy(),
                            ServicePrinter.INSTANCE));
}
