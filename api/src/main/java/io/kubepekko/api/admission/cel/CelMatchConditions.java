package io.kubepekko.api.admission.cel;

import dev.cel.common.values.NullValue;
import dev.cel.runtime.CelEvaluationException;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.authorizer.Authorizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Webhooks' {@code matchConditions} in CEL, as kube's {@code matchconditions} matcher evaluates
 * them: each compiled once when the webhook index takes its configuration; per request every
 * condition is evaluated in order, the first false one skips the webhook, and errors with none
 * false come to one failure (kube's aggregate of {@code expression '...' resulted in error: ...}).
 * {@code object} is null on a delete and {@code oldObject} on a create, as in kube.
 */
public final class CelMatchConditions implements MatchConditions.Compiler {

    /** cel-java puts the position first; cel-go's messages, which kube shows, have none. */
    private static final Pattern POSITION = Pattern.compile("^evaluation error( at [^:]*:\\d+)?: ");

    private final Authorizer authorizer;

    /**
     * @param authorizer what the {@code authorizer} variable asks
     */
    public CelMatchConditions(Authorizer authorizer) {
        this.authorizer = authorizer;
    }

    @Override
    public MatchConditions.Compiled compile(List<Webhook.MatchCondition> conditions) {
        // The environment is built on the first configuration with conditions, not at server
        // start: most servers never need it.
        AdmissionCel cel = AdmissionCel.get();
        List<Condition> compiled = new ArrayList<>();
        for (Webhook.MatchCondition c : conditions) {
            compiled.add(new Condition(c.name(), cel.compile(c.expression())));
        }
        return request -> evaluate(List.copyOf(compiled), request);
    }

    private record Condition(String name, AdmissionCel.Compiled compiled) {}

    private MatchConditions.Result evaluate(List<Condition> conditions, WebhookRequest request) {
        Map<String, Object> variables = variables(request);
        List<String> errors = new ArrayList<>();
        for (Condition c : conditions) {
            if (c.compiled() instanceof AdmissionCel.Invalid invalid) {
                errors.add("compilation error: " + invalid.detail());
                continue;
            }
            AdmissionCel.Program program = (AdmissionCel.Program) c.compiled();
            Object result;
            try {
                result = program.eval(variables);
            } catch (CelEvaluationException e) {
                errors.add(resultedIn(program, POSITION.matcher(e.getMessage()).replaceFirst("")));
                continue;
            }
            if (Boolean.FALSE.equals(result)) {
                return new MatchConditions.Result.NoMatch(c.name());
            }
            if (!Boolean.TRUE.equals(result)) {
                // Only namespaceObject is declared but never bound for webhooks (as in kube):
                // using it leaves the result unknown.
                errors.add(resultedIn(program, "no such attribute(s): namespaceObject"));
            }
        }
        if (errors.isEmpty()) {
            return MatchConditions.Result.MATCH;
        }
        // kube's utilerrors.NewAggregate: one error as itself, several in brackets.
        return new MatchConditions.Result.Failed(
                errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }

    private static String resultedIn(AdmissionCel.Program program, String why) {
        return "expression '" + program.expression() + "' resulted in error: " + why;
    }

    private Map<String, Object> variables(WebhookRequest request) {
        Map<String, Object> vars = new HashMap<>();
        vars.put(
                "object",
                request.object() == null ? NullValue.NULL_VALUE : CelValues.of(request.object()));
        vars.put(
                "oldObject",
                request.oldObject() == null
                        ? NullValue.NULL_VALUE
                        : CelValues.of(request.oldObject()));
        vars.put("request", AdmissionRequestValue.of(request));
        CelAuthorizer.Authz authz = CelAuthorizer.authorizer(authorizer, request.user());
        vars.put("authorizer", authz);
        vars.put("authorizer.requestResource", CelAuthorizer.requestResource(authz, request));
        return vars;
    }
}
