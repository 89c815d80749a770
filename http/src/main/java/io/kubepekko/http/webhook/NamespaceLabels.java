package io.kubepekko.http.webhook;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The labels of a request's namespace, which webhooks' {@code namespaceSelector}s match: read from
 * storage only when a selector asks for them.
 */
final class NamespaceLabels {

    private final ControlPlane controlPlane;

    NamespaceLabels(ControlPlane controlPlane) {
        this.controlPlane = controlPlane;
    }

    /** The labels of the namespace, read once when a selector asks for them. */
    CompletionStage<Map<String, String>> of(
            List<Webhook> mutating, List<Webhook> validating, WebhookRequest request) {
        boolean needed =
                mutating.stream().anyMatch(h -> WebhookRules.needsNamespace(h, request))
                        || validating.stream()
                                .anyMatch(h -> WebhookRules.needsNamespace(h, request));
        if (!needed) {
            return CompletableFuture.completedFuture(Map.of());
        }
        Optional<ResourceType> namespaces =
                controlPlane.registry().find(new GroupResource("", "namespaces"));
        if (namespaces.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        return controlPlane
                .get(namespaces.get(), "", WebhookRules.namespaceOf(request))
                .thenApply(
                        bytes -> {
                            Map<String, String> labels = new TreeMap<>();
                            bytes.ifPresent(
                                    b ->
                                            Json.parseTrusted(b)
                                                    .path("metadata")
                                                    .path("labels")
                                                    .properties()
                                                    .forEach(
                                                            e ->
                                                                    labels.put(
                                                                            e.getKey(),
                                                                            e.getValue()
                                                                                    .asText())));
                            return labels;
                        });
    }
}
