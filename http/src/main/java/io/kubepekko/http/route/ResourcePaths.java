package io.kubepekko.http.route;

import io.kubepekko.api.Verb;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.StorageKeys;
import io.kubepekko.http.route.ResourceHandler.Request;
import java.util.List;

/**
 * A resource request's path checked as kube-apiserver routes and keys it: the resource's scope, the
 * verbs routed on it, and the namespace and name segments.
 */
final class ResourcePaths {

    /** The verbs kube-apiserver routes on an object's own path ({@code .../{resource}/{name}}). */
    private static final List<String> ITEM_VERBS =
            List.of(
                    Verb.GET.wireName(),
                    Verb.UPDATE.wireName(),
                    Verb.PATCH.wireName(),
                    Verb.DELETE.wireName());

    private ResourcePaths() {}

    /**
     * The request with its namespace and name segments checked as kube-apiserver's storage keys
     * them: an object name may not be {@code .} or {@code ..} nor hold {@code /} or {@code %}
     * ({@code Name parameter invalid}), an empty name segment ({@code pods//status}) names nothing,
     * and an empty namespace segment ({@code namespaces//configmaps}) is no namespace: every
     * namespace for a list or watch, an error otherwise. A namespace {@code .} or {@code ..} is
     * refused with 400 too (kube-apiserver fails with 500 {@code invalid key} there).
     */
    static Request withPathNames(Request r) {
        RequestInfo info = r.info();
        String namespace = info.namespace();
        if (namespace != null && namespace.isEmpty()) {
            if (info.verb() != Verb.LIST && info.verb() != Verb.WATCH) {
                throw ApiStatus.badRequest("Namespace parameter required.").exception();
            }
            r =
                    r.withInfo(
                            new RequestInfo(
                                    info.verb(),
                                    info.group(),
                                    info.version(),
                                    info.resource(),
                                    null,
                                    info.name(),
                                    info.subresource(),
                                    info.route()));
        } else if (namespace != null) {
            StorageKeys.checkNamespace(namespace);
        }
        String name = info.name();
        if (name != null) {
            if (name.isEmpty()) {
                throw ApiStatus.badRequest("name must be provided").exception();
            }
            StorageKeys.checkName(name);
        }
        return r;
    }

    /**
     * 404 for a path in a namespace of a cluster-scoped resource, or across namespaces for a
     * namespaced one other than its list and watch (405 for another verb there).
     */
    static void checkScope(ResourceType type, RequestInfo info) {
        if (!type.namespaced() && info.namespace() != null) {
            throw ApiStatus.pathNotFound().exception();
        }
        if (type.namespaced() && info.namespace() == null) {
            // Across namespaces kube-apiserver routes only list and watch, of kinds that have them.
            if (info.hasName() || !type.supports("list")) {
                throw ApiStatus.pathNotFound().exception();
            }
            if (info.verb() != Verb.LIST && info.verb() != Verb.WATCH) {
                throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
            }
        }
    }

    /**
     * 404 for an object's path under a resource that has no verb there, 405 for a verb the resource
     * does not have or that kube-apiserver does not route on this path (an update or patch of no
     * object, a create of a named one).
     */
    static void checkVerb(ResourceType type, RequestInfo info) {
        if (info.hasName() && ITEM_VERBS.stream().noneMatch(type::supports)) {
            // kube-apiserver registers no route under a resource it only creates (bindings/{name}).
            throw ApiStatus.pathNotFound().exception();
        }
        if (!type.supports(info.verb().wireName())) {
            throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
        }
        boolean itemVerb = info.verb() == Verb.UPDATE || info.verb() == Verb.PATCH;
        if ((itemVerb && !info.hasName()) || (info.verb() == Verb.CREATE && info.hasName())) {
            throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
        }
    }
}
