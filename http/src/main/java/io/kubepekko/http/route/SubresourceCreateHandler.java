package io.kubepekko.http.route;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ForwardedCreate;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.http.encoding.RequestBodies;
import io.kubepekko.http.route.ResourceHandler.Request;
import io.kubepekko.http.webhook.ServerRefusal;
import io.kubepekko.http.webhook.WebhookAdmission;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * The creates of a body that is no stored object, through a subresource of the object it names
 * (pods/{name}/binding) or of a resource that forwards to one (bindings): the admission webhooks
 * are asked for the body first (after the server's own refusal, learnt from a dry run), then {@link
 * WebhookAdmission}'s body is created through the subresource.
 */
final class SubresourceCreateHandler {

    private final ControlPlane controlPlane;
    private final WebhookAdmission webhooks;

    SubresourceCreateHandler(ControlPlane controlPlane, WebhookAdmission webhooks) {
        this.controlPlane = controlPlane;
        this.webhooks = webhooks;
    }

    /**
     * A create of a resource without objects (bindings): the create of its subresource
     * (pods/binding) on the object the body names.
     */
    CompletionStage<HttpResponse> forwarded(ResourceType type, Request r) {
        ForwardedCreate forward = type.forwardedCreate();
        ResourceType target =
                controlPlane
                        .registry()
                        .find(type.group(), type.version(), forward.resource())
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                type.resource()
                                                        + " forwards to an unserved resource"));
        WriteOptions options = WriteParameters.writeOptions(r, List.of());
        RequestBodies.Decoded d = WriteParameters.body(type, r, options);
        String name = ObjectMeta.name(d.object());
        // kube admits a create of bindings as one of that resource, named as the body.
        return r.afterWebhooks(
                webhooks.create(
                        type,
                        "",
                        r.info().namespace(),
                        name == null ? "" : name,
                        type.gvk(),
                        d.object(),
                        options.dryRun(),
                        options.fieldManager(),
                        r.user(),
                        ServerRefusal.dryRun(
                                controlPlane,
                                target,
                                r.info().namespace(),
                                r.user(),
                                new WriteOp.CreateSubresource(
                                        name == null ? "" : name,
                                        forward.subresource(),
                                        d.object(),
                                        type.resource(),
                                        options))),
                d.warnings(),
                (object, warnings) ->
                        write(
                                target,
                                r,
                                new WriteOp.CreateSubresource(
                                        name == null ? "" : name,
                                        forward.subresource(),
                                        object,
                                        type.resource(),
                                        options),
                                warnings));
    }

    /** A create through a subresource of the named object (pods/{name}/binding). */
    CompletionStage<HttpResponse> throughSubresource(
            ResourceType type, Request r, SubresourceCreate creation) {
        WriteOptions options = WriteParameters.writeOptions(r, List.of());
        RequestBodies.Decoded d =
                RequestBodies.decode(
                        r.contentType(), r.body(), creation.bodyKind(), options.fieldValidation());
        return r.afterWebhooks(
                webhooks.create(
                        type,
                        r.info().subresource(),
                        r.info().namespace(),
                        r.info().name(),
                        creation.bodyKind(),
                        d.object(),
                        options.dryRun(),
                        options.fieldManager(),
                        r.user(),
                        ServerRefusal.dryRun(
                                controlPlane,
                                type,
                                r.info().namespace(),
                                r.user(),
                                new WriteOp.CreateSubresource(
                                        r.info().name(),
                                        r.info().subresource(),
                                        d.object(),
                                        null,
                                        options))),
                d.warnings(),
                (object, warnings) ->
                        write(
                                type,
                                r,
                                new WriteOp.CreateSubresource(
                                        r.info().name(),
                                        r.info().subresource(),
                                        object,
                                        null,
                                        options),
                                warnings));
    }

    /** A write to a kind served in its storage version only (bindings, pods/binding). */
    private CompletionStage<HttpResponse> write(
            ResourceType type, Request r, WriteOp op, List<String> decodeWarnings) {
        return controlPlane
                .write(type, r.info().namespace(), op, r.user())
                .thenApply(result -> WriteResponses.of(result, r, decodeWarnings, null));
    }
}
