package io.kubepekko.http.webhook;

import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.WriteOp;

/** The webhook request a user's write makes, with kube's attributes for it. */
final class WriteRequests {

    private WriteRequests() {}

    /** The request as far as known before the write: no objects yet. */
    static WebhookRequest base(ServedKind kind, String namespace, WriteOp op, UserInfo user) {
        ResourceType t = kind.type();
        String operation;
        String subresource = "";
        String name = op.targetName();
        boolean dryRun;
        if (op instanceof WriteOp.Create c) {
            operation = "CREATE";
            name = c.object().path("metadata").path("name").asText("");
            dryRun = c.options().dryRun();
        } else if (op instanceof WriteOp.Update u) {
            operation = "UPDATE";
            subresource = u.subresource();
            dryRun = u.options().dryRun();
        } else if (op instanceof WriteOp.Patch p) {
            operation = "UPDATE";
            subresource = p.subresource();
            dryRun = p.options().dryRun();
        } else {
            operation = "DELETE";
            dryRun = ((WriteOp.Delete) op).options().dryRun();
        }
        return new WebhookRequest(
                operation,
                new WebhookRequest.Gvk(t.group(), t.version(), t.kind()),
                new WebhookRequest.Gvr(t.group(), t.version(), t.resource()),
                subresource,
                namespace,
                name,
                user,
                null,
                null,
                dryRun,
                WebhookOptions.of(op, operation));
    }
}
