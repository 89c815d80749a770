package io.kubepekko.api.admission.quota;

import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;

/**
 * kube's ResourceQuota admission plugin: a write of a tracked resource in a namespace with quotas
 * is checked against each quota that matches it ({@link QuotaCheck}) and, when admitted and not a
 * dry run, charged to the server's {@link QuotaLedger}; a refusal is kube's 403 Forbidden naming
 * the object, with the plugin's message.
 */
public final class ResourceQuotaAdmission implements WriteAdmission {

    private final QuotaLedger ledger;

    public ResourceQuotaAdmission(QuotaLedger ledger) {
        this.ledger = ledger;
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest request) {
        if (request.namespace().isEmpty()
                || request.operation() == Operation.DELETE
                || request.object() == null) {
            return Optional.empty();
        }
        Optional<QuotaEvaluator> evaluator = QuotaEvaluators.of(request.resource());
        if (evaluator.isEmpty()
                || !evaluator.get().handles(request.operation(), request.subresource())) {
            return Optional.empty();
        }
        QuotaCheck.Result result =
                ledger.admit(
                        evaluator.get(),
                        request.operation(),
                        request.namespace(),
                        request.object(),
                        request.oldObject(),
                        request.dryRun());
        return result instanceof QuotaCheck.Refused refused
                ? Optional.of(request.forbidden(refused.why()))
                : Optional.empty();
    }
}
