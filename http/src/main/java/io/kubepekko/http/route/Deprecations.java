package io.kubepekko.http.route;

import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.definition.VersionLifecycle;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.http.audit.AuditHandle;
import java.util.List;
import java.util.Optional;

/**
 * What kube-apiserver does for a request routed to a version kube 1.35 deprecates: the response
 * gets the deprecation {@code Warning} (the route's warning handler), the audit events the {@code
 * k8s.io/deprecated} and {@code k8s.io/removed-release} annotations, and {@code
 * apiserver_requested_deprecated_apis} the request's group, version, resource and subresource (both
 * from {@code MonitorRequest}). Requests that no route takes (an unserved version, a refused one)
 * get none of it.
 */
final class Deprecations {

    static final String DEPRECATED_ANNOTATION = "k8s.io/deprecated";
    static final String REMOVED_RELEASE_ANNOTATION = "k8s.io/removed-release";

    private final Registry registry;
    private final DeprecatedApiRequests requested;

    Deprecations(Registry registry, DeprecatedApiRequests requested) {
        this.registry = registry;
        this.requested = requested;
    }

    /**
     * The warnings for {@code info}'s response: kube's deprecation warning when the request reaches
     * a deprecated version, which is then recorded in the audit and the gauge; none otherwise.
     */
    List<String> of(RequestInfo info, AuditHandle audit) {
        if (info.route() != RequestInfo.Route.SERVED) {
            return List.of();
        }
        Optional<ServedKind> kind = registry.served(info.group(), info.version(), info.resource());
        Optional<VersionLifecycle> deprecation = kind.flatMap(ServedKind::deprecation);
        if (deprecation.isEmpty()) {
            return List.of();
        }
        VersionLifecycle lifecycle = deprecation.get();
        String removed = lifecycle.removed() == null ? "" : lifecycle.removed().toString();
        audit.annotate(DEPRECATED_ANNOTATION, "true");
        if (!removed.isEmpty()) {
            audit.annotate(REMOVED_RELEASE_ANNOTATION, removed);
        }
        requested.requested(
                new DeprecatedApiRequests.Series(
                        info.group(),
                        info.version(),
                        info.resource(),
                        info.subresource(),
                        removed));
        return List.of(lifecycle.warning(kind.get().type().gvk()));
    }
}
