package io.kubepekko.http;

import static io.kubepekko.http.AdmissionWebhookFixture.configMap;
import static io.kubepekko.http.AdmissionWebhookFixture.configMaps;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Failure policies through the API ({@link AdmissionWebhookFixture}): a webhook that is down, hangs
 * past its timeout, answers garbage or cannot be trusted fails the write under {@code Fail} and is
 * skipped under {@code Ignore}.
 */
class AdmissionWebhookFailuresIT {

    @RegisterExtension
    static final AdmissionWebhookFixture hooks =
            new AdmissionWebhookFixture(TestApiServer.perClass());

    private static final TestApiServer api = hooks.api();

    @Test
    void aWebhookThatIsDownFailsTheWriteOnlyWhenItsPolicyIsFail() throws IOException {
        int down = TestApiServer.freePort();
        String ignored = hooks.newCase();
        hooks.configure(
                ignored,
                false,
                hooks.hookAt(
                        ignored,
                        "down.example.com",
                        "https://127.0.0.1:" + down + "/",
                        "'failurePolicy':'Ignore'"));
        assertEquals(201, api.post(configMaps(ignored), configMap("cm", "{}")).code());

        String failing = hooks.newCase();
        hooks.configure(
                failing,
                false,
                hooks.hookAt(failing, "down.example.com", "https://127.0.0.1:" + down + "/", ""));
        Response r = api.post(configMaps(failing), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertEquals("InternalError", r.json().path("reason").asText());
        assertEquals(
                "Internal error occurred: failed calling webhook \"down.example.com\": failed to call"
                        + " webhook: Post \"https://127.0.0.1:"
                        + down
                        + "/?timeout=10s\": dial tcp 127.0.0.1:"
                        + down
                        + ": connect: connection refused",
                r.json().path("message").asText());
    }

    @Test
    void aWebhookThatHangsPastItsTimeoutFailsAsItsPolicySays() {
        String ignored = hooks.newCase();
        hooks.configure(
                ignored,
                false,
                hooks.hook(
                        ignored,
                        "hang.example.com",
                        "/hang",
                        "'failurePolicy':'Ignore','timeoutSeconds':1"));
        assertEquals(201, api.post(configMaps(ignored), configMap("cm", "{}")).code());

        String failing = hooks.newCase();
        hooks.configure(
                failing,
                false,
                hooks.hook(failing, "hang.example.com", "/hang", "'timeoutSeconds':1"));
        Response r = api.post(configMaps(failing), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertTrue(
                r.json()
                        .path("message")
                        .asText()
                        .endsWith("/hang?timeout=1s\": context deadline exceeded"),
                r.text());
    }

    @Test
    void aWebhookWithoutACaBundleIsCalledTrustingTheSystemsCasOnly() {
        String c = hooks.newCase();
        hooks.configure(
                c, false, hooks.hookWithoutCaBundle(c, "system-trust.example.com", "/allow", ""));
        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertEquals(
                "Internal error occurred: failed calling webhook \"system-trust.example.com\":"
                        + " failed to call webhook: Post \""
                        + hooks.url("/allow")
                        + "?timeout=10s\": tls: failed to verify certificate: x509: certificate"
                        + " signed by unknown authority",
                r.json().path("message").asText());
    }

    @Test
    void aGarbageAnswerIsAFailedCall() {
        String c = hooks.newCase();
        hooks.configure(c, false, hooks.hook(c, "garbage.example.com", "/garbage", ""));
        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertTrue(
                r.json()
                        .path("message")
                        .asText()
                        .startsWith(
                                "Internal error occurred: failed calling webhook \"garbage.example.com\":"),
                r.text());
    }
}
