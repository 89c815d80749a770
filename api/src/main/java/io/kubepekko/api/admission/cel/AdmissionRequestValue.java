package io.kubepekko.api.admission.cel;

import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code request} variable: kube's {@code CreateAdmissionRequest}, an admission.k8s.io/v1
 * AdmissionRequest without uid, object and oldObject (those are variables of their own), as its
 * JSON has it: the omitempty fields (name, namespace, subResource, requestSubResource, uid and
 * groups of the user) absent when empty, so selecting one is an error there as in kube. The request
 * kind and resource are the request's own, not the version a webhook is sent.
 */
final class AdmissionRequestValue {

    private AdmissionRequestValue() {}

    static Map<String, Object> of(WebhookRequest request) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> kind = gvk(request.kind());
        Map<String, Object> resource = gvr(request.resource());
        out.put("kind", kind);
        out.put("resource", resource);
        putNonEmpty(out, "subResource", request.subresource());
        out.put("requestKind", kind);
        out.put("requestResource", resource);
        putNonEmpty(out, "requestSubResource", request.subresource());
        putNonEmpty(out, "name", request.name());
        putNonEmpty(out, "namespace", request.namespace());
        out.put("operation", request.operation());
        out.put("userInfo", userInfo(request.user()));
        out.put("dryRun", request.dryRun());
        out.put("options", CelValues.of(request.options()));
        return out;
    }

    private static Map<String, Object> gvk(WebhookRequest.Gvk gvk) {
        return gvk == null
                ? Map.of("group", "", "version", "", "kind", "")
                : Map.of("group", gvk.group(), "version", gvk.version(), "kind", gvk.kind());
    }

    private static Map<String, Object> gvr(WebhookRequest.Gvr gvr) {
        return gvr == null
                ? Map.of("group", "", "version", "", "resource", "")
                : Map.of(
                        "group", gvr.group(), "version", gvr.version(), "resource", gvr.resource());
    }

    private static Map<String, Object> userInfo(UserInfo user) {
        Map<String, Object> out = new LinkedHashMap<>();
        // kube's converted request always has the extra map, even empty.
        out.put("extra", user == null ? Map.of() : Map.<String, List<String>>copyOf(user.extra()));
        if (user == null) {
            return out;
        }
        putNonEmpty(out, "username", user.name());
        putNonEmpty(out, "uid", user.uid());
        if (!user.groups().isEmpty()) {
            out.put("groups", user.groups());
        }
        return out;
    }

    private static void putNonEmpty(Map<String, Object> out, String key, String value) {
        if (value != null && !value.isEmpty()) {
            out.put(key, value);
        }
    }
}
