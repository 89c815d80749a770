package io.kubepekko.api.auth.authorizer;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.status.Reason;

/**
 * kube-apiserver's 403 for a request no authorizer allowed ({@code responsewriters.Forbidden}): the
 * text clients print verbatim, e.g. {@code pods "x" is forbidden: User "u" cannot get resource
 * "pods" in API group "" in the namespace "n"}, and the Status details (name, group, kind = the
 * plural resource).
 */
public final class ForbiddenMessage {

    private ForbiddenMessage() {}

    /**
     * The part after "is forbidden: ", without the authorizers' reason: {@code User "u" cannot get
     * resource "pods/log" in API group "" in the namespace "n"}, its cluster-scope form ({@code at
     * the cluster scope}) or, for a non-resource request, {@code User "u" cannot get path "/foo"}.
     * HTML metacharacters are escaped as kube does, since browsers may render it.
     */
    public static String describe(AuthorizationAttributes a) {
        StringBuilder b = new StringBuilder(128);
        b.append("User ").append(FieldError.quote(a.user().name())).append(" cannot ");
        b.append(a.verb());
        if (!a.resourceRequest()) {
            b.append(" path ").append(FieldError.quote(a.path()));
            return sanitize(b.toString());
        }
        String resource =
                a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
        b.append(" resource ").append(FieldError.quote(resource));
        b.append(" in API group ").append(FieldError.quote(a.apiGroup()));
        if (a.namespace().isEmpty()) {
            b.append(" at the cluster scope");
        } else {
            b.append(" in the namespace ").append(FieldError.quote(a.namespace()));
        }
        return sanitize(b.toString());
    }

    /**
     * The 403 Status: {@code <resource>[.<group>] ["<name>"] is forbidden: <describe>[: <reason>]},
     * or {@code forbidden: <describe>[: <reason>]} for a non-resource request.
     *
     * @param reason the union's no-opinion reasons (kube appends them after a colon), may be empty
     */
    public static ApiStatus status(AuthorizationAttributes a, String reason) {
        String why = describe(a);
        if (reason != null && !reason.isEmpty()) {
            why = why + ": " + reason;
        }
        GroupResource gr = new GroupResource(a.apiGroup(), a.resource());
        if (gr.group().isEmpty() && gr.resource().isEmpty()) {
            return new ApiStatus(403, Reason.FORBIDDEN, "forbidden: " + why, null);
        }
        return ApiStatus.forbidden(gr, a.name(), why);
    }

    private static String sanitize(String s) {
        if (s.indexOf('&') < 0 && s.indexOf('<') < 0 && s.indexOf('>') < 0) {
            return s;
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
