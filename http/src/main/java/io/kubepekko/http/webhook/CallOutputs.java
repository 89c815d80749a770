package io.kubepekko.http.webhook;

import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import java.util.ArrayList;
import java.util.List;

/**
 * What one write's webhook calls leave besides their verdicts: their warnings and the audit
 * annotations kube's dispatchers add, gathered from calls that may end on other threads (the
 * validating webhooks run side by side).
 */
final class CallOutputs {

    private final List<String> warnings = new ArrayList<>();
    private final List<WebhookAuditAnnotations.Annotation> annotations = new ArrayList<>();

    synchronized void warn(List<String> more) {
        warnings.addAll(more);
    }

    synchronized void annotate(WebhookAuditAnnotations.Annotation annotation) {
        annotations.add(annotation);
    }

    synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    synchronized List<WebhookAuditAnnotations.Annotation> annotations() {
        return List.copyOf(annotations);
    }
}
