package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import java.util.Objects;

/**
 * What a webhook is asked about (kube's versioned admission attributes): the request as the client
 * addressed it, with the objects in the version the webhook is sent.
 *
 * @param operation CREATE, UPDATE, DELETE or CONNECT
 * @param kind the request's kind (group, version, kind)
 * @param resource the request's resource (group, version, resource)
 * @param subresource the subresource written, empty for the object itself
 * @param namespace the request's namespace, empty for a cluster-scoped resource
 * @param name the object's name, empty when the server generates it
 * @param object the object the write leaves; null on a delete
 * @param oldObject the stored object; null on a create
 * @param options the operation's options object (CreateOptions, UpdateOptions, DeleteOptions…)
 */
public record WebhookRequest(
        String operation,
        Gvk kind,
        Gvr resource,
        String subresource,
        String namespace,
        String name,
        UserInfo user,
        ObjectNode object,
        ObjectNode oldObject,
        boolean dryRun,
        ObjectNode options) {

    /** A group, version and kind. */
    public record Gvk(String group, String version, String kind) {}

    /** A group, version and resource. */
    public record Gvr(String group, String version, String resource) {}

    public WebhookRequest {
        Objects.requireNonNull(operation, "operation");
        subresource = subresource == null ? "" : subresource;
        namespace = namespace == null ? "" : namespace;
        name = name == null ? "" : name;
    }

    /** This request with {@code changed} as its object (a mutating webhook's patch applied). */
    public WebhookRequest withObject(ObjectNode changed) {
        return new WebhookRequest(
                operation,
                kind,
                resource,
                subresource,
                namespace,
                name,
                user,
                changed,
                oldObject,
                dryRun,
                options);
    }

    /** This request with {@code stored} as its old object. */
    public WebhookRequest withOldObject(ObjectNode stored) {
        return new WebhookRequest(
                operation,
                kind,
                resource,
                subresource,
                namespace,
                name,
                user,
                object,
                stored,
                dryRun,
                options);
    }

    /** This request as another operation (an update that creates is a CREATE). */
    public WebhookRequest withOperation(String other) {
        return new WebhookRequest(
                other,
                kind,
                resource,
                subresource,
                namespace,
                name,
                user,
                object,
                oldObject,
                dryRun,
                options);
    }
}
