package io.kubepekko.http.audit;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.Verb;
import io.kubepekko.api.audit.AuditBody;
import io.kubepekko.api.audit.AuditEvent;
import io.kubepekko.api.audit.AuditLevel;
import io.kubepekko.api.audit.AuditResponseStatus;
import io.kubepekko.api.audit.RequestAudit;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit of one request, from {@link Auditor#begin}: the request path tells it what happens and
 * it records the events the policy asks for. Calls come in the request's order; they may come from
 * different threads (a stream completes elsewhere), one at a time.
 *
 * <p>Nothing here waits. What records an event answers when the sink has stored it as the mode asks
 * (see {@link AuditLog}): the request path chains its next step to that answer, so in the blocking
 * modes a request goes on only once its event is written, as in kube, with no thread held.
 */
public final class AuditHandle {
    private static final Logger log = LoggerFactory.getLogger(AuditHandle.class);
    private static final CompletionStage<Boolean> DONE = CompletableFuture.completedFuture(true);

    /** Null for a request not audited (level None) or whose audit ended before it began. */
    private final RequestAudit audit;

    private final String auditID;
    private final AuditSink sink;
    private final boolean longRunning;
    private final CompletionStage<Boolean> ready;

    AuditHandle(
            RequestAudit audit,
            String auditID,
            AuditSink sink,
            AuditMode mode,
            boolean longRunning) {
        this.audit = audit;
        this.auditID = auditID;
        this.sink = sink;
        this.longRunning = longRunning;
        CompletionStage<Boolean> received = send(audit.received());
        this.ready =
                mode == AuditMode.BLOCKING_STRICT ? received : received.thenApply(stored -> true);
    }

    private AuditHandle(String auditID, CompletionStage<Boolean> ready) {
        this.audit = null;
        this.auditID = auditID;
        this.sink = AuditSink.NONE;
        this.longRunning = false;
        this.ready = ready;
    }

    /**
     * The handle of a request whose only event was recorded already ({@code recorded} answers it):
     * it records nothing more.
     */
    static AuditHandle over(String auditID, CompletionStage<Boolean> recorded) {
        return new AuditHandle(auditID, recorded.thenApply(stored -> true));
    }

    /** The handle of a request the policy does not audit (level None): it records nothing. */
    static AuditHandle unaudited(String auditID) {
        return new AuditHandle(auditID, DONE);
    }

    /** The request's audit id: kube returns it in the {@code Audit-Id} response header. */
    public String auditID() {
        return auditID;
    }

    /**
     * Completes when the request may be handled: once its {@code RequestReceived} event is stored
     * as the mode asks. False when {@code --audit-log-mode=blocking-strict} could not store it: the
     * request must then fail with 500 ("failed to store audit event") without more events, as in
     * kube.
     */
    public CompletionStage<Boolean> ready() {
        return ready;
    }

    /**
     * The authorizer's decision (annotated as {@code authorization.k8s.io/decision} and reason).
     */
    public synchronized void authorized(Decision decision) {
        if (audit != null) {
            audit.authorized(decision);
        }
    }

    /** The user the request acts as (impersonation). */
    public synchronized void impersonating(UserInfo user) {
        if (audit != null) {
            audit.impersonating(user);
        }
    }

    /**
     * Another audit annotation (a key keeps its first value: see {@link #annotate(String, String,
     * AuditLevel)}).
     */
    public synchronized void annotate(String key, String value) {
        annotate(key, value, AuditLevel.METADATA);
    }

    /**
     * An audit annotation recorded only at level {@code least} and above. A key keeps its first
     * value; another one is dropped with kube's warning in the log.
     */
    public synchronized void annotate(String key, String value, AuditLevel least) {
        if (audit != null) {
            audit.annotate(key, value, least)
                    .ifPresent(
                            kept ->
                                    log.warn(
                                            "Failed to set annotations[\"{}\"] to \"{}\" for"
                                                    + " audit:\"{}\", it has already been set to"
                                                    + " \"{}\"",
                                            key,
                                            value,
                                            auditID,
                                            kept));
        }
    }

    /** A decoded request body, recorded as {@link RequestAudit#requestObject(JsonNode)} does. */
    public synchronized void requestObject(JsonNode body) {
        if (audit != null) {
            audit.requestObject(body);
        }
    }

    /**
     * The body of a resource request, as sent, recorded as kube's handlers record theirs: a
     * create's or update's object (whose metadata names the object of a create), a patch itself, a
     * delete's DeleteOptions; nothing for other verbs, an empty body, or a body in an encoding the
     * server does not read. Below level Request only a create's or update's metadata is read.
     *
     * @param contentType the request's Content-Type, or null without one
     */
    public synchronized void requestBody(Verb verb, String contentType, ByteString body) {
        requestBody(verb, contentType, body, UnaryOperator.identity());
    }

    /**
     * {@link #requestBody(Verb, String, ByteString)}, a create's or update's object recorded as
     * {@code decoding} turns the body sent into the object kube's codec decodes (its defaults for
     * the request's version: {@link io.kubepekko.api.audit.DecodedRequestObject}), when the event
     * is written.
     */
    public synchronized void requestBody(
            Verb verb, String contentType, ByteString body, UnaryOperator<JsonNode> decoding) {
        if (audit == null
                || !audit.resourceRequest()
                || !audit.config().audited()
                || body.isEmpty()) {
            return;
        }
        boolean recordsBody = audit.config().level().atLeast(AuditLevel.REQUEST);
        String mediaType = AuditBodies.mediaType(contentType);
        switch (verb) {
            case PATCH -> {
                if (recordsBody) {
                    audit.requestPatch(AuditBodies.patch(mediaType, body));
                }
            }
            case CREATE, UPDATE -> objectBody(mediaType, body, decoding);
            case DELETE, DELETECOLLECTION -> objectBody(mediaType, body, UnaryOperator.identity());
            default -> {}
        }
    }

    private void objectBody(String mediaType, ByteString body, UnaryOperator<JsonNode> decoding) {
        if (mediaType.equals(AuditBodies.PROTOBUF)) {
            // The metadata needs the whole message decoded: keep that tree, recorded as JSON.
            AuditBodies.decode(mediaType, body)
                    .filter(JsonNode::isObject)
                    .ifPresent(
                            tree ->
                                    audit.requestObject(
                                            tree.path("metadata"),
                                            AuditBody.of(tree).map(decoding)));
            return;
        }
        AuditBodies.field(mediaType, body, "metadata")
                .ifPresent(
                        metadata ->
                                audit.requestObject(
                                        metadata, AuditBodies.lazy(mediaType, body).map(decoding)));
    }

    /**
     * Whether the response's body is recorded (level RequestResponse, a resource request): when it
     * is not, only a {@code Status} body is read, for its fields.
     */
    public boolean recordsResponseBody() {
        return audit != null
                && audit.resourceRequest()
                && audit.config().level().atLeast(AuditLevel.REQUEST_RESPONSE);
    }

    /**
     * Whether a streamed response's body is recorded: a list sent in pieces is, at level
     * RequestResponse; a long-running request's stream (a watch) never is, as in kube.
     */
    public boolean recordsStreamedBody() {
        return recordsResponseBody() && !longRunning;
    }

    /**
     * The response's status line went out: records {@code ResponseStarted} for a long-running
     * request. Answers when that event is stored as the mode asks.
     */
    public synchronized CompletionStage<Boolean> responseStarted(int code) {
        return audit == null ? DONE : send(audit.responseStarted(code));
    }

    /**
     * The response is complete, with a decoded body ({@code null} for none): records as {@link
     * RequestAudit#responseComplete(int, JsonNode)}. Answers when the events are stored.
     */
    public synchronized CompletionStage<Boolean> responseComplete(int code, JsonNode body) {
        return audit == null ? DONE : sendAll(audit.responseComplete(code, body));
    }

    /**
     * The response is complete, with the body the client got as sent ({@code null} or empty for
     * none or a stream not kept): a {@code Status} body lends its fields to the outcome, and at
     * level RequestResponse the body is recorded, decoded when the event is written. Answers when
     * the events are stored.
     *
     * @param contentType the response's Content-Type
     */
    public synchronized CompletionStage<Boolean> responseComplete(
            int code, String contentType, ByteString body) {
        if (audit == null) {
            return DONE;
        }
        AuditResponseStatus status = AuditResponseStatus.ofCode(code);
        AuditBody recorded = null;
        if (body != null && !body.isEmpty() && audit.config().audited()) {
            String mediaType = AuditBodies.mediaType(contentType);
            if (AuditBodies.kind(mediaType, body).equals("Status")) {
                Optional<JsonNode> tree = AuditBodies.decode(mediaType, body);
                status = AuditResponseStatus.of(code, tree.orElse(null));
                recorded = tree.map(AuditBody::of).orElse(null);
            } else {
                recorded = AuditBodies.lazy(mediaType, body);
            }
        }
        return sendAll(audit.responseComplete(status, recordsResponseBody() ? recorded : null));
    }

    /** Handling failed with an unexpected error: records {@code Panic}. */
    public synchronized CompletionStage<Boolean> panic(Throwable failure) {
        return audit == null ? DONE : send(audit.panic(String.valueOf(failure)));
    }

    private CompletionStage<Boolean> send(Optional<AuditEvent> event) {
        return event.map(sink::record).orElse(DONE);
    }

    private CompletionStage<Boolean> sendAll(List<AuditEvent> events) {
        CompletionStage<Boolean> all = DONE;
        for (AuditEvent event : events) {
            all = all.thenCombine(sink.record(event), (a, b) -> a && b);
        }
        return all;
    }
}
