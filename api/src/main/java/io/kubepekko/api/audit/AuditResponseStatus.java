package io.kubepekko.api.audit;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The outcome of a request as an audit event reports it, kube's {@code metav1.Status} subset:
 * successes carry only the code; a response that is itself a {@code Status} (every failure, some
 * deletes) lends its status, message, reason and details.
 *
 * @param code the HTTP status code
 * @param status {@code Success}, {@code Failure}, or empty
 * @param message the message, or empty
 * @param reason the reason, or empty
 * @param details the details object, or {@code null}
 */
public record AuditResponseStatus(
        int code, String status, String message, String reason, JsonNode details) {

    public AuditResponseStatus {
        status = status == null ? "" : status;
        message = message == null ? "" : message;
        reason = reason == null ? "" : reason;
    }

    /** Only the code, as kube records a response whose body is not a Status. */
    public static AuditResponseStatus ofCode(int code) {
        return new AuditResponseStatus(code, "", "", "", null);
    }

    /**
     * The status of a response with {@code code} and {@code body}: the body's fields when it is a
     * {@code kind: Status} object, else the code alone.
     */
    public static AuditResponseStatus of(int code, JsonNode body) {
        if (body == null || !body.isObject() || !"Status".equals(body.path("kind").asText())) {
            return ofCode(code);
        }
        JsonNode details = body.get("details");
        return new AuditResponseStatus(
                body.path("code").asInt(code),
                body.path("status").asText(""),
                body.path("message").asText(""),
                body.path("reason").asText(""),
                details == null || details.isNull() ? null : details.deepCopy());
    }
}
