package io.kubepekko.http.webhook;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.actors.plane.RequestAdmission;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The admission chain of the write routes, for the server's controllers ({@link RequestAdmission}):
 * what the plugins look up live before a create, then the admission webhooks whose rules match
 * ({@link WebhookAdmission}), then the write with the built-in plugins inside the collection, as
 * the request would be admitted through HTTP. The webhooks' warnings and audit annotations, which a
 * request would answer and record, have no request here and are dropped.
 */
public final class RequestAdmissionChain implements RequestAdmission {

    private final ControlPlane controlPlane;
    private final WriteAdmission plugins;
    private final WebhookAdmission webhooks;

    /**
     * @param plugins the built-in plugins the collections run (asked here only for what they look
     *     up before a create)
     */
    public RequestAdmissionChain(
            ControlPlane controlPlane, WriteAdmission plugins, WebhookAdmission webhooks) {
        this.controlPlane = controlPlane;
        this.plugins = plugins;
        this.webhooks = webhooks;
    }

    @Override
    public CompletionStage<WriteResult> write(
            ResourceType type, String namespace, WriteOp op, UserInfo user) {
        // The storage version, served or turned off: the controllers write in it either way.
        ServedKind kind =
                controlPlane.registry().servedVersions(type.groupResource()).get(type.apiVersion());
        if (kind == null) {
            return CompletableFuture.failedFuture(
                    new IllegalArgumentException(type.groupResource() + " has no stored objects"));
        }
        CompletionStage<Void> prepared =
                op instanceof WriteOp.Create create
                        ? plugins.prepareCreate(type.groupResource(), namespace, create.object())
                        : CompletableFuture.completedFuture(null);
        return prepared.thenCompose(v -> webhooks.write(kind, namespace, op, user))
                .thenApply(WebhookAdmission.Written::result);
    }
}
