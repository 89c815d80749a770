package io.kubepekko.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code --shutdown-delay-duration}: from the moment shutdown starts, /readyz fails while requests
 * are still served.
 */
class GracefulShutdownIT {

    @Test
    void readyzFailsButRequestsAreStillServedDuringTheShutdownDelay() throws Exception {
        TestApiServer api = TestApiServer.start(Duration.ofSeconds(5));
        api.get("/readyz").assertCode(200);
        CompletableFuture<Void> closing =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                api.close();
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        });
        AtomicReference<Response> failing = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(4))
                .pollInterval(Duration.ofMillis(20))
                .until(
                        () -> {
                            Response r = api.get("/readyz");
                            failing.set(r);
                            return r.code() == 500;
                        });
        List<String> lines = failing.get().text().lines().toList();
        assertTrue(lines.contains("[-]shutdown failed: reason withheld"), failing.get().text());
        assertEquals("readyz check failed", lines.get(lines.size() - 1));
        api.get("/livez").assertCode(200);
        api.get("/api/v1/namespaces/default").assertCode(200);
        closing.get(60, TimeUnit.SECONDS);
    }
}
