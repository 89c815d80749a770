package io.kubepekko.agent.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReflectorTest {

    @Test
    void aNormallyEndedWatchResumesAtOnce() {
        assertEquals(Reflector.Next.RESUME, Reflector.afterWatch(Optional.empty()));
    }

    @Test
    void onlyGoneRelists() {
        ApiError gone =
                new ApiError.Answered(
                        new ApiStatus(410, "Expired", "too old resource version: 1 (20)", null));
        assertEquals(Reflector.Next.RELIST, Reflector.afterWatch(Optional.of(gone)));
        assertEquals(
                Reflector.Next.RESUME_AFTER_BACKOFF,
                Reflector.afterWatch(Optional.of(new ApiError.Unreachable("ConnectException"))));
        assertEquals(
                Reflector.Next.RESUME_AFTER_BACKOFF,
                Reflector.afterWatch(
                        Optional.of(
                                new ApiError.Answered(
                                        new ApiStatus(500, "InternalError", "boom", null)))));
    }

    @Test
    void anErrorEventCarriesItsStatus() {
        var status =
                Json.MAPPER
                        .createObjectNode()
                        .put("kind", "Status")
                        .put("code", 410)
                        .put("reason", "Expired")
                        .put("message", "too old");
        ApiError e = new WatchEvent("ERROR", status).error();
        assertEquals(410, e.code());
        assertEquals("410 Expired: too old", e.toString());
    }
}
