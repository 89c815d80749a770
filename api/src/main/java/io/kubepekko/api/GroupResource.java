package io.kubepekko.api;

/**
 * A resource name qualified by its API group, e.g. {@code pods} (core) or {@code deployments.apps}.
 * This is the unit that owns a resourceVersion sequence and a watch cache.
 */
public record GroupResource(String group, String resource) {

    public GroupResource {
        group = group == null ? "" : group;
    }

    /** Kubernetes' printed form: {@code resource} for core, {@code resource.group} otherwise. */
    @Override
    public String toString() {
        return group.isEmpty() ? resource : resource + "." + group;
    }

    /** Inverse of {@link #toString()}: the first dot separates resource from group. */
    public static GroupResource parse(String qualified) {
        int dot = qualified.indexOf('.');
        return dot < 0
                ? new GroupResource("", qualified)
                : new GroupResource(qualified.substring(dot + 1), qualified.substring(0, dot));
    }
}
