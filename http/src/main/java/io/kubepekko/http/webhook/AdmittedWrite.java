package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.webhook.AdmittedManagedFields;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import java.util.List;

/**
 * The write that stores what the mutating webhooks made of a request's dry run: a create, or an
 * update that must find the object as the dry run read it.
 *
 * <p>Its managedFields are those the dry run recorded for the request's manager (an Apply entry for
 * an apply, an Update one otherwise), stored as they are: kube's field manager records a write
 * before mutating admission, so the fields a webhook sets are nobody's. A webhook may change them;
 * invalid ones are replaced by the recorded ones, with kube's warning.
 */
final class AdmittedWrite {
    private AdmittedWrite() {}

    /**
     * @param request the webhooks' request: its operation, and the dry run's object
     * @param oldResourceVersion the resourceVersion of the object the dry run read; null when
     *     absent
     * @param object what the mutating webhooks made of the dry run's object
     * @param warnings the request's warnings, which kube's warning about invalid managedFields
     *     joins
     */
    static WriteOp of(
            WriteOp op,
            WebhookRequest request,
            String oldResourceVersion,
            ObjectNode object,
            List<String> warnings) {
        ObjectNode body = object.deepCopy();
        String subresource =
                op instanceof WriteOp.Update u
                        ? u.subresource()
                        : op instanceof WriteOp.Patch p ? p.subresource() : null;
        WriteOptions options = WebhookOptions.options(op);
        if ("scale".equals(subresource)) {
            // A Scale's managedFields stand for its object's, whose manager its store records.
            if (body.path("metadata") instanceof ObjectNode meta) {
                meta.remove("managedFields");
            }
        } else if (body.path("metadata") instanceof ObjectNode meta) {
            AdmittedManagedFields.Kept kept =
                    AdmittedManagedFields.of(
                            request.object().path("metadata").get("managedFields"),
                            meta.get("managedFields"));
            kept.warning().ifPresent(warnings::add);
            if (kept.managedFields() == null) {
                meta.remove("managedFields");
            } else {
                meta.set("managedFields", kept.managedFields().deepCopy());
            }
            options = options.withManagersRecorded();
        }
        if (request.operation().equals("CREATE") && oldResourceVersion == null) {
            // A create through update stays one; an apply that creates is a create (an update of
            // an absent object is a 404 for most kinds).
            return op instanceof WriteOp.Update
                    ? new WriteOp.Update(op.targetName(), body, null, options)
                    : new WriteOp.Create(body, options);
        }
        if (body.path("metadata") instanceof ObjectNode meta) {
            meta.put("resourceVersion", oldResourceVersion);
        }
        return new WriteOp.Update(op.targetName(), body, subresource, options);
    }
}
