package io.kubepekko.http.webhook;

import io.kubepekko.api.admission.webhook.Webhook;
import java.util.Optional;

/** Where a webhook is called: its {@code url}, or the address its Service reference resolves to. */
class WebhookEndpoints {

    /** The URL to post to, or empty when the webhook's Service cannot be resolved. */
    Optional<String> url(Webhook hook) {
        return hook.url();
    }

    /** Why {@link #url} found none, in the words of a failed call. */
    String unresolved(Webhook hook) {
        Webhook.ServiceRef s = hook.service().orElseThrow();
        return "failed to call webhook: service \""
                + s.namespace()
                + "/"
                + s.name()
                + "\" could not be resolved";
    }
}
