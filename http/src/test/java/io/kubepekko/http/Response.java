package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** An HTTP response as a test reads it, with the assertions every conformance test shares. */
record Response(int code, HttpHeaders headers, byte[] body) {

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    Optional<String> header(String name) {
        return headers.firstValue(name);
    }

    ObjectNode json() {
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            if (n instanceof ObjectNode o) {
                return o;
            }
        } catch (IOException e) {
            // reported below with the body
        }
        throw new AssertionError("expected a JSON object, got " + code + ": " + text());
    }

    ObjectNode yaml() {
        try {
            return (ObjectNode) Json.YAML.readTree(body);
        } catch (IOException | ClassCastException e) {
            throw new AssertionError("expected a YAML object, got " + code + ": " + text(), e);
        }
    }

    /** The media type of the body without parameters, lower case. */
    String mediaType() {
        return header("Content-Type")
                .map(v -> v.split(";")[0].trim().toLowerCase(Locale.ROOT))
                .orElse("");
    }

    /** The Content-Type's parameters, whitespace and order ignored (clients parse them so). */
    Map<String, String> mediaTypeParams() {
        Map<String, String> params = new TreeMap<>();
        String[] parts = header("Content-Type").orElse("").split(";");
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                params.put(
                        parts[i].substring(0, eq).trim().toLowerCase(Locale.ROOT),
                        parts[i].substring(eq + 1).trim());
            }
        }
        return params;
    }

    Response assertCode(int expected) {
        assertEquals(expected, code, () -> "status code; body: " + text());
        return this;
    }

    /**
     * Asserts a {@code Status} body as kube-apiserver writes it for a failure: JSON, kind Status,
     * apiVersion v1, status Failure, the code in the body equal to the HTTP code, the reason and
     * the exact message; never a Java stack trace.
     */
    ObjectNode assertStatus(int expectedCode, String reason, String message) {
        ObjectNode s = assertFailure(expectedCode, reason);
        assertEquals(message, s.path("message").asText(), "Status.message");
        return s;
    }

    /** Like {@link #assertStatus} for messages whose tail Kubernetes derives from Go internals. */
    ObjectNode assertStatusMessageStartsWith(int expectedCode, String reason, String prefix) {
        ObjectNode s = assertFailure(expectedCode, reason);
        String message = s.path("message").asText();
        assertTrue(
                message.startsWith(prefix),
                () ->
                        "Status.message should start with <"
                                + prefix
                                + "> but was <"
                                + message
                                + ">");
        return s;
    }

    ObjectNode assertFailure(int expectedCode, String reason) {
        assertCode(expectedCode);
        assertEquals("application/json", mediaType(), "Content-Type of a Status");
        ObjectNode s = json();
        assertEquals("Status", s.path("kind").asText(), () -> "kind; body: " + text());
        assertEquals("v1", s.path("apiVersion").asText(), "apiVersion");
        assertEquals("Failure", s.path("status").asText(), "status");
        assertEquals(expectedCode, s.path("code").asInt(), "Status.code");
        assertEquals(reason, s.path("reason").asText(), () -> "Status.reason; body: " + text());
        assertNoStackTrace();
        return s;
    }

    /** Asserts the {@code details} naming the object a Status is about. */
    static void assertDetails(ObjectNode status, String name, String group, String kind) {
        JsonNode d = status.path("details");
        assertEquals(name, d.path("name").asText(null), "details.name");
        assertEquals(group, d.path("group").asText(null), "details.group");
        assertEquals(kind, d.path("kind").asText(null), "details.kind");
    }

    void assertNoStackTrace() {
        String t = text();
        for (String marker :
                new String[] {
                    "\tat ",
                    "\\tat ",
                    "at io.kubepekko.",
                    "at org.apache.pekko.",
                    "at java.base/",
                    "Exception:",
                    "Exception\""
                }) {
            assertFalse(
                    t.contains(marker),
                    () -> "the body leaks a Java stack trace or exception (" + marker + "): " + t);
        }
    }

    void failWith(String why) {
        fail(why + " (" + code + ": " + text() + ")");
    }
}
