package io.kubepekko.api.openapi;

import io.kubepekko.api.GroupVersionKind;
import java.util.Map;
import java.util.Optional;

/**
 * The component name of a type of our message definitions ({@code apps.v1.DeploymentSpec}, {@code
 * meta.ObjectMeta}, {@code intstr.IntOrString}), which is Kubernetes' Go package path with its host
 * reversed: {@code io.k8s.api.apps.v1.DeploymentSpec}. The message definitions know which package
 * every nested type lives in (a Deployment's template is {@code core.v1}), which the client models
 * do not, so the names are read from them.
 */
final class ComponentNames {
    private ComponentNames() {}

    /** apimachinery packages: their component prefix. */
    private static final Map<String, String> MACHINERY =
            Map.of(
                    "meta", "io.k8s.apimachinery.pkg.apis.meta.v1",
                    "runtime", "io.k8s.apimachinery.pkg.runtime",
                    "intstr", "io.k8s.apimachinery.pkg.util.intstr",
                    "resource", "io.k8s.apimachinery.pkg.api.resource");

    /** Our package name of each built-in API group (the inverse of the protobuf kinds' table). */
    private static final Map<String, String> GROUPS =
            Map.ofEntries(
                    Map.entry("core", ""),
                    Map.entry("apps", "apps"),
                    Map.entry("events", "events.k8s.io"),
                    Map.entry("authentication", "authentication.k8s.io"),
                    Map.entry("authorization", "authorization.k8s.io"),
                    Map.entry("batch", "batch"),
                    Map.entry("networking", "networking.k8s.io"),
                    Map.entry("policy", "policy"),
                    Map.entry("rbac", "rbac.authorization.k8s.io"),
                    Map.entry("storage", "storage.k8s.io"),
                    Map.entry("admissionregistration", "admissionregistration.k8s.io"),
                    Map.entry("scheduling", "scheduling.k8s.io"),
                    Map.entry("coordination", "coordination.k8s.io"),
                    Map.entry("autoscaling", "autoscaling"));

    /** {@code apps.v1.DeploymentSpec} → {@code io.k8s.api.apps.v1.DeploymentSpec}. */
    static String of(String type) {
        int dot = type.lastIndexOf('.');
        String pkg = type.substring(0, dot);
        String simple = type.substring(dot + 1);
        String machinery = MACHINERY.get(pkg);
        if (machinery != null) {
            return machinery + "." + simple;
        }
        return SchemaNames.of(
                asKind(pkg, simple)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "no Kubernetes package for " + type)));
    }

    /**
     * The group, version and kind a type would have if it were a kind: {@code apps.v1.Deployment} →
     * apps/v1 Deployment, {@code meta.Status} → v1 Status (meta types are registered in the core
     * group). Whether it is one is for the caller to know.
     */
    static Optional<GroupVersionKind> asKind(String type) {
        int dot = type.lastIndexOf('.');
        return asKind(type.substring(0, dot), type.substring(dot + 1));
    }

    private static Optional<GroupVersionKind> asKind(String pkg, String simple) {
        if (pkg.equals("meta")) {
            return Optional.of(new GroupVersionKind("", "v1", simple));
        }
        int dot = pkg.indexOf('.');
        String group = dot < 0 ? null : GROUPS.get(pkg.substring(0, dot));
        return group == null
                ? Optional.empty()
                : Optional.of(new GroupVersionKind(group, pkg.substring(dot + 1), simple));
    }
}
