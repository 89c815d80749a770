package io.kubepekko.actors.plane;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import java.util.concurrent.CompletionStage;

/**
 * The admission chain an API request's write passes, for writes that are not HTTP requests here but
 * are in Kubernetes: the built-in controllers'. kube-controller-manager is a client of the API
 * server, so each of its writes passes the whole chain under the controller's own identity (kube's
 * built-in plugins, then the mutating and validating admission webhooks): a webhook that injects a
 * sidecar into pods sees the pods a controller creates. Here the controllers run inside the server,
 * so they hand their writes to this SPI instead of calling {@link ControlPlane#write} themselves.
 *
 * <p>The HTTP layer implements it with the chain its write routes use (the webhooks live there);
 * {@link #builtIn} is the chain without webhooks, for a server that calls none. Implementations
 * never block the caller: the answer comes through the returned stage, which an actor pipes to
 * itself.
 */
@FunctionalInterface
public interface RequestAdmission {

    /**
     * {@code user}'s write {@code op} of {@code type} (a storage version) in {@code namespace},
     * admitted as the same API request would be and then executed.
     *
     * @return the write's answer, a refusal by admission included ({@link WriteResult.Refused} with
     *     the Status the request would have got); fails only when no answer came, as {@link
     *     ControlPlane#write(ResourceType, String, WriteOp, UserInfo)} does
     */
    CompletionStage<WriteResult> write(
            ResourceType type, String namespace, WriteOp op, UserInfo user);

    /**
     * The built-in admission plugins the collections run inside each write, and no webhooks: {@link
     * ControlPlane#write(ResourceType, String, WriteOp, UserInfo)}.
     */
    static RequestAdmission builtIn(ControlPlane controlPlane) {
        return controlPlane::write;
    }
}
