package io.kubepekko.api.admission.webhook;

import java.util.List;

/**
 * Evaluates a webhook's {@code matchConditions} for one request, as kube's matcher does: the
 * webhook is skipped when any condition is false; when none is false but one could not be
 * evaluated, that error is a failure to call the webhook (its failure policy decides).
 */
@FunctionalInterface
public interface MatchConditions {

    /** Calls every webhook: conditions are not evaluated. */
    MatchConditions ALWAYS = (hook, request) -> Result.MATCH;

    /** Evaluates each webhook's conditions as compiled when the index took its configuration. */
    MatchConditions COMPILED = (hook, request) -> hook.conditions().evaluate(request);

    /** What the conditions came to. */
    sealed interface Result {
        /** Every condition holds (or there are none). */
        Result MATCH = new Match();

        /** Every condition holds. */
        record Match() implements Result {}

        /** The condition {@code name} is false. */
        record NoMatch(String name) implements Result {}

        /** No condition is false, but one failed: kube's words for it. */
        record Failed(String reason) implements Result {}
    }

    Result evaluate(Webhook hook, WebhookRequest request);

    /** One webhook's conditions, compiled once: their outcome for a request. */
    @FunctionalInterface
    interface Compiled {
        /** Conditions that always hold. */
        Compiled NONE = request -> Result.MATCH;

        Result evaluate(WebhookRequest request);
    }

    /** Compiles a webhook's conditions when the index takes its configuration. */
    @FunctionalInterface
    interface Compiler {
        /** Compiles nothing: every webhook is called. */
        Compiler NONE = conditions -> Compiled.NONE;

        Compiled compile(List<Webhook.MatchCondition> conditions);
    }
}
