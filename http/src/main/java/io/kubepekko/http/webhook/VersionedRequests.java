package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.definition.ServedKind;
import java.util.Map;

/**
 * A webhook request in the version a webhook's rules matched (kube's {@code matchPolicy:
 * Equivalent}), and a patched object back in the request's version: both through the kind's storage
 * version, between the served versions of one kind.
 */
final class VersionedRequests {

    private final Map<String, ServedKind> kinds;

    /**
     * @param kinds the kind's served versions by apiVersion
     */
    VersionedRequests(Map<String, ServedKind> kinds) {
        this.kinds = kinds;
    }

    /** The request with its objects in {@code version} (an equivalent version's webhook). */
    WebhookRequest inVersion(WebhookRequest request, WebhookRules.Version version) {
        if (version.resource().equals(request.resource())) {
            return request;
        }
        ServedKind from = kinds.get(apiVersion(request.resource()));
        ServedKind to = kinds.get(apiVersion(version.resource()));
        if (from == null || to == null) {
            return request;
        }
        WebhookRequest converted = request.withObject(convert(request.object(), from, to));
        return converted.withOldObject(convert(request.oldObject(), from, to));
    }

    /** {@code patched}, made by a webhook of {@code version}, in the request's version. */
    ObjectNode backToRequest(
            ObjectNode patched, WebhookRules.Version version, WebhookRequest request) {
        if (version.resource().equals(request.resource())) {
            return patched;
        }
        ServedKind from = kinds.get(apiVersion(version.resource()));
        ServedKind to = kinds.get(apiVersion(request.resource()));
        return from == null || to == null ? patched : convert(patched, from, to);
    }

    private static ObjectNode convert(ObjectNode object, ServedKind from, ServedKind to) {
        return object == null ? null : to.fromStorage(from.toStorage(object));
    }

    private static String apiVersion(WebhookRequest.Gvr gvr) {
        return gvr.group().isEmpty() ? gvr.version() : gvr.group() + "/" + gvr.version();
    }
}
