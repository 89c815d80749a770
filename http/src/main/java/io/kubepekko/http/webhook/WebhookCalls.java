package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.webhook.AdmissionReviews;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.patch.JsonPatch;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The webhook phases of one write: the mutating webhooks one after another on the object, each
 * patch applied before the next is called (and the {@code IfNeeded} ones called once more when a
 * later one changed the object), then the validating webhooks all at once on the result, the first
 * refusal in call order answering, as kube's dispatchers do.
 */
final class WebhookCalls {

    /**
     * What the webhooks made of the write: the object it leaves, or the refusal answering it; their
     * warnings and the audit annotations kube's dispatchers add.
     */
    record Admitted(
            ObjectNode object,
            ApiStatus refusal,
            List<String> warnings,
            List<WebhookAuditAnnotations.Annotation> annotations) {
        Admitted(ObjectNode object, ApiStatus refusal, List<String> warnings) {
            this(object, refusal, warnings, List.of());
        }
    }

    /** Where a call stands for its audit annotations: the round and the webhook's index. */
    private record Slot(int round, int index) {}

    /** A webhook that applies to the request: the request as sent to it, in its version. */
    private record Prepared(
            WebhookRequest sent, WebhookRules.Version version, MatchConditions.Result matched) {}

    /** One webhook's part: the object after it, a refusal, its warnings. */
    private record Step(
            ObjectNode object, ApiStatus refusal, List<String> warnings, boolean called) {}

    private final WebhookCaller caller;
    private final Supplier<String> uids;
    private final VersionedRequests versioned;
    private final Map<String, String> namespaceLabels;
    private final MatchConditions conditions;
    private final WebhookEndpoints endpoints;
    private final AdmissionObserver observer;
    private final CallOutputs outputs = new CallOutputs();

    /** Every mutating webhook configured, in call order: kube's indexes in audit annotations. */
    private final List<Webhook> configuredMutating;

    WebhookCalls(
            WebhookCaller caller,
            Supplier<String> uids,
            Map<String, ServedKind> kinds,
            Map<String, String> namespaceLabels,
            MatchConditions conditions,
            WebhookEndpoints endpoints,
            AdmissionObserver observer,
            List<Webhook> configuredMutating) {
        this.caller = caller;
        this.uids = uids;
        this.versioned = new VersionedRequests(kinds);
        this.namespaceLabels = namespaceLabels;
        this.conditions = conditions;
        this.endpoints = endpoints;
        this.observer = observer;
        this.configuredMutating = configuredMutating;
    }

    CompletionStage<Admitted> admit(
            WebhookRequest request,
            List<Webhook> mutating,
            List<Webhook> validating,
            List<WebhookRules.Version> versions) {
        Map<String, ObjectNode> reinvocable = new LinkedHashMap<>();
        return mutate(request, mutating, 0, 0, versions, reinvocable)
                .thenCompose(
                        first -> {
                            if (first.refusal() != null) {
                                return CompletableFuture.completedFuture(first);
                            }
                            List<Webhook> again = new ArrayList<>();
                            for (Webhook h : mutating) {
                                ObjectNode seen = reinvocable.get(h.uid());
                                if (seen != null && !seen.equals(first.object())) {
                                    again.add(h);
                                }
                            }
                            return again.isEmpty()
                                    ? CompletableFuture.completedFuture(first)
                                    : mutate(
                                            request.withObject(first.object()),
                                            again,
                                            0,
                                            1,
                                            versions,
                                            new LinkedHashMap<>());
                        })
                .thenCompose(
                        mutated -> {
                            if (mutated.refusal() != null) {
                                return CompletableFuture.completedFuture(
                                        new Admitted(
                                                null,
                                                mutated.refusal(),
                                                outputs.warnings(),
                                                outputs.annotations()));
                            }
                            return validate(
                                            request.withObject(mutated.object()),
                                            validating,
                                            versions)
                                    .thenApply(
                                            refusal ->
                                                    new Admitted(
                                                            mutated.object(),
                                                            refusal,
                                                            outputs.warnings(),
                                                            outputs.annotations()));
                        });
    }

    private CompletionStage<Admitted> mutate(
            WebhookRequest request,
            List<Webhook> hooks,
            int i,
            int round,
            List<WebhookRules.Version> versions,
            Map<String, ObjectNode> reinvocable) {
        if (i == hooks.size()) {
            return CompletableFuture.completedFuture(
                    new Admitted(request.object(), null, List.of()));
        }
        Webhook hook = hooks.get(i);
        Optional<Prepared> prepared = prepare(hook, request, versions);
        CompletionStage<Step> called =
                prepared.isEmpty()
                        ? skipped(request)
                        : timed(
                                hook,
                                request,
                                prepared.get(),
                                new Slot(round, configuredMutating.indexOf(hook)));
        return called.thenCompose(
                step -> {
                    outputs.warn(step.warnings());
                    if (step.refusal() != null) {
                        return CompletableFuture.completedFuture(
                                new Admitted(null, step.refusal(), List.of()));
                    }
                    if (step.object() != request.object() && hook.reinvokedIfNeeded()) {
                        reinvocable.put(hook.uid(), step.object());
                    } else if (hook.reinvokedIfNeeded() && step.called()) {
                        reinvocable.put(hook.uid(), request.object());
                    }
                    WebhookRequest next =
                            step.object() == request.object()
                                    ? request
                                    : request.withObject(step.object());
                    return mutate(next, hooks, i + 1, round, versions, reinvocable);
                });
    }

    private CompletionStage<ApiStatus> validate(
            WebhookRequest request, List<Webhook> hooks, List<WebhookRules.Version> versions) {
        // kube's dispatcher decides which validating webhooks apply, one after the other, before
        // calling any: a match condition that fails under Fail refuses the write there, and none
        // is called.
        List<Map.Entry<Webhook, Prepared>> applying = new ArrayList<>();
        for (Webhook h : hooks) {
            Optional<Prepared> prepared = prepare(h, request, versions);
            if (prepared.isEmpty()) {
                continue;
            }
            if (prepared.get().matched() instanceof MatchConditions.Result.Failed f
                    && !h.ignoresFailures()) {
                return CompletableFuture.completedFuture(conditionsFailed(request, f));
            }
            applying.add(Map.entry(h, prepared.get()));
        }
        List<CompletableFuture<Step>> calls = new ArrayList<>();
        // kube numbers the validating webhooks the request is sent to (its "relevant hooks").
        int relevant = 0;
        for (Map.Entry<Webhook, Prepared> e : applying) {
            boolean counted = !(e.getValue().matched() instanceof MatchConditions.Result.Failed);
            Slot slot = new Slot(0, counted ? relevant++ : -1);
            calls.add(timed(e.getKey(), request, e.getValue(), slot).toCompletableFuture());
        }
        return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]))
                .thenApply(
                        done -> {
                            ApiStatus first = null;
                            for (CompletableFuture<Step> c : calls) {
                                Step s = c.join();
                                outputs.warn(s.warnings());
                                if (first == null && s.refusal() != null) {
                                    first = s.refusal();
                                }
                            }
                            return first;
                        });
    }

    /**
     * Whether {@code hook} applies to the request (its rules, selectors and match conditions): the
     * request as it would be sent to it, or empty when it is skipped.
     */
    private Optional<Prepared> prepare(
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
        return Optional.of(new Prepared(sent, version.get(), matched));
    }

    /**
     * Calls a webhook that applies to the request, its time and rejection told to the observer: the
     * object after it (the request's own when it changed nothing) or the refusal its answer,
     * failure or policy makes.
     */
    private CompletionStage<Step> timed(
            Webhook hook, WebhookRequest request, Prepared prepared, Slot slot) {
        long start = System.nanoTime();
        return attempt(hook, request, prepared.sent(), prepared.version(), prepared.matched(), slot)
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
            Webhook hook,
            WebhookRequest request,
            WebhookRequest sent,
            WebhookRules.Version version,
            MatchConditions.Result matched,
            Slot slot) {
        if (matched instanceof MatchConditions.Result.Failed f) {
            // kube's matcher: Ignore skips the webhook; Fail refuses the write as forbidden.
            return hook.ignoresFailures()
                    ? skipped(request)
                    : refused(conditionsFailed(request, f));
        }
        CompletionStage<Step> step = send(hook, request, sent, version, slot);
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

    /** kube's refusal when a webhook's match conditions fail under Fail: 403 with their errors. */
    private static ApiStatus conditionsFailed(
            WebhookRequest request, MatchConditions.Result.Failed f) {
        return ApiStatus.forbidden(
                new GroupResource(request.resource().group(), request.resource().resource()),
                request.name(),
                f.reason());
    }

    private CompletionStage<Step> send(
            Webhook hook,
            WebhookRequest request,
            WebhookRequest sent,
            WebhookRules.Version version,
            Slot slot) {
        if (request.dryRun() && !hook.safeOnDryRun()) {
            rejected(hook, request, AdmissionObserver.WebhookRejection.APISERVER_INTERNAL_ERROR, 0);
            return refused(AdmissionReviews.dryRunUnsupported(hook.name()));
        }
        if (!hook.admissionReviewVersions().contains("v1")) {
            return failed(
                    hook,
                    request,
                    slot,
                    "could not create admission objects: webhook does not accept known "
                            + "AdmissionReview versions (v1, v1beta1)");
        }
        String uid = uids.get();
        byte[] review = Json.bytes(AdmissionReviews.request(uid, sent, version));
        return endpoints
                .target(hook)
                .thenCompose(
                        target ->
                                caller.call(target, hook.caBundle(), hook.timeoutSeconds(), review))
                .thenApply(outcome -> answer(hook, request, sent, version, uid, slot, outcome));
    }

    private Step answer(
            Webhook hook,
            WebhookRequest request,
            WebhookRequest sent,
            WebhookRules.Version version,
            String uid,
            Slot slot,
            WebhookCaller.Outcome outcome) {
        if (outcome instanceof WebhookCaller.Failed f) {
            return failure(hook, request, slot, "failed to call webhook: " + f.reason());
        }
        byte[] body = ((WebhookCaller.Answered) outcome).body();
        AdmissionReviews.Answer answer = AdmissionReviews.response(body, uid, hook.mutating());
        if (answer instanceof AdmissionReviews.Malformed m) {
            return failure(
                    hook,
                    request,
                    slot,
                    m.reason() == null
                            ? "failed to call webhook: couldn't get version/kind; json parse error: "
                                    + "invalid character in the webhook's answer"
                            : "received invalid webhook response: " + m.reason());
        }
        AdmissionReviews.Verdict v = (AdmissionReviews.Verdict) answer;
        WebhookAuditAnnotations.own(hook, v.auditAnnotations()).forEach(outputs::annotate);
        if (!v.allowed()) {
            ApiStatus denied = AdmissionReviews.denied(hook.name(), v.status());
            rejected(hook, request, AdmissionObserver.WebhookRejection.NO_ERROR, denied.code());
            return new Step(null, denied, v.warnings(), true);
        }
        if (v.patch() == null || v.patch().length == 0) {
            return new Step(request.object(), null, v.warnings(), true);
        }
        if (!"JSONPatch".equals(v.patchType())) {
            Step s =
                    failure(
                            hook,
                            request,
                            slot,
                            "unsupported patch type \"" + v.patchType() + "\"");
            return new Step(s.object(), s.refusal(), v.warnings(), true);
        }
        ArrayNode operations;
        try {
            operations = JsonPatch.parse(v.patch());
        } catch (ApiException e) {
            Step s =
                    failure(
                            hook,
                            request,
                            slot,
                            "received undecodable patch in webhook response: "
                                    + e.status().message());
            return new Step(s.object(), s.refusal(), v.warnings(), true);
        }
        if (operations.isEmpty()) {
            return new Step(request.object(), null, v.warnings(), true);
        }
        if (sent.object() == null) {
            rejected(hook, request, AdmissionObserver.WebhookRejection.APISERVER_INTERNAL_ERROR, 0);
            return new Step(
                    null,
                    ApiStatus.internal(
                            "admission webhook \""
                                    + hook.name()
                                    + "\" attempted to modify the object, which is not supported"
                                    + " for this operation"),
                    v.warnings(),
                    true);
        }
        ObjectNode patched;
        try {
            patched = (ObjectNode) JsonPatch.apply(sent.object(), operations);
        } catch (ApiException | ClassCastException e) {
            String why = e instanceof ApiException a ? a.status().message() : "not an object";
            rejected(hook, request, AdmissionObserver.WebhookRejection.APISERVER_INTERNAL_ERROR, 0);
            return new Step(null, ApiStatus.internal(why), v.warnings(), true);
        }
        outputs.annotate(
                WebhookAuditAnnotations.patch(slot.round(), slot.index(), hook, operations));
        ObjectNode back = versioned.backToRequest(patched, version, request);
        return new Step(
                back.equals(request.object()) ? request.object() : back, null, v.warnings(), true);
    }

    private Step failure(Webhook hook, WebhookRequest request, Slot slot, String reason) {
        if (hook.ignoresFailures()) {
            outputs.annotate(WebhookAuditAnnotations.failedOpen(slot.round(), slot.index(), hook));
            return new Step(request.object(), null, List.of(), true);
        }
        rejected(hook, request, AdmissionObserver.WebhookRejection.CALLING_WEBHOOK_ERROR, 0);
        return new Step(null, AdmissionReviews.failedCalling(hook.name(), reason), List.of(), true);
    }

    private void rejected(
            Webhook hook,
            WebhookRequest request,
            AdmissionObserver.WebhookRejection why,
            int code) {
        observer.webhookRejected(hook.name(), hook.mutating(), request.operation(), why, code);
    }

    private CompletionStage<Step> failed(
            Webhook hook, WebhookRequest request, Slot slot, String reason) {
        return CompletableFuture.completedFuture(failure(hook, request, slot, reason));
    }

    private static CompletionStage<Step> skipped(WebhookRequest request) {
        return CompletableFuture.completedFuture(
                new Step(request.object(), null, List.of(), false));
    }

    private static CompletionStage<Step> refused(ApiStatus status) {
        return CompletableFuture.completedFuture(new Step(null, status, List.of(), false));
    }
}
