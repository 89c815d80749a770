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
 * one (a watch, a pod's log, exec, attach, port-forward, a proxy) records {@code ResponseStarted}
 * when its response begins, then {@code ResponseComplete} when it ends; a failure inside the server
 * records {@code Panic} instead of {@code ResponseComplete}. One instance serves one request, from
 * one thread at a time.
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
    private final boolean resourceRequest;
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private UserInfo impersonatedUser;
    private AuditObjectRef objectRef;
    private AuditResponseStatus responseStatus;
    private AuditBody requestObject;
    private AuditBody responseObject;
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
        this.resourceRequest = attrs.resourceRequest();
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

    /**
     * Whether the request names a resource: only those record bodies (kube documents {@code
     * requestObject} and {@code responseObject} as omitted for non-resource requests).
     */
    public boolean resourceRequest() {
        return resourceRequest;
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
     * in kube (see {@link #annotate(String, String, AuditLevel)}).
     *
     * @return the value the key keeps when it already had another one
     */
    public Optional<String> annotate(String key, String value) {
        return annotate(key, value, AuditLevel.METADATA);
    }

    /**
     * An audit annotation recorded only when the request is audited at {@code least} or above
     * (kube's {@code AddAnnotationWithLevel}: a webhook's patch, at Request). A key recorded
     * already keeps its first value, as kube's audit context does: the same value again changes
     * nothing, another one is dropped (kube logs it), which is what several admissions of one
     * request (the items of a deletecollection) leave under the same key.
     *
     * @return the value the key keeps when it already had another one, for the caller to log
     */
    public Optional<String> annotate(String key, String value, AuditLevel least) {
        if (!config.level().atLeast(least)) {
            return Optional.empty();
        }
        String kept = annotations.putIfAbsent(key, value);
        return kept == null || kept.equals(value) ? Optional.empty() : Optional.of(kept);
    }

    /** The authorizer's decision, as kube's authorization filter annotates it. */
    public void authorized(Decision decision) {
        annotate(DECISION_ANNOTATION, decision.allowed() ? "allow" : "forbid");
        annotate(REASON_ANNOTATION, decision.reason());
    }

    /**
     * The decoded request body: {@link #requestObject(JsonNode, AuditBody)} with the body's
     * metadata. The body is copied if it is recorded, so the caller may go on changing it.
     */
    public void requestObject(JsonNode body) {
        if (body == null) {
            return;
        }
        requestObject(
                body.path("metadata"),
                config.level().atLeast(AuditLevel.REQUEST) ? AuditBody.of(body.deepCopy()) : null);
    }

    /**
     * A request body that decodes into an object (a create's or update's object, a delete's
     * DeleteOptions), as kube's {@code LogRequestObject} records it: the body's {@code metadata}
     * fills the object reference's empty fields (a create names its object only in the body), and
     * at level Request and above {@code body} is recorded.
     */
    public void requestObject(JsonNode metadata, AuditBody body) {
        if (!config.level().atLeast(AuditLevel.METADATA)) {
            return;
        }
        AuditObjectRef ref =
                objectRef != null ? objectRef : new AuditObjectRef("", "", "", "", "", "", "", "");
        objectRef =
                ref.fillFrom(
                        metadata.path("namespace").asText(""),
                        metadata.path("name").asText(""),
                        metadata.path("uid").asText(""),
                        metadata.path("resourceVersion").asText(""));
        if (body != null && config.level().atLeast(AuditLevel.REQUEST)) {
            requestObject = recorded(body);
        }
    }

    /**
     * A patch request's body: kube's {@code LogRequestPatch} records the patch itself (a JSON
     * patch's operations, a merge patch, an apply configuration) as the request object, at level
     * Request and above, and leaves the object reference as it is.
     */
    public void requestPatch(AuditBody patch) {
        if (patch != null && config.level().atLeast(AuditLevel.REQUEST)) {
            requestObject = patch;
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
     * stream or no body): {@link #responseComplete(AuditResponseStatus, AuditBody)} with the body's
     * status. The body is copied if it is recorded.
     */
    public List<AuditEvent> responseComplete(int code, JsonNode body) {
        return responseComplete(
                AuditResponseStatus.of(code, body),
                body != null && config.level().atLeast(AuditLevel.REQUEST_RESPONSE)
                        ? AuditBody.of(body.deepCopy())
                        : null);
    }

    /**
     * The response is complete: the events to record, a long-running request's {@code
     * ResponseStarted} first if it was not sent yet, then {@code ResponseComplete}. {@code status}
     * is the outcome (the body's own fields when it is a {@code Status}, as kube's {@code
     * LogResponseObject} copies them at level Metadata and above); {@code body} is the object the
     * client got, recorded at level RequestResponse, or {@code null} for a stream or no body.
     */
    public List<AuditEvent> responseComplete(AuditResponseStatus status, AuditBody body) {
        List<AuditEvent> events = new ArrayList<>();
        if (finished) {
            return events;
        }
        if (facts.longRunning() && !responseStartedSent) {
            responseStarted(status.code()).ifPresent(events::add);
        }
        finished = true;
        responseStatus = status;
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
     * A body as recorded: without managed fields when the policy says so, and without the bearer
     * tokens that TokenReview requests and responses and TokenRequest responses carry (kube would
     * record them; we never write a credential to the log). The token is found by the body's kind
     * and by the resource the request names, so a body that leaves its kind out keeps no token
     * either.
     */
    private AuditBody recorded(AuditBody body) {
        boolean omitManagedFields = config.omitManagedFields();
        String resource = objectRef == null ? "" : objectRef.resource();
        String subresource = objectRef == null ? "" : objectRef.subresource();
        boolean tokenReview = resource.equals("tokenreviews");
        boolean tokenRequest = resource.equals("serviceaccounts") && subresource.equals("token");
        return body.map(
                tree -> {
                    if (omitManagedFields) {
                        dropManagedFields(tree);
                    }
                    if (tree instanceof ObjectNode o) {
                        String kind = o.path("kind").asText("");
                        if ((tokenReview || kind.equals("TokenReview"))
                                && o.path("spec") instanceof ObjectNode spec) {
                            spec.remove("token");
                        }
                        if ((tokenRequest || kind.equals("TokenRequest"))
                                && o.path("status") instanceof ObjectNode st) {
                            st.remove("token");
                        }
                    }
                    return tree;
                });
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
