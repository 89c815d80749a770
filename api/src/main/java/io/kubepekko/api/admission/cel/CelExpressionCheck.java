package io.kubepekko.api.admission.cel;

import io.kubepekko.api.kinds.WebhookConfigurationStrategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.List;

/**
 * kube's {@code validateMatchConditionsExpression}: a match condition's expression must compile in
 * the admission environment and be bool, else an {@code Invalid} error on its field with the
 * compiler's words.
 */
public final class CelExpressionCheck implements WebhookConfigurationStrategy.ExpressionCheck {

    public static final CelExpressionCheck INSTANCE = new CelExpressionCheck();

    private CelExpressionCheck() {}

    @Override
    public List<FieldError> check(String expression, FieldPath path) {
        if (AdmissionCel.get().compile(expression) instanceof AdmissionCel.Invalid invalid) {
            return List.of(FieldError.invalid(path.toString(), expression, invalid.detail()));
        }
        return List.of();
    }
}
