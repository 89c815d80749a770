package io.kubepekko.api.audit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One {@code audit.k8s.io/v1} Event: what the audit log holds for one stage of one request. {@link
 * #toJson} lays it out as kube-apiserver marshals it (field order, empty fields left out, {@code
 * responseStatus.metadata} always present, timestamps in microseconds).
 *
 * @param level the level the policy chose
 * @param auditID the request's audit id (a UUID, or the {@code Audit-ID} header's value)
 * @param stage the stage this event reports
 * @param requestURI the path and query as the client sent them
 * @param verb the kube verb, or the lower-case method of a non-resource request
 * @param user the authenticated user; {@code null} when authentication failed
 * @param impersonatedUser the user acted as, or {@code null}
 * @param sourceIPs the client's address (after any forwarded-for addresses)
 * @param userAgent the User-Agent header, truncated as kube does
 * @param objectRef the object of a resource request, or {@code null}
 * @param responseStatus the outcome, once known, or {@code null}
 * @param requestObject the request body at level Request and above, or {@code null}; decoded when
 *     the event is laid out
 * @param responseObject the response body at level RequestResponse, or {@code null}; decoded when
 *     the event is laid out
 * @param requestReceivedTimestamp when the request arrived
 * @param stageTimestamp when this stage was reached
 * @param annotations audit annotations (the authorization decision and reason, ...)
 */
public record AuditEvent(
        AuditLevel level,
        String auditID,
        AuditStage stage,
        String requestURI,
        String verb,
        UserInfo user,
        UserInfo impersonatedUser,
        List<String> sourceIPs,
        String userAgent,
        AuditObjectRef objectRef,
        AuditResponseStatus responseStatus,
        AuditBody requestObject,
        AuditBody responseObject,
        Instant requestReceivedTimestamp,
        Instant stageTimestamp,
        Map<String, String> annotations) {

    /** kube's {@code metav1.MicroTime} layout, always in UTC. */
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    public AuditEvent {
        sourceIPs = List.copyOf(sourceIPs);
        annotations = Map.copyOf(annotations);
    }

    /** A timestamp as kube writes {@code MicroTime}: {@code 2024-05-01T10:00:00.123456Z}. */
    public static String microTime(Instant instant) {
        return MICRO_TIME.format(instant);
    }

    /**
     * The event as kube marshals it. The bodies are decoded here: the log calls this on its writer.
     */
    public ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("kind", "Event");
        o.put("apiVersion", AuditPolicyReader.API_VERSION);
        o.put("level", level.wireName());
        o.put("auditID", auditID);
        o.put("stage", stage.wireName());
        o.put("requestURI", requestURI);
        o.put("verb", verb);
        o.set("user", user(user));
        if (impersonatedUser != null) {
            o.set("impersonatedUser", user(impersonatedUser));
        }
        if (!sourceIPs.isEmpty()) {
            ArrayNode ips = o.putArray("sourceIPs");
            sourceIPs.forEach(ips::add);
        }
        putIfNotEmpty(o, "userAgent", userAgent);
        if (objectRef != null) {
            ObjectNode ref = o.putObject("objectRef");
            putIfNotEmpty(ref, "resource", objectRef.resource());
            putIfNotEmpty(ref, "namespace", objectRef.namespace());
            putIfNotEmpty(ref, "name", objectRef.name());
            putIfNotEmpty(ref, "uid", objectRef.uid());
            putIfNotEmpty(ref, "apiGroup", objectRef.apiGroup());
            putIfNotEmpty(ref, "apiVersion", objectRef.apiVersion());
            putIfNotEmpty(ref, "resourceVersion", objectRef.resourceVersion());
            putIfNotEmpty(ref, "subresource", objectRef.subresource());
        }
        if (responseStatus != null) {
            ObjectNode status = o.putObject("responseStatus");
            // Go writes a struct field even when it is empty and tagged omitempty
            status.putObject("metadata");
            putIfNotEmpty(status, "status", responseStatus.status());
            putIfNotEmpty(status, "message", responseStatus.message());
            putIfNotEmpty(status, "reason", responseStatus.reason());
            if (responseStatus.details() != null) {
                status.set("details", responseStatus.details());
            }
            if (responseStatus.code() != 0) {
                status.put("code", responseStatus.code());
            }
        }
        if (requestObject != null) {
            requestObject.tree().ifPresent(tree -> o.set("requestObject", tree));
        }
        if (responseObject != null) {
            responseObject.tree().ifPresent(tree -> o.set("responseObject", tree));
        }
        o.put("requestReceivedTimestamp", microTime(requestReceivedTimestamp));
        o.put("stageTimestamp", microTime(stageTimestamp));
        if (!annotations.isEmpty()) {
            ObjectNode a = o.putObject("annotations");
            new TreeMap<>(annotations).forEach(a::put); // Go marshals map keys sorted
        }
        return o;
    }

    private static ObjectNode user(UserInfo user) {
        ObjectNode u = JsonNodeFactory.instance.objectNode();
        if (user == null) {
            return u;
        }
        putIfNotEmpty(u, "username", user.name());
        putIfNotEmpty(u, "uid", user.uid());
        if (!user.groups().isEmpty()) {
            ArrayNode groups = u.putArray("groups");
            user.groups().forEach(groups::add);
        }
        if (!user.extra().isEmpty()) {
            ObjectNode extra = u.putObject("extra");
            new TreeMap<>(user.extra())
                    .forEach(
                            (k, values) -> {
                                ArrayNode vs = extra.putArray(k);
                                values.forEach(vs::add);
                            });
        }
        return u;
    }

    private static void putIfNotEmpty(ObjectNode o, String field, String value) {
        if (value != null && !value.isEmpty()) {
            o.put(field, value);
        }
    }
}
