package io.kubepekko.api.definition;

import java.util.List;
import java.util.Map;

/**
 * The group versions kube-apiserver 1.35's schemes register (its own, apiextensions-apiserver's and
 * kube-aggregator's), whether it serves them or not: what {@code --runtime-config} may name without
 * being an unknown group or an unregistered version. A version the scheme knows but nothing serves
 * (a removed {@code batch/v1beta1}, a group this server does not implement) is accepted and changes
 * nothing, as in kube.
 */
final class SchemeVersions {
    private SchemeVersions() {}

    static final Map<String, List<String>> KUBE_1_35 =
            Map.ofEntries(
                    Map.entry("", List.of("v1")),
                    Map.entry("admissionregistration.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("apiextensions.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("apiregistration.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("apps", List.of("v1", "v1beta1", "v1beta2")),
                    Map.entry("authentication.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("authorization.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("autoscaling", List.of("v1", "v2", "v2beta1", "v2beta2")),
                    Map.entry("batch", List.of("v1", "v1beta1")),
                    Map.entry("certificates.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("coordination.k8s.io", List.of("v1", "v1beta1", "v1alpha2")),
                    Map.entry("discovery.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("events.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("extensions", List.of("v1beta1")),
                    Map.entry(
                            "flowcontrol.apiserver.k8s.io",
                            List.of("v1", "v1beta1", "v1beta2", "v1beta3")),
                    Map.entry("internal.apiserver.k8s.io", List.of("v1alpha1")),
                    Map.entry("networking.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("node.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("policy", List.of("v1", "v1beta1")),
                    Map.entry("rbac.authorization.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("resource.k8s.io", List.of("v1", "v1beta1", "v1beta2", "v1alpha3")),
                    Map.entry("scheduling.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("storage.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("storagemigration.k8s.io", List.of("v1alpha1")));
}
