package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.Verb;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.policy.EvictionRules;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.BodyIdentity;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.TypeMeta;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.http.encoding.RequestBodies;
import io.kubepekko.http.route.ResourceHandler.Request;
import io.kubepekko.http.webhook.WebhookAdmission;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * {@code POST pods/{name}/eviction}, as kube-apiserver's create handler and {@code EvictionREST}
 * take it before storage is touched: create only; the body a policy/v1 Eviction (a policy/v1beta1
 * one is accepted too, as kube's {@code AcceptsGroupVersion} says), placed in the request's
 * namespace and naming the URL's pod; the request's dry run propagated into its {@code
 * deleteOptions}; admitted as the request's user's; then the {@link ControlPlane} evicts.
 */
final class EvictionHandler {

    private final ControlPlane controlPlane;
    private final WebhookAdmission webhooks;

    EvictionHandler(ControlPlane controlPlane, WebhookAdmission webhooks) {
        this.controlPlane = controlPlane;
        this.webhooks = webhooks;
    }

    CompletionStage<HttpResponse> evict(ResourceType pods, Request r) {
        if (r.info().verb() != Verb.CREATE) {
            throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
        }
        ResourcePaths.withPathNames(r);
        String namespace = r.info().namespace();
        String name = r.info().name();
        List<String> queryDryRun = r.query().toMultiMap().getOrDefault("dryRun", List.of());
        WriteOptions options =
                WriteOptions.parse(
                        "CreateOptions",
                        List.of(),
                        r.param("fieldManager").orElse(null),
                        queryDryRun,
                        r.param("fieldValidation").orElse(""));
        RequestBodies.Decoded d = decode(r, options);
        ObjectNode eviction = d.object();
        // A body of another kind (a Pod, a ConfigMap) is no Eviction, whatever its fields.
        TypeMeta.checkBody(EvictionRules.V1, eviction)
                .ifPresent(
                        refused -> {
                            throw refused.exception();
                        });
        BodyIdentity.placeInNamespace(pods, namespace, eviction, true)
                .ifPresent(
                        refused -> {
                            throw refused.exception();
                        });
        String bodyName = ObjectMeta.name(eviction);
        if (!name.equals(bodyName == null ? "" : bodyName)) {
            throw ApiStatus.badRequest("name in URL does not match name in Eviction object")
                    .exception();
        }
        JsonNode given = eviction.path("deleteOptions");
        List<String> dryRun = EvictionRules.dryRun(queryDryRun, given);
        ObjectNode deleteOptions =
                given instanceof ObjectNode o ? o.deepCopy() : Json.MAPPER.createObjectNode();
        ArrayNode dry = deleteOptions.putArray("dryRun");
        dryRun.forEach(dry::add);
        DeletionOptions deletion = DeletionOptions.fromBody(deleteOptions);
        // NamespaceLifecycle first, as kube's mutating phase runs it before the other plugins.
        return controlPlane
                .admitCreateInNamespace(pods.groupResource(), name, namespace)
                .thenCompose(
                        refused ->
                                refused.isPresent()
                                        ? CompletableFuture.completedFuture(
                                                r.refusal(refused.get()))
                                        : admitted(pods, r, eviction, deletion, options, d));
    }

    /** The eviction once NamespaceLifecycle let it in: the other plugins, webhooks, the pod. */
    private CompletionStage<HttpResponse> admitted(
            ResourceType pods,
            Request r,
            ObjectNode eviction,
            DeletionOptions deletion,
            WriteOptions options,
            RequestBodies.Decoded d) {
        String namespace = r.info().namespace();
        String name = r.info().name();
        // kube's create handler admits the eviction before its storage reads the pod.
        Optional<ApiStatus> notAdmitted =
                r.admission()
                        .refusal(
                                new AdmissionRequest(
                                        Operation.CREATE,
                                        r.user(),
                                        pods.groupResource(),
                                        r.info().subresource(),
                                        namespace,
                                        name,
                                        eviction,
                                        null,
                                        deletion.dryRun()));
        if (notAdmitted.isPresent()) {
            return CompletableFuture.completedFuture(r.refusal(notAdmitted.get()));
        }
        String manager =
                options.fieldManager() != null
                        ? options.fieldManager()
                        : WriteParameters.managerFromUserAgent(r.userAgent());
        // The webhooks after the server's own plugins, as in kube: the one refusing evictions
        // (NodeRestriction) is in kube's mutating phase, ordered before its webhooks. A mutating
        // webhook's change to the Eviction is not read back: its deleteOptions are taken.
        return r.afterWebhooks(
                webhooks.create(
                        pods,
                        r.info().subresource(),
                        namespace,
                        name,
                        EvictionRules.V1,
                        eviction,
                        deletion.dryRun(),
                        options.fieldManager(),
                        r.user()),
                d.warnings(),
                (object, warnings) ->
                        controlPlane
                                .evict(namespace, name, deletion, manager)
                                .thenApply(result -> WriteResponses.of(result, r, warnings, null)));
    }

    /**
     * The body as a policy/v1 Eviction; one that declares policy/v1beta1 (the same fields) is read
     * as v1.
     */
    private static RequestBodies.Decoded decode(Request r, WriteOptions options) {
        byte[] body = r.body();
        String contentType = r.contentType();
        if (!isProtobuf(contentType)) {
            ObjectNode v1beta1 = declaresV1beta1(body);
            if (v1beta1 != null) {
                v1beta1.put("apiVersion", EvictionRules.V1.apiVersion());
                body = Json.bytes(v1beta1);
                contentType = "application/json";
            }
        }
        return RequestBodies.decode(contentType, body, EvictionRules.V1, options.fieldValidation());
    }

    private static boolean isProtobuf(String contentType) {
        return contentType != null && contentType.startsWith(ProtobufBodies.MEDIA_TYPE);
    }

    /** The body's tree when it is JSON or YAML declaring policy/v1beta1, else null. */
    private static ObjectNode declaresV1beta1(byte[] body) {
        try {
            JsonNode tree = Json.YAML.readTree(body); // YAML reads JSON too
            if (tree instanceof ObjectNode o
                    && o.path("apiVersion").asText("").equals(EvictionRules.V1BETA1.apiVersion())
                    && o.path("kind").asText("").equals(EvictionRules.V1BETA1.kind())) {
                return o;
            }
        } catch (IOException | RuntimeException e) {
            // not parseable here: the decoder reports it
        }
        return null;
    }
}
