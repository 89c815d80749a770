package io.kubepekko.http.audit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.audit.AuditEvent;
import io.kubepekko.api.audit.RequestAudit;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.Optional;

/**
 * The audit of one request, from {@link Auditor#begin}: the request path tells it what happens and
 * it records the events the policy asks for. Calls come in the request's order; they may come from
 * different threads (a stream completes elsewhere), one at a time.
 */
public final class AuditHandle {
    private final RequestAudit audit;
    private final String auditID;
    private final AuditSink sink;
    private final boolean stored;

    AuditHandle(RequestAudit audit, String auditID, AuditSink sink, AuditMode mode) {
        this.audit = audit;
        this.auditID = auditID;
        this.sink = sink;
        boolean taken = send(audit.received());
        this.stored = taken || mode != AuditMode.BLOCKING_STRICT;
    }

    /** The request's audit id: kube returns it in the {@code Audit-Id} response header. */
    public String auditID() {
        return auditID;
    }

    /**
     * False when {@code --audit-log-mode=blocking-strict} could not store the {@code
     * RequestReceived} event: the request must then fail with 500 ("failed to store audit event"),
     * as in kube.
     */
    public boolean stored() {
        return stored;
    }

    /**
     * The authorizer's decision (annotated as {@code authorization.k8s.io/decision} and reason).
     */
    public synchronized void authorized(Decision decision) {
        audit.authorized(decision);
    }

    /** The user the request acts as (impersonation). */
    public synchronized void impersonating(UserInfo user) {
        audit.impersonating(user);
    }

    /** Another audit annotation. */
    public synchronized void annotate(String key, String value) {
        audit.annotate(key, value);
    }

    /** The decoded request body. */
    public synchronized void requestObject(JsonNode body) {
        audit.requestObject(body);
    }

    /** The response's status line went out (records {@code ResponseStarted} for long-running). */
    public synchronized void responseStarted(int code) {
        send(audit.responseStarted(code));
    }

    /** The response is complete; {@code body} is what the client got, or null for none/stream. */
    public synchronized void responseComplete(int code, JsonNode body) {
        audit.responseComplete(code, body).forEach(sink::record);
    }

    /** Handling failed with an unexpected error: records {@code Panic}. */
    public synchronized void panic(Throwable failure) {
        send(audit.panic(String.valueOf(failure)));
    }

    private boolean send(Optional<AuditEvent> event) {
        return event.map(sink::record).orElse(true);
    }
}
