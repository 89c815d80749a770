package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.webhook.AdmissionReviews;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.patch.JsonPatch;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.http.webhook.WebhookCall.Slot;
import io.kubepekko.http.webhook.WebhookCall.Step;
import java.util.List;

/**
 * What one webhook's outcome makes of the write, as kube's dispatchers read it: a refusal, the
 * object with its JSON patch applied (back in the request's version), or, when the call failed or
 * the answer is unusable, what the webhook's failure policy says. Rejections are told to the
 * observer; audit annotations and warnings go to the write's {@link CallOutputs}.
 */
final class WebhookAnswers {

    private final VersionedRequests versioned;
    private final CallOutputs outputs;
    private final AdmissionObserver observer;

    WebhookAnswers(VersionedRequests versioned, CallOutputs outputs, AdmissionObserver observer) {
        this.versioned = versioned;
        this.outputs = outputs;
        this.observer = observer;
    }

    /**
     * {@code hook}'s {@code outcome} for {@code request}, sent as {@code sent} in {@code version}
     * with review {@code uid}.
     */
    Step answer(
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
        return patched(hook, request, sent, version, slot, operations, v.warnings());
    }

    /** A mutating webhook's non-empty JSON patch applied to the object it was sent. */
    private Step patched(
            Webhook hook,
            WebhookRequest request,
            WebhookRequest sent,
            WebhookRules.Version version,
            Slot slot,
            ArrayNode operations,
            List<String> warnings) {
        if (sent.object() == null) {
            rejected(hook, request, AdmissionObserver.WebhookRejection.APISERVER_INTERNAL_ERROR, 0);
            return new Step(
                    null,
                    ApiStatus.internal(
                            "admission webhook \""
                                    + hook.name()
                                    + "\" attempted to modify the object, which is not supported"
                                    + " for this operation"),
                    warnings,
                    true);
        }
        ObjectNode patched;
        try {
            patched = (ObjectNode) JsonPatch.apply(sent.object(), operations);
        } catch (ApiException | ClassCastException e) {
            String why = e instanceof ApiException a ? a.status().message() : "not an object";
            rejected(hook, request, AdmissionObserver.WebhookRejection.APISERVER_INTERNAL_ERROR, 0);
            return new Step(null, ApiStatus.internal(why), warnings, true);
        }
        outputs.annotate(
                WebhookAuditAnnotations.patch(slot.round(), slot.index(), hook, operations));
        ObjectNode back = versioned.backToRequest(patched, version, request);
        return new Step(
                back.equals(request.object()) ? request.object() : back, null, warnings, true);
    }

    /**
     * A call that failed or answered unusably: the object unchanged when the webhook's failure
     * policy is Ignore (kube's fail-open annotation recorded), else kube's refusal.
     */
    Step failure(Webhook hook, WebhookRequest request, Slot slot, String reason) {
        if (hook.ignoresFailures()) {
            outputs.annotate(WebhookAuditAnnotations.failedOpen(slot.round(), slot.index(), hook));
            return new Step(request.object(), null, List.of(), true);
        }
        rejected(hook, request, AdmissionObserver.WebhookRejection.CALLING_WEBHOOK_ERROR, 0);
        return new Step(null, AdmissionReviews.failedCalling(hook.name(), reason), List.of(), true);
    }

    /** Tells the observer {@code hook} rejected the request, and why. */
    void rejected(
            Webhook hook,
            WebhookRequest request,
            AdmissionObserver.WebhookRejection why,
            int code) {
        observer.webhookRejected(hook.name(), hook.mutating(), request.operation(), why, code);
    }
}
