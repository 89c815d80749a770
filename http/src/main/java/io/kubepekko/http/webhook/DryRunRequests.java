package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The objects of the request the webhooks are sent for one object's write: the stored object as its
 * old object, and the object the write would leave, learnt by running the write as a dry run (every
 * default and in-server admission applied, nothing stored).
 */
final class DryRunRequests {

    /**
     * The request with its objects and the resourceVersion its old object was read at, or the
     * refusal its dry run met; neither when the write goes on as it came (a delete of nothing,
     * which answers its own 404).
     */
    record Prepared(WebhookRequest request, String oldResourceVersion, ApiStatus refusal) {}

    private final ControlPlane controlPlane;

    DryRunRequests(ControlPlane controlPlane) {
        this.controlPlane = controlPlane;
    }

    /**
     * {@code base} (the request's attributes) with the objects of {@code user}'s write {@code op}.
     */
    CompletionStage<Prepared> prepare(
            ServedKind kind, String namespace, WriteOp op, UserInfo user, WebhookRequest base) {
        CompletionStage<Optional<ObjectNode>> old =
                base.operation().equals("CREATE")
                        ? CompletableFuture.completedFuture(Optional.empty())
                        : controlPlane
                                .get(kind.storageType(), namespace, op.targetName())
                                .thenApply(
                                        bytes ->
                                                bytes.map(
                                                        b ->
                                                                kind.fromStorage(
                                                                        Json.parseTrusted(b))));
        return old.thenCompose(
                stored -> {
                    WebhookRequest request = base;
                    String oldRv = null;
                    if (stored.isPresent()) {
                        request = request.withOldObject(stored.get());
                        oldRv = stored.get().path("metadata").path("resourceVersion").asText(null);
                    } else if (base.operation().equals("UPDATE")) {
                        request = request.withOperation("CREATE"); // kube: a create through update
                    } else if (base.operation().equals("DELETE")) {
                        // Nothing to delete: the write answers its 404 itself.
                        return CompletableFuture.completedFuture(new Prepared(null, null, null));
                    }
                    if (request.operation().equals("DELETE")) {
                        return CompletableFuture.completedFuture(
                                new Prepared(request, oldRv, null));
                    }
                    WebhookRequest withOld = request;
                    String rv = oldRv;
                    return controlPlane
                            .write(kind.storageType(), namespace, WebhookOptions.dryRun(op), user)
                            .thenApply(
                                    result -> {
                                        if (result instanceof WriteResult.Refused refused) {
                                            return new Prepared(
                                                    null, rv, kind.refusal(refused.status()));
                                        }
                                        ObjectNode object =
                                                Json.parseTrusted(
                                                        kind.responseBody(
                                                                ((WriteResult.Success) result)
                                                                        .body()));
                                        if (withOld.operation().equals("CREATE")) {
                                            WebhookOptions.clearSystemFields(
                                                    object, withOld.name());
                                        }
                                        return new Prepared(withOld.withObject(object), rv, null);
                                    });
                });
    }
}
