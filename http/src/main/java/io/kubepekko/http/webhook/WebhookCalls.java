package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.http.webhook.WebhookCall.Applying;
import io.kubepekko.http.webhook.WebhookCall.Slot;
import io.kubepekko.http.webhook.WebhookCall.Step;
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
 * refusal in call order answering, as kube's dispatchers do. Each webhook's call is {@link
 * WebhookCall}'s.
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

    private final CallOutputs outputs = new CallOutputs();
    private final WebhookCall call;

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
        this.call =
                new WebhookCall(
                        caller,
                        uids,
                        new VersionedRequests(kinds),
                        namespaceLabels,
                        conditions,
                        endpoints,
                        observer,
                        outputs);
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
        Optional<Applying> applying = call.applies(hook, request, versions);
        CompletionStage<Step> called =
                applying.isEmpty()
                        ? WebhookCall.skipped(request)
                        : call.timed(
                                hook,
                                request,
                                applying.get(),
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
        List<Map.Entry<Webhook, Applying>> applying = new ArrayList<>();
        for (Webhook h : hooks) {
            Optional<Applying> applies = call.applies(h, request, versions);
            if (applies.isEmpty()) {
                continue;
            }
            if (applies.get().matched() instanceof MatchConditions.Result.Failed f
                    && !h.ignoresFailures()) {
                return CompletableFuture.completedFuture(WebhookCall.conditionsFailed(request, f));
            }
            applying.add(Map.entry(h, applies.get()));
        }
        List<CompletableFuture<Step>> calls = new ArrayList<>();
        // kube numbers the validating webhooks the request is sent to (its "relevant hooks").
        int relevant = 0;
        for (Map.Entry<Webhook, Applying> e : applying) {
            boolean counted = !(e.getValue().matched() instanceof MatchConditions.Result.Failed);
            Slot slot = new Slot(0, counted ? relevant++ : -1);
            calls.add(call.timed(e.getKey(), request, e.getValue(), slot).toCompletableFuture());
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
}
