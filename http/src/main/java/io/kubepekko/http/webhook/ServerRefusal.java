package io.kubepekko.http.webhook;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What the server itself refuses of a create through a subresource before any admission webhook is
 * asked: kube runs its built-in plugins' mutating phase, NamespaceLifecycle and NodeRestriction
 * included, before its mutating webhooks. Asked only when a webhook applies, since it may cost a
 * dry run of the write.
 */
@FunctionalInterface
public interface ServerRefusal {

    /** Refuses nothing: the caller asked the server's plugins itself. */
    ServerRefusal NONE = () -> CompletableFuture.completedFuture(Optional.empty());

    /** The server's refusal of the write, or empty when it may go on to the webhooks. */
    CompletionStage<Optional<ApiStatus>> refusal();

    /**
     * {@code user}'s create {@code op} through a subresource of {@code type} in {@code namespace}
     * (a {@code pods/binding}, or a create of {@code bindings} forwarded to it) judged by a dry run
     * of it, where the write's NamespaceLifecycle and built-in plugins (NodeRestriction) answer.
     * The dry run also answers the create's own 400, 422, 404 and 409 before any webhook, as a
     * write that calls webhooks does; kube calls its mutating webhooks before those.
     */
    static ServerRefusal dryRun(
            ControlPlane controlPlane,
            ResourceType type,
            String namespace,
            UserInfo user,
            WriteOp.CreateSubresource op) {
        WriteOptions o = op.options();
        WriteOp dry =
                new WriteOp.CreateSubresource(
                        op.name(),
                        op.subresource(),
                        op.body(),
                        op.forwardedFrom(),
                        new WriteOptions(
                                true, o.fieldManager(), o.fieldValidation(), o.apiVersion()));
        return () ->
                controlPlane
                        .write(type, namespace, dry, user)
                        .thenApply(
                                result ->
                                        result instanceof WriteResult.Refused refused
                                                ? Optional.of(refused.status())
                                                : Optional.<ApiStatus>empty());
    }
}
