package io.kubepekko.agent.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a failed answer's body into an {@link ApiStatus}, as client-go's {@code transformResponse}
 * does.
 */
final class StatusBodies {
    private StatusBodies() {}

    static ApiStatus status(int httpCode, byte[] body) {
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            if (n != null && "Status".equals(n.path("kind").asText())) {
                return status(httpCode, n);
            }
        } catch (IOException | RuntimeException e) {
            // Not JSON: fall through to a Status made up from the code, as client-go does.
        }
        String text = new String(body, StandardCharsets.UTF_8).trim();
        return new ApiStatus(
                httpCode,
                reasonFor(httpCode),
                text.isEmpty()
                        ? "the server responded with the status code "
                                + httpCode
                                + " but did not return more information"
                        : text,
                null);
    }

    static ApiStatus status(int httpCode, JsonNode n) {
        int code = n.path("code").asInt(0);
        return new ApiStatus(
                code == 0 ? httpCode : code,
                n.path("reason").asText(reasonFor(httpCode)),
                n.path("message").asText(""),
                null);
    }

    /** The StatusReason client-go assumes for a code when the body says nothing. */
    static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 409 -> "Conflict";
            case 410 -> "Expired";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> "Unknown";
        };
    }
}
