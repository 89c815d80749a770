package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.webhook.AdmissionReviews;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One webhook's part in a write: whether it applies to the request (its rules, selectors and match
 * conditions), and the call of one that does, in the version its rules matched, timed for the
 * observer. Its answer is read by {@link WebhookAnswers}.
 */
final class WebhookCall {

    /** Where a call stands for its audit annotations: the round and the webhook's index. */
    record Slot(int round, int index) {}

    /** A webhook that applies to the request: the request as sent to it, in its version. */
    record Applying(
            WebhookRequest sent, WebhookRules.Version version, MatchConditions.Result matched) {}

    /** One webhook's part: the object after it, a refusal, its warnings, whether it was called. */
    record Step(ObjectNode object, ApiStatus refusal, List<String> warnings, boolean called) {}

    private final WebhookCaller caller;
    private final Supplier<String> uids;
    private final VersionedRequests versioned;
    private final Map<String, String> namespaceLabels;
    private final MatchConditions conditions;
    private final WebhookEndpoints endpoints;
    private final AdmissionObserver observer;
    private final CallOutputs outputs;
    private final WebhookAnswers answers;

    WebhookCall(
            WebhookCaller caller,
            Supplier<String> uids,
            VersionedRequests versioned,
            Map<String, String> namespaceLabels,
            MatchConditions conditions,
            WebhookEndpoints endpoints,
            AdmissionObserver observer,
            CallOutputs outputs) {
        this.caller = caller;
        this.uids = uids;
        this.versioned = versioned;
        this.namespaceLabels = namespaceLabels;
        this.conditions = conditions;
        this.endpoints = endpoints;
        this.observer = observer;
        this.outputs = outputs;
        this.answers = new WebhookAnswers(versioned, outputs, observer);
    }

    /**
     * Whether {@code hook} applies to the request (its rules, selectors and match conditions): the
     * request as it would be sent to it, or empty when it is skipped.
     */
    Optional<Applying> applies(
            Webhook hook, WebhookRequest request, List<WebhookRules.Version> versions) {
        Optional<WebhookRules.Version> version =
                WebhookRules.matchingVersion(hook, request, versions);
        if (version.isEmpty()
                || !WebhookRules.objectSelectorMatches(hook, request)
                || !WebhookRules.namespaceSelectorMatches(hook, request, ns -> namespaceLabels)) {
            return Optional.empty();
        }
        WebhookRequest sent = versioned.inVersion(request, version.get());
        MatchConditions.Result matched = conditions.evaluate(hook, sent);
        if (matched instanceof MatchConditions.Result.NoMatch) {
            return Optional.empty();
        }
        return Optional.of(new Applying(sent, version.get(), matched));
    }

    /**
     * Calls a webhook that applies to the request, its time and rejection told to the observer: the
     * object after it (the request's own when it changed nothing) or the refusal its answer,
     * failure or policy makes.
     */
    CompletionStage<Step> timed(
            Webhook hook, WebhookRequest request, Applying applying, Slot slot) {
        long start = System.nanoTime();
        return attempt(hook, request, applying, slot)
                .thenApply(
                        step -> {
                            observer.webhook(
                                    hook.name(),
                                    hook.mutating(),
                                    request.operation(),
                                    step.refusal() != null,
                                    System.nanoTime() - start);
                            return step;
                        });
    }

    /** Calls a webhook that applies to the request, as {@link #timed} says. */
    private CompletionStage<Step> attempt(
            Webhook hook, WebhookRequest request, Applying applying, Slot slot) {
        if (applying.matched() instanceof MatchConditions.Result.Failed f) {
            // kube's matcher: Ignore skips the webhook; Fail refuses the write as forbidden.
            return hook.ignoresFailures()
                    ? skipped(request)
                    : refused(conditionsFailed(request, f));
        }
        CompletionStage<Step> step = send(hook, request, applying.sent(), applying.version(), slot);
        if (!hook.mutating()) {
            return step;
        }
        // kube records every mutating webhook it called, and whether it changed the object.
        return step.thenApply(
                s -> {
                    outputs.annotate(
                            WebhookAuditAnnotations.mutation(
                                    slot.round(),
                                    slot.index(),
                                    hook,
                                    s.refusal() == null && s.object() != request.object()));
                    return s;
                });
    }

    private CompletionStage<Step> send(
            Webhook hook,
            WebhookRequest request,
            WebhookRequest sent,
            WebhookRules.Version version,
            Slot slot) {
        if (request.dryRun() && !hook.safeOnDryRun()) {
            answers.rejected(
                    hook, request, AdmissionObserver.WebhookRejection.APISERVER_INTERNAL_ERROR, 0);
            return refused(AdmissionReviews.dryRunUnsupported(hook.name()));
        }
        if (!hook.admissionReviewVersions().contains("v1")) {
            return CompletableFuture.completedFuture(
                    answers.failure(
                            hook,
                            request,
                            slot,
                            "could not create admission objects: webhook does not accept known "
                                    + "AdmissionReview versions (v1, v1beta1)"));
        }
        String uid = uids.get();
        byte[] review = Json.bytes(AdmissionReviews.request(uid, sent, version));
        return endpoints
                .target(hook)
                .thenCompose(
                        target ->
                                caller.call(target, hook.caBundle(), hook.timeoutSeconds(), review))
                .thenApply(
                        outcome ->
                                answers.answer(hook, request, sent, version, uid, slot, outcome));
    }

    /** kube's refusal when a webhook's match conditions fail under Fail: 403 with their errors. */
    static ApiStatus conditionsFailed(WebhookRequest request, MatchConditions.Result.Failed f) {
        return ApiStatus.forbidden(
                new GroupResource(request.resource().group(), request.resource().resource()),
                request.name(),
                f.reason());
    }

    /** A webhook not called: the request's object goes on unchanged. */
    static CompletionStage<Step> skipped(WebhookRequest request) {
        return CompletableFuture.completedFuture(
                new Step(request.object(), null, List.of(), false));
    }

    private static CompletionStage<Step> refused(ApiStatus status) {
        return CompletableFuture.completedFuture(new Step(null, status, List.of(), false));
    }
}
