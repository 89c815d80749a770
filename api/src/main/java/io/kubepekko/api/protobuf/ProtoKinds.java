package io.kubepekko.api.protobuf;

import java.util.Map;

/**
 * Which message carries a kind: {@code <package>.<Kind>}, the package named after the API group
 * ({@code core.v1} for the core group, {@code apps.v1}, {@code rbac.v1}, ...). Kinds without a
 * definition (custom resources) have no protobuf form.
 */
public final class ProtoKinds {
    private ProtoKinds() {}

    private static final Map<String, String> PACKAGES =
            Map.ofEntries(
                    Map.entry("", "core"),
                    Map.entry("apps", "apps"),
                    Map.entry("events.k8s.io", "events"),
                    Map.entry("authentication.k8s.io", "authentication"),
                    Map.entry("authorization.k8s.io", "authorization"),
                    Map.entry("batch", "batch"),
                    Map.entry("networking.k8s.io", "networking"),
                    Map.entry("policy", "policy"),
                    Map.entry("rbac.authorization.k8s.io", "rbac"),
                    Map.entry("storage.k8s.io", "storage"),
                    Map.entry("admissionregistration.k8s.io", "admissionregistration"),
                    Map.entry("scheduling.k8s.io", "scheduling"),
                    Map.entry("coordination.k8s.io", "coordination"),
                    Map.entry("autoscaling", "autoscaling"),
                    Map.entry("meta.k8s.io", "meta"));

    /** The qualified message of a kind, or null when it has no protobuf definition. */
    public static String message(ProtoSchema schema, String group, String version, String kind) {
        String pkg = PACKAGES.get(group == null ? "" : group);
        if (pkg == null) {
            return null;
        }
        if (pkg.equals("meta") && schema.message("meta." + version + "." + kind) != null) {
            return "meta." + version + "."
                    + kind; // a meta kind whose message differs in this version
        }
        String name = pkg.equals("meta") ? "meta." + kind : pkg + "." + version + "." + kind;
        if (schema.message(name) != null) {
            return name;
        }
        // Status and DeleteOptions travel as v1 kinds of the core group too.
        return pkg.equals("core") && schema.message("meta." + kind) != null ? "meta." + kind : null;
    }
}
