package io.kubepekko.api.openapi;

import io.kubepekko.api.GroupVersionKind;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Component schema names as kube-apiserver publishes them: the Go package path with its host part
 * reversed ({@code io.k8s.api.core.v1.Pod}). Clients and humans ({@code kubectl explain}) look
 * types up by these names, so they must match Kubernetes for the built-in kinds.
 */
public final class SchemaNames {
    private SchemaNames() {}

    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

    public static final String OBJECT_META = META + "ObjectMeta";
    public static final String LIST_META = META + "ListMeta";
    public static final String STATUS = META + "Status";
    public static final String DELETE_OPTIONS = META + "DeleteOptions";
    public static final String PATCH = META + "Patch";
    public static final String WATCH_EVENT = META + "WatchEvent";
    public static final String SCALE = "io.k8s.api.autoscaling.v1.Scale";

    /** The kind every {@code /scale} subresource reads and writes. */
    public static final GroupVersionKind SCALE_GVK =
            new GroupVersionKind("autoscaling", "v1", "Scale");

    /**
     * Built-in groups whose Go package is not simply the first label of the group name, or whose
     * types do not live under {@code k8s.io/api}. Groups of custom resources are not listed: their
     * names are the reversed group (see {@link #packageOf}).
     */
    private static final Map<String, String> BUILTIN_PACKAGES =
            Map.ofEntries(
                    Map.entry("", "io.k8s.api.core"),
                    Map.entry("apps", "io.k8s.api.apps"),
                    Map.entry("autoscaling", "io.k8s.api.autoscaling"),
                    Map.entry("batch", "io.k8s.api.batch"),
                    Map.entry("policy", "io.k8s.api.policy"),
                    Map.entry("admissionregistration.k8s.io", "io.k8s.api.admissionregistration"),
                    Map.entry(
                            "apiextensions.k8s.io",
                            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions"),
                    Map.entry(
                            "apiregistration.k8s.io",
                            "io.k8s.kube-aggregator.pkg.apis.apiregistration"),
                    Map.entry("authentication.k8s.io", "io.k8s.api.authentication"),
                    Map.entry("authorization.k8s.io", "io.k8s.api.authorization"),
                    Map.entry("certificates.k8s.io", "io.k8s.api.certificates"),
                    Map.entry("coordination.k8s.io", "io.k8s.api.coordination"),
                    Map.entry("discovery.k8s.io", "io.k8s.api.discovery"),
                    Map.entry("events.k8s.io", "io.k8s.api.events"),
                    Map.entry("flowcontrol.apiserver.k8s.io", "io.k8s.api.flowcontrol"),
                    Map.entry("internal.apiserver.k8s.io", "io.k8s.api.apiserverinternal"),
                    Map.entry("networking.k8s.io", "io.k8s.api.networking"),
                    Map.entry("node.k8s.io", "io.k8s.api.node"),
                    Map.entry("rbac.authorization.k8s.io", "io.k8s.api.rbac"),
                    Map.entry("resource.k8s.io", "io.k8s.api.resource"),
                    Map.entry("scheduling.k8s.io", "io.k8s.api.scheduling"),
                    Map.entry("storage.k8s.io", "io.k8s.api.storage"),
                    Map.entry("storagemigration.k8s.io", "io.k8s.api.storagemigration"));

    /** The schema name of a kind, e.g. {@code io.k8s.api.apps.v1.Deployment}. */
    public static String of(GroupVersionKind gvk) {
        return packageOf(gvk.group()) + "." + gvk.version() + "." + gvk.kind();
    }

    /**
     * The schema name of {@code kind} in the group-version of {@code gvk} (used for list kinds).
     */
    public static String of(GroupVersionKind gvk, String kind) {
        return of(new GroupVersionKind(gvk.group(), gvk.version(), kind));
    }

    /**
     * A built-in group's package, or for any other group its labels reversed: kube-apiserver names
     * custom-resource schemas {@code com.example.stable.v1.CronTab} for group {@code
     * stable.example.com}.
     */
    static String packageOf(String group) {
        String builtin = BUILTIN_PACKAGES.get(group);
        if (builtin != null) {
            return builtin;
        }
        List<String> labels = Arrays.asList(group.split("\\."));
        Collections.reverse(labels);
        return String.join(".", labels);
    }
}
