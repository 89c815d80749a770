package io.kubepekko.http.webhook;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookIndex;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.registry.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * What every write that asks the webhooks shares: the configured webhooks, what calls them, and a
 * kind's served versions (a webhook's rules may match the request in another of them). The writes
 * build their requests; this runs the webhooks' phases on one.
 */
final class WebhookDispatch {

    private final ControlPlane controlPlane;
    private final WebhookIndex index;
    private final WebhookCaller caller;
    private final Supplier<String> uids;
    private final MatchConditions conditions;
    private final AdmissionObserver observer;
    private final WebhookEndpoints endpoints;
    private final NamespaceLabels namespaceLabels;

    WebhookDispatch(
            ControlPlane controlPlane,
            WebhookIndex index,
            WebhookCaller caller,
            Supplier<String> uids,
            MatchConditions conditions,
            AdmissionObserver observer) {
        this.controlPlane = controlPlane;
        this.index = index;
        this.caller = caller;
        this.uids = uids;
        this.conditions = conditions;
        this.observer = observer;
        this.endpoints = new WebhookEndpoints(controlPlane);
        this.namespaceLabels = new NamespaceLabels(controlPlane);
    }

    ControlPlane controlPlane() {
        return controlPlane;
    }

    WebhookIndex index() {
        return index;
    }

    /**
     * The webhooks' phases on {@code request} ({@code mutating} and {@code validating} the
     * candidates its rules match, {@code kinds} its kind's versions): the namespace's labels are
     * read first when a selector asks for them.
     */
    CompletionStage<WebhookCalls.Admitted> admit(
            WebhookRequest request,
            List<Webhook> mutating,
            List<Webhook> validating,
            List<WebhookRules.Version> versions,
            Map<String, ServedKind> kinds) {
        return namespaceLabels
                .of(mutating, validating, request)
                .thenCompose(
                        labels ->
                                new WebhookCalls(
                                                caller,
                                                uids,
                                                kinds,
                                                labels,
                                                conditions,
                                                endpoints,
                                                observer,
                                                index.mutating())
                                        .admit(request, mutating, validating, versions));
    }

    /** The versions {@code kind} is served in, as a webhook's rules name them. */
    List<WebhookRules.Version> versions(ServedKind kind) {
        List<WebhookRules.Version> out = new ArrayList<>();
        for (ServedKind v : kindsByVersion(kind).values()) {
            ResourceType t = v.type();
            out.add(
                    new WebhookRules.Version(
                            new WebhookRequest.Gvr(t.group(), t.version(), t.resource()),
                            new WebhookRequest.Gvk(t.group(), t.version(), t.kind())));
        }
        return out;
    }

    /** {@code kind}'s served versions by apiVersion: {@code kind} alone when none is registered. */
    Map<String, ServedKind> kindsByVersion(ServedKind kind) {
        Map<String, ServedKind> all =
                controlPlane.registry().servedVersions(kind.storageType().groupResource());
        return all.isEmpty() ? Map.of(kind.apiVersion(), kind) : all;
    }
}
