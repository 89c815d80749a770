package io.kubepekko.api.auth.authorizer;

import io.kubepekko.api.Verb;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.selector.LabelSelector;
import java.util.Objects;

/**
 * What one request asks to do, as kube's {@code authorizer.Attributes}: who, which verb, and either
 * a resource (group, version, resource, subresource, namespace, name) or a non-resource path. Built
 * once at the edge from the parsed request; authorizers only read it.
 *
 * <p>The verb is a string, not {@link Verb}: authorization knows verbs no route serves ({@code
 * impersonate}, {@code bind}, {@code escalate}, {@code use}, {@code approve}, {@code proxy}) and
 * non-resource requests use the lower-case HTTP method.
 *
 * @param user who asks
 * @param verb the kube verb ({@code get}, {@code list}, {@code watch}, {@code create}, …)
 * @param resourceRequest whether this is a resource request (otherwise {@link #path} applies)
 * @param namespace the namespace, empty for cluster-scoped or all-namespace requests
 * @param apiGroup the API group, empty for the core group
 * @param apiVersion the API version
 * @param resource the plural resource
 * @param subresource the subresource, empty when none
 * @param name the object name, empty for lists, collections and creates without a name
 * @param path the request path of a non-resource request
 * @param fieldSelector the list's or watch's field selector (kube's {@code GetFieldSelector}),
 *     which the node authorizer reads to allow a kubelet to list only its own pods; {@link
 *     FieldSelector#everything()} when the request has none or it does not parse
 * @param labelSelector the label selector of a CEL authorizer check (kube's {@code
 *     GetLabelSelector}, set by {@code labelSelector()} since kube's {@code
 *     AuthorizeWithSelectors}); no authorizer here reads it (kube's RBAC and node authorizers do
 *     not either), and a request's own label selector is not put here; {@link
 *     LabelSelector#everything()} when none or it does not parse
 */
public record AuthorizationAttributes(
        UserInfo user,
        String verb,
        boolean resourceRequest,
        String namespace,
        String apiGroup,
        String apiVersion,
        String resource,
        String subresource,
        String name,
        String path,
        FieldSelector fieldSelector,
        LabelSelector labelSelector) {

    public AuthorizationAttributes {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(verb, "verb");
        namespace = orEmpty(namespace);
        apiGroup = orEmpty(apiGroup);
        apiVersion = orEmpty(apiVersion);
        resource = orEmpty(resource);
        subresource = orEmpty(subresource);
        name = orEmpty(name);
        path = orEmpty(path);
        fieldSelector = fieldSelector == null ? FieldSelector.everything() : fieldSelector;
        labelSelector = labelSelector == null ? LabelSelector.everything() : labelSelector;
    }

    /** Attributes without a field selector. */
    public AuthorizationAttributes(
            UserInfo user,
            String verb,
            boolean resourceRequest,
            String namespace,
            String apiGroup,
            String apiVersion,
            String resource,
            String subresource,
            String name,
            String path) {
        this(
                user,
                verb,
                resourceRequest,
                namespace,
                apiGroup,
                apiVersion,
                resource,
                subresource,
                name,
                path,
                FieldSelector.everything(),
                LabelSelector.everything());
    }

    /** A resource request. */
    public static AuthorizationAttributes resource(
            UserInfo user,
            String verb,
            String namespace,
            String apiGroup,
            String apiVersion,
            String resource,
            String subresource,
            String name) {
        return new AuthorizationAttributes(
                user, verb, true, namespace, apiGroup, apiVersion, resource, subresource, name, "");
    }

    /** A resource request with a verb a route serves. */
    public static AuthorizationAttributes resource(
            UserInfo user,
            Verb verb,
            String namespace,
            String apiGroup,
            String apiVersion,
            String resource,
            String subresource,
            String name) {
        return resource(
                user,
                verb.wireName(),
                namespace,
                apiGroup,
                apiVersion,
                resource,
                subresource,
                name);
    }

    /** A non-resource request ({@code /healthz}, {@code /version}, {@code /apis}). */
    public static AuthorizationAttributes nonResource(UserInfo user, String verb, String path) {
        return new AuthorizationAttributes(user, verb, false, "", "", "", "", "", "", path);
    }

    /** The same request on behalf of another user (SubjectAccessReview, impersonation). */
    public AuthorizationAttributes withUser(UserInfo other) {
        return new AuthorizationAttributes(
                other,
                verb,
                resourceRequest,
                namespace,
                apiGroup,
                apiVersion,
                resource,
                subresource,
                name,
                path,
                fieldSelector,
                labelSelector);
    }

    /** The same request with the list's or watch's field selector. */
    public AuthorizationAttributes withFieldSelector(FieldSelector selector) {
        return new AuthorizationAttributes(
                user,
                verb,
                resourceRequest,
                namespace,
                apiGroup,
                apiVersion,
                resource,
                subresource,
                name,
                path,
                selector,
                labelSelector);
    }

    /** The same check with a label selector (a CEL authorizer check's). */
    public AuthorizationAttributes withLabelSelector(LabelSelector selector) {
        return new AuthorizationAttributes(
                user,
                verb,
                resourceRequest,
                namespace,
                apiGroup,
                apiVersion,
                resource,
                subresource,
                name,
                path,
                fieldSelector,
                selector);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
