package io.kubepekko.api.discovery;

import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.registry.ResourceType;
import java.util.List;

/**
 * How discovery advertises one subresource: the kind its requests and responses carry and the verbs
 * it accepts, as kube-apiserver lists them (e.g. {@code pods/log}: Pod, get; {@code
 * deployments/scale}: autoscaling/v1 Scale, get/patch/update).
 *
 * @param name the path segment after the object name, e.g. {@code status}
 * @param responseKind the kind of the subresource's body
 * @param verbs the verbs, sorted as discovery lists them
 */
public record SubresourceInfo(String name, GroupVersionKind responseKind, List<String> verbs) {

    private static final List<String> READ_WRITE = List.of("get", "patch", "update");
    private static final List<String> CREATE = List.of("create");
    private static final List<String> STREAM = List.of("create", "get");
    private static final List<String> PROXY = List.of("create", "delete", "get", "patch", "update");

    public SubresourceInfo {
        verbs = List.copyOf(verbs);
    }

    /**
     * The entry for {@code owner/name}.
     *
     * @throws IllegalArgumentException for a subresource Kubernetes does not define, which is a bug
     *     in the registry table rather than bad client input
     */
    public static SubresourceInfo of(ResourceType owner, String name) {
        GroupVersionKind own = owner.gvk();
        return switch (name) {
            case "status", "ephemeralcontainers", "resize" ->
                    new SubresourceInfo(name, own, READ_WRITE);
            case "scale" ->
                    new SubresourceInfo(
                            name, new GroupVersionKind("autoscaling", "v1", "Scale"), READ_WRITE);
            case "log" -> new SubresourceInfo(name, own, List.of("get"));
            case "finalize" -> new SubresourceInfo(name, own, List.of("update"));
            case "binding" -> new SubresourceInfo(name, core("Binding"), CREATE);
            case "eviction" ->
                    new SubresourceInfo(
                            name, new GroupVersionKind("policy", "v1", "Eviction"), CREATE);
            case "token" ->
                    new SubresourceInfo(
                            name,
                            new GroupVersionKind("authentication.k8s.io", "v1", "TokenRequest"),
                            CREATE);
            case "exec" -> new SubresourceInfo(name, core("PodExecOptions"), STREAM);
            case "attach" -> new SubresourceInfo(name, core("PodAttachOptions"), STREAM);
            case "portforward" -> new SubresourceInfo(name, core("PodPortForwardOptions"), STREAM);
            case "proxy" -> new SubresourceInfo(name, core(owner.kind() + "ProxyOptions"), PROXY);
            default ->
                    throw new IllegalArgumentException(
                            "no discovery entry for subresource " + owner.resource() + "/" + name);
        };
    }

    private static GroupVersionKind core(String kind) {
        return new GroupVersionKind("", "v1", kind);
    }
}
