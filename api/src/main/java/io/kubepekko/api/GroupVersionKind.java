package io.kubepekko.api;

/** Group, version and kind of a type, as in {@code x-kubernetes-group-version-kind}. */
public record GroupVersionKind(String group, String version, String kind) {

    public GroupVersionKind {
        group = group == null ? "" : group;
    }

    /** The {@code apiVersion} string: {@code v1} for core, {@code group/version} otherwise. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** The group/version path prefix: {@code /api/v1} or {@code /apis/group/version}. */
    public String pathPrefix() {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }
}
