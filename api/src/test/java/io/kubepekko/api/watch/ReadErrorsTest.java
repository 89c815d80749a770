package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadErrorsTest {

    @Test
    void expiredContinueIs410WithKubeMessage() {
        ApiStatus s = ReadErrors.continueExpired();
        assertEquals(410, s.code());
        assertEquals("Expired", s.reason());
        assertEquals(
                "The provided continue parameter is too old to display a consistent list result. "
                        + "You can start a new list without the continue parameter.",
                s.message());
    }

    @Test
    void tooOldResourceVersionNamesRequestedAndOldest() {
        ApiStatus s = ReadErrors.tooOldResourceVersion(1, 200);
        assertEquals(410, s.code());
        assertEquals("Expired", s.reason());
        assertEquals("too old resource version: 1 (200)", s.message());
        assertEquals(
                "The resourceVersion for the provided list is too old.",
                ReadErrors.listResourceVersionTooOld().message());
    }

    @Test
    void tooLargeResourceVersionIsTimeoutWithCauseAndRetryAfter() {
        ObjectNode json = ReadErrors.tooLargeResourceVersion(10, 7).toJson();
        assertEquals(
                Json.MAPPER.valueToTree(
                        Map.of(
                                "kind",
                                "Status",
                                "apiVersion",
                                "v1",
                                "metadata",
                                Map.of(),
                                "status",
                                "Failure",
                                "message",
                                "Timeout: Too large resource version: 10, current: 7",
                                "reason",
                                "Timeout",
                                "details",
                                Map.of(
                                        "causes",
                                        List.of(
                                                Map.of(
                                                        "reason",
                                                        "ResourceVersionTooLarge",
                                                        "message",
                                                        "Too large resource version")),
                                        "retryAfterSeconds",
                                        1),
                                "code",
                                504)),
                json);
    }
}
