package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The webhooks of the writes that are not one object's own create, update, patch or delete: each
 * item of a deletecollection, and the creates through subresources whose body is no stored object
 * (bindings, evictions, token requests). Their requests are built here; the phases are {@link
 * WebhookDispatch}'s. A create asks the server's own refusal ({@link ServerRefusal}) first, once a
 * webhook applies.
 */
final class WebhookSideWrites {
    private final WebhookDispatch dispatch;

    WebhookSideWrites(WebhookDispatch dispatch) {
        this.dispatch = dispatch;
    }

    CompletionStage<WebhookAdmission.Written> deleteItem(
            ServedKind kind, String namespace, byte[] item, WriteOp.Delete op, UserInfo user) {
        ObjectNode stored = kind.fromStorage(Json.parseTrusted(item));
        String itemNamespace = stored.path("metadata").path("namespace").asText("");
        if (dispatch.index().isEmpty()) {
            return plain(kind, itemNamespace, op, user);
        }
        WebhookRequest b = WriteRequests.base(kind, namespace, op, user);
        WebhookRequest request =
                new WebhookRequest(
                        b.operation(),
                        b.kind(),
                        b.resource(),
                        "",
                        namespace,
                        "",
                        user,
                        null,
                        stored,
                        b.dryRun(),
                        b.options());
        List<WebhookRules.Version> versions = dispatch.versions(kind);
        List<Webhook> mutating =
                WebhookRules.candidates(dispatch.index().mutating(), request, versions);
        List<Webhook> validating =
                WebhookRules.candidates(dispatch.index().validating(), request, versions);
        if (mutating.isEmpty() && validating.isEmpty()) {
            return plain(kind, itemNamespace, op, user);
        }
        return dispatch.admit(
                        request, mutating, validating, versions, dispatch.kindsByVersion(kind))
                .thenCompose(
                        admitted -> {
                            CompletionStage<WriteResult> result =
                                    admitted.refusal() != null
                                            ? CompletableFuture.<WriteResult>completedFuture(
                                                    new WriteResult.Refused(admitted.refusal()))
                                            : dispatch.controlPlane()
                                                    .write(
                                                            kind.storageType(),
                                                            itemNamespace,
                                                            op,
                                                            user);
                            return result.thenApply(
                                    r ->
                                            new WebhookAdmission.Written(
                                                    r,
                                                    admitted.warnings(),
                                                    admitted.annotations()));
                        });
    }

    private CompletionStage<WebhookAdmission.Written> plain(
            ServedKind kind, String namespace, WriteOp.Delete op, UserInfo user) {
        return dispatch.controlPlane()
                .write(kind.storageType(), namespace, op, user)
                .thenApply(r -> new WebhookAdmission.Written(r, List.of(), List.of()));
    }

    CompletionStage<WebhookAdmission.Body> create(
            ResourceType type,
            String subresource,
            String namespace,
            String name,
            GroupVersionKind bodyKind,
            ObjectNode body,
            boolean dryRun,
            String fieldManager,
            UserInfo user,
            ServerRefusal first) {
        if (dispatch.index().isEmpty()) {
            return CompletableFuture.completedFuture(
                    new WebhookAdmission.Body(body, null, List.of()));
        }
        WebhookRequest.Gvr gvr =
                new WebhookRequest.Gvr(type.group(), type.version(), type.resource());
        WebhookRequest.Gvk gvk =
                new WebhookRequest.Gvk(bodyKind.group(), bodyKind.version(), bodyKind.kind());
        WebhookRequest request =
                new WebhookRequest(
                        "CREATE",
                        gvk,
                        gvr,
                        subresource,
                        namespace,
                        name,
                        user,
                        body,
                        null,
                        dryRun,
                        WebhookOptions.create(dryRun, fieldManager));
        List<WebhookRules.Version> versions = List.of(new WebhookRules.Version(gvr, gvk));
        List<Webhook> mutating =
                WebhookRules.candidates(dispatch.index().mutating(), request, versions);
        List<Webhook> validating =
                WebhookRules.candidates(dispatch.index().validating(), request, versions);
        if (mutating.isEmpty() && validating.isEmpty()) {
            return CompletableFuture.completedFuture(
                    new WebhookAdmission.Body(body, null, List.of()));
        }
        return first.refusal()
                .thenCompose(
                        refused ->
                                refused.isPresent()
                                        ? CompletableFuture.<WebhookAdmission.Body>completedFuture(
                                                new WebhookAdmission.Body(
                                                        null, refused.get(), List.of()))
                                        : admit(request, mutating, validating, versions));
    }

    private CompletionStage<WebhookAdmission.Body> admit(
            WebhookRequest request,
            List<Webhook> mutating,
            List<Webhook> validating,
            List<WebhookRules.Version> versions) {
        return dispatch.admit(request, mutating, validating, versions, Map.of())
                .thenApply(
                        a ->
                                new WebhookAdmission.Body(
                                        a.object(), a.refusal(), a.warnings(), a.annotations()));
    }
}
