package io.kubepekko.api.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's NamespaceLifecycle admission for a write that may create an object in a
 * namespace, and the namespaces every cluster is bootstrapped with. The caller reads the namespace;
 * this decides.
 */
public final class NamespaceLifecycle {

    /** The namespaces resource, which the admission reads. */
    public static final GroupResource NAMESPACES = new GroupResource("", "namespaces");

    /** Namespaces every cluster has from its first start, in the order they are created. */
    public static final List<String> SYSTEM_NAMESPACES =
            List.of("default", "kube-system", "kube-public", "kube-node-lease");

    private NamespaceLifecycle() {}

    /** What the admission decided. */
    public sealed interface Admission {
        /**
         * The namespace exists and takes new content: later writes may trust it until it changes.
         */
        record Live() implements Admission {}

        /**
         * No such namespace, and the write may go on without one (it does not create an object).
         */
        record Absent() implements Admission {}

        /** The write is refused with {@code status}. */
        record Refused(ApiStatus status) implements Admission {}
    }

    /**
     * The admission of a write that may create {@code name} of {@code resource} in {@code
     * namespace}: a missing namespace is 404 when the write certainly creates ({@code creates}); a
     * namespace being deleted (a deletion timestamp or phase {@code Terminating}) refuses with 403
     * naming the object and a {@code NamespaceTerminating} cause, as kube-apiserver's admission
     * error does.
     *
     * @param stored the namespace as stored, or empty when it does not exist
     */
    public static Admission admit(
            GroupResource resource,
            String name,
            String namespace,
            Optional<ObjectNode> stored,
            boolean creates) {
        if (stored.isEmpty()) {
            return creates
                    ? new Admission.Refused(ApiStatus.notFound(NAMESPACES, namespace))
                    : new Admission.Absent();
        }
        ObjectNode ns = stored.get();
        if (ns.path("metadata").hasNonNull("deletionTimestamp")
                || "Terminating".equals(ns.path("status").path("phase").asText())) {
            ApiStatus refused =
                    ApiStatus.forbidden(
                            resource,
                            name,
                            "unable to create new content in namespace "
                                    + namespace
                                    + " because it is being terminated");
            ApiStatus.Details d = refused.details();
            return new Admission.Refused(
                    new ApiStatus(
                            refused.code(),
                            refused.reason(),
                            refused.message(),
                            new ApiStatus.Details(
                                    d.name(),
                                    d.group(),
                                    d.kind(),
                                    d.uid(),
                                    List.of(
                                            new StatusCause(
                                                    "NamespaceTerminating",
                                                    "namespace "
                                                            + namespace
                                                            + " is being terminated",
                                                    "metadata.namespace")),
                                    null)));
        }
        return new Admission.Live();
    }

    /**
     * The system namespaces as objects to create: names only, everything else defaulted by the
     * create.
     */
    public static List<ObjectNode> systemNamespaces() {
        List<ObjectNode> out = new ArrayList<>();
        for (String name : SYSTEM_NAMESPACES) {
            ObjectNode ns = Json.MAPPER.createObjectNode();
            ns.put("apiVersion", "v1")
                    .put("kind", "Namespace")
                    .putObject("metadata")
                    .put("name", name);
            out.add(ns);
        }
        return out;
    }
}
