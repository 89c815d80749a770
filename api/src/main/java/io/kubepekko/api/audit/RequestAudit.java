package io.kubepekko.api.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.Credentials;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Decision;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The audit of one request as it goes through the server, kube's audit filter as a value: it is
 * told what happens (received, authorized, the request body, the response) and answers the events
 * to record, in order, each only when the policy's level and omitted stages allow it.
 *
 * <p>A normal request records {@code RequestReceived} then {@code ResponseComplete}; a long-running
 * one (watch, follow) records {@code ResponseStarted} when its response begins, then {@code
 * ResponseComplete} when it ends; a failure inside the server records {@code Panic} instead of
 * {@code ResponseComplete}. One instance serves one request, from one thread at a time.
 */
public final class RequestAudit {
    /** kube's annotation keys and values for the authorization decision. */
    public static final String DECISION_ANNOTATION = "authorization.k8s.io/decision";

    public static final String REASON_ANNOTATION = "authorization.k8s.io/reason";

    private final RequestAuditConfig config;
    private final AuditRequestFacts facts;
    private final InstantSource clock;
    private final UserInfo user;
    private final String verb;
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private UserInfo impersonatedUser;
    private AuditObjectRef objectRef;
    private AuditResponseStatus responseStatus;
    private JsonNode requestObject;
    private JsonNode responseObject;
    private boolean responseStartedSent;
    private boolean finished;

    private RequestAudit(
            RequestAuditConfig config,
            AuthorizationAttributes attrs,
            UserInfo user,
            AuditRequestFacts facts,
            InstantSource clock) {
        this.config = config;
        this.facts = facts;
        this.clock = clock;
        this.user = user;
        this.verb = attrs.verb();
        this.objectRef =
                attrs.resourceRequest()
                        ? new AuditObjectRef(
                                attrs.resource(),
                                attrs.namespace(),
                                attrs.name(),
                                "",
                                attrs.apiGroup(),
                                attrs.apiVersion(),
                                "",
                                attrs.subresource())
                        : null;
    }

    /**
     * The audit of an authenticated request: {@code attrs} are its authorization attributes (the
     * authenticated user, before impersonation), {@code config} what the policy decided for them.
     */
    public static RequestAudit start(
            RequestAuditConfig config,
            AuthorizationAttributes attrs,
            AuditRequestFacts facts,
            InstantSource clock) {
        return new RequestAudit(config, attrs, attrs.user(), facts, clock);
    }

    /** What policy, level and stages this request is audited with. */
    public RequestAuditConfig config() {
        return config;
    }

    /** The {@code RequestReceived} event, when recorded. Call once, first. */
    public Optional<AuditEvent> received() {
        return event(AuditStage.REQUEST_RECEIVED);
    }

    /** The user the request acts as, from the impersonation headers. */
    public void impersonating(UserInfo impersonated) {
        this.impersonatedUser = impersonated;
    }

    /**
     * An audit annotation, recorded at level Metadata and above; the first value of a key stays, as
     * in kube.
     */
    public void annotate(String key, String value) {
        if (config.level().atLeast(AuditLevel.METADATA)) {
            annotations.putIfAbsent(key, value);
        }
    }

    /** The authorizer's decision, as kube's authorization filter annotates it. */
    public void authorized(Decision decision) {
        annotate(DECISION_ANNOTATION, decision.allowed() ? "allow" : "forbid");
        annotate(REASON_ANNOTATION, decision.reason());
    }

    /**
     * The decoded request body: its metadata fills the object reference's empty fields (a create
     * names its object only in the body), and at level Request and above the body is recorded.
     */
    public void requestObject(JsonNode body) {
        if (body == null || !config.level().atLeast(AuditLevel.METADATA)) {
            return;
        }
        JsonNode meta = body.path("metadata");
        AuditObjectRef ref =
                objectRef != null ? objectRef : new AuditObjectRef("", "", "", "", "", "", "", "");
        objectRef =
                ref.fillFrom(
                        meta.path("namespace").asText(""),
                        meta.path("name").asText(""),
                        meta.path("uid").asText(""),
                        meta.path("resourceVersion").asText(""));
        if (config.level().atLeast(AuditLevel.REQUEST)) {
            requestObject = recorded(body);
        }
    }

    /**
     * The response began with {@code code}: the {@code ResponseStarted} event of a long-running
     * request, when recorded. Other requests record nothing here, as in kube.
     */
    public Optional<AuditEvent> responseStarted(int code) {
        if (responseStatus == null) {
            responseStatus = AuditResponseStatus.ofCode(code);
        }
        if (!facts.longRunning() || responseStartedSent) {
            return Optional.empty();
        }
        responseStartedSent = true;
        return event(AuditStage.RESPONSE_STARTED);
    }

    /**
     * The response is complete, with {@code code} and the body the client got ({@code null} for a
     * stream or no body): the events to record, a long-running request's {@code ResponseStarted}
     * first if it was not sent yet, then {@code ResponseComplete}.
     */
    public List<AuditEvent> responseComplete(int code, JsonNode body) {
        List<AuditEvent> events = new ArrayList<>();
        if (finished) {
            return events;
        }
        if (facts.longRunning() && !responseStartedSent) {
            responseStarted(code).ifPresent(events::add);
        }
        finished = true;
        responseStatus = AuditResponseStatus.of(code, body);
        if (body != null && config.level().atLeast(AuditLevel.REQUEST_RESPONSE)) {
            responseObject = recorded(body);
        }
        event(AuditStage.RESPONSE_COMPLETE).ifPresent(events::add);
        return events;
    }

    /** Handling failed unexpectedly: the {@code Panic} event, with kube's 500 status. */
    public Optional<AuditEvent> panic(String message) {
        if (finished) {
            return Optional.empty();
        }
        finished = true;
        responseStatus =
                new AuditResponseStatus(
                        500, "Failure", "APIServer panic'd: " + message, "InternalError", null);
        return event(AuditStage.PANIC);
    }

    /**
     * The single event kube records for a request whose credentials were refused: {@code
     * ResponseStarted} with the code and a message naming the kinds of credential tried (never the
     * credential). {@code config} is the policy's decision for the request without a user.
     */
    public static Optional<AuditEvent> authenticationFailed(
            RequestAuditConfig config,
            AuthorizationAttributes attrsWithoutUser,
            AuditRequestFacts facts,
            Credentials presented,
            int code,
            InstantSource clock) {
        RequestAudit audit = new RequestAudit(config, attrsWithoutUser, null, facts, clock);
        audit.responseStatus =
                new AuditResponseStatus(code, "", failedAuthenticationMessage(presented), "", null);
        return audit.event(AuditStage.RESPONSE_STARTED);
    }

    /** kube's {@code getAuthMethods} message. */
    static String failedAuthenticationMessage(Credentials presented) {
        List<String> methods = new ArrayList<>();
        if (presented.bearerToken().isPresent()) {
            methods.add("bearer");
        }
        if (!presented.clientChain().isEmpty()) {
            methods.add("x509");
        }
        return methods.isEmpty()
                ? "Authentication failed, no credentials provided"
                : "Authentication failed, attempted: " + String.join(", ", methods);
    }

    private Optional<AuditEvent> event(AuditStage stage) {
        if (!config.records(stage)) {
            return Optional.empty();
        }
        return Optional.of(
                new AuditEvent(
                        config.level(),
                        facts.auditID(),
                        stage,
                        facts.requestURI(),
                        verb,
                        user,
                        impersonatedUser,
                        facts.sourceIPs(),
                        facts.userAgent(),
                        objectRef,
                        stage == AuditStage.REQUEST_RECEIVED ? null : responseStatus,
                        requestObject,
                        responseObject,
                        facts.receivedAt(),
                        stage == AuditStage.REQUEST_RECEIVED ? facts.receivedAt() : clock.instant(),
                        annotations));
    }

    /**
     * A body as recorded: a copy, without managed fields when the policy says so, and without the
     * bearer tokens that TokenReview requests and TokenRequest responses carry (kube would record
     * them; we never write a credential to the log).
     */
    private JsonNode recorded(JsonNode body) {
        JsonNode copy = body.deepCopy();
        if (config.omitManagedFields()) {
            dropManagedFields(copy);
        }
        if (copy instanceof ObjectNode o) {
            String kind = o.path("kind").asText("");
            if (kind.equals("TokenReview") && o.path("spec") instanceof ObjectNode spec) {
                spec.remove("token");
            }
            if (kind.equals("TokenRequest") && o.path("status") instanceof ObjectNode status) {
                status.remove("token");
            }
        }
        return copy;
    }

    /** kube's {@code copyWithoutManagedFields}: the object itself, or each item of a list. */
    private static void dropManagedFields(JsonNode node) {
        if (node.path("metadata") instanceof ObjectNode meta) {
            meta.remove("managedFields");
        }
        if (node.path("items") instanceof ArrayNode items) {
            items.forEach(RequestAudit::dropManagedFields);
        }
        if (node.path("rows") instanceof ArrayNode rows) {
            rows.forEach(row -> dropManagedFields(row.path("object")));
        }
    }
}
