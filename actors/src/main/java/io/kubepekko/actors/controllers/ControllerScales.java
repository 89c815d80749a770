package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.policy.DisruptionStatus.ControllerScale;
import io.kubepekko.api.policy.PodStates;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.ScaleConversion;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The disruption controller's controller finders: for each controller reference of a budget's pods,
 * the controller it leads to and its desired replicas, read live. As kube's finders: a ReplicaSet
 * that a Deployment controls counts as that Deployment; any kind with a {@code scale} subresource
 * gives its Scale's {@code spec.replicas}; a controller that is gone or has another uid gives
 * nothing; a kind without a scale subresource, or one not served, fails the budget's sync with
 * kube's message.
 */
final class ControllerScales {

    private final ControllerClient client;
    private final Registry registry;

    ControllerScales(ControllerClient client, Registry registry) {
        this.client = client;
        this.registry = registry;
    }

    /**
     * The controllers found for {@code refs} (all in {@code namespace}), by reference uid; the
     * stage fails with an IllegalArgumentException when one cannot be looked up.
     */
    CompletionStage<Map<String, ControllerScale>> of(String namespace, List<JsonNode> refs) {
        Map<String, ControllerScale> found = new HashMap<>();
        CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
        for (JsonNode ref : refs) {
            String uid = ref.path("uid").asText("");
            all =
                    all.thenCompose(
                            v ->
                                    resolve(namespace, ref)
                                            .thenAccept(c -> c.ifPresent(s -> found.put(uid, s))));
        }
        return all.thenApply(v -> Map.copyOf(found));
    }

    private CompletionStage<Optional<ControllerScale>> resolve(String namespace, JsonNode ref) {
        String apiVersion = ref.path("apiVersion").asText("");
        String kind = ref.path("kind").asText("");
        ResourceType type = registry.findKind(apiVersion, kind).orElse(null);
        if (type == null) {
            return CompletableFuture.failedFuture(
                    new IllegalArgumentException(
                            "no matches for kind \""
                                    + kind
                                    + "\" in version \""
                                    + apiVersion
                                    + "\""));
        }
        if (!type.hasScale()) {
            return CompletableFuture.failedFuture(
                    new IllegalArgumentException(
                            type.groupResource() + " does not implement the scale subresource"));
        }
        String uid = ref.path("uid").asText("");
        return client.get(type, namespace, ref.path("name").asText(""))
                .thenCompose(
                        found -> {
                            if (found.isEmpty() || !uid.equals(ObjectMeta.uid(found.get()))) {
                                return CompletableFuture.completedFuture(
                                        Optional.<ControllerScale>empty());
                            }
                            ObjectNode controller = found.get();
                            Optional<ControllerScale> own = Optional.of(scaleOf(type, controller));
                            JsonNode owner = PodStates.controllerRef(controller);
                            if (!isReplicaSet(type) || owner == null || !isDeployment(owner)) {
                                return CompletableFuture.completedFuture(own);
                            }
                            return deployment(namespace, owner)
                                    .thenApply(d -> d.isPresent() ? d : own);
                        });
    }

    private CompletionStage<Optional<ControllerScale>> deployment(
            String namespace, JsonNode owner) {
        ResourceType type =
                registry.findKind(owner.path("apiVersion").asText(""), "Deployment").orElse(null);
        if (type == null) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        String uid = owner.path("uid").asText("");
        return client.get(type, namespace, owner.path("name").asText(""))
                .thenApply(
                        found ->
                                found.filter(d -> uid.equals(ObjectMeta.uid(d)))
                                        .map(d -> scaleOf(type, d)));
    }

    private static ControllerScale scaleOf(ResourceType type, ObjectNode controller) {
        return new ControllerScale(
                ObjectMeta.uid(controller),
                ScaleConversion.toScale(type, controller).path("spec").path("replicas").asInt(1));
    }

    private static boolean isReplicaSet(ResourceType type) {
        return type.kind().equals("ReplicaSet")
                && (type.group().equals("apps") || type.group().equals("extensions"));
    }

    private static boolean isDeployment(JsonNode ref) {
        String apiVersion = ref.path("apiVersion").asText("");
        return ref.path("kind").asText("").equals("Deployment")
                && (apiVersion.startsWith("apps/") || apiVersion.startsWith("extensions/"));
    }
}
