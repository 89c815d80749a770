package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.webhook.ServiceResolution;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where a webhook is called: its {@code url}, or a ready endpoint of the Service it references (see
 * {@link ServiceResolution}), read from storage when the call is made (kube reads its informers'
 * caches; a fresh read sees at least as much).
 */
class WebhookEndpoints {
    private static final GroupResource SERVICES = new GroupResource("", "services");
    private static final GroupResource ENDPOINTS = new GroupResource("", "endpoints");

    private final ControlPlane controlPlane;

    WebhookEndpoints(ControlPlane controlPlane) {
        this.controlPlane = controlPlane;
    }

    /** The target of {@code hook}'s next call. */
    CompletionStage<WebhookCaller.Target> target(Webhook hook) {
        if (hook.service().isEmpty()) {
            return CompletableFuture.completedFuture(
                    WebhookCaller.Target.url(hook.url().orElse("")));
        }
        Webhook.ServiceRef ref = hook.service().get();
        String url = ServiceResolution.url(ref);
        String serverName = ServiceResolution.serverName(ref);
        return read(SERVICES, ref)
                .thenCompose(
                        service -> {
                            CompletionStage<Optional<JsonNode>> endpoints =
                                    service.isEmpty()
                                            ? CompletableFuture.completedFuture(Optional.empty())
                                            : read(ENDPOINTS, ref);
                            return endpoints.thenApply(
                                    e ->
                                            ServiceResolution.resolve(
                                                    ref,
                                                    service,
                                                    e,
                                                    n -> ThreadLocalRandom.current().nextInt(n)));
                        })
                .thenApply(
                        result ->
                                result instanceof ServiceResolution.Resolved r
                                        ? new WebhookCaller.Target(
                                                url, r.url(ref.path()), serverName, null)
                                        : new WebhookCaller.Target(
                                                url,
                                                null,
                                                serverName,
                                                ((ServiceResolution.Unresolved) result).reason()));
    }

    private CompletionStage<Optional<JsonNode>> read(
            GroupResource resource, Webhook.ServiceRef ref) {
        Optional<ResourceType> type = controlPlane.registry().find(resource);
        if (type.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return controlPlane
                .get(type.get(), ref.namespace(), ref.name())
                .thenApply(bytes -> bytes.map(b -> (JsonNode) Json.parseTrusted(b)));
    }
}
