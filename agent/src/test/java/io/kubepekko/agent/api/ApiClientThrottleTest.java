package io.kubepekko.agent.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client's throttle: one made {@link ApiClient#withThrottle} apart does not queue behind the
 * other's requests.
 */
class ApiClientThrottleTest {

    private HttpServer server;
    private ApiClient client;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                "/",
                exchange -> {
                    byte[] body = "{\"kind\":\"Pod\"}".getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
        server.start();
        // One request, then one every ~3 hours: a second request on this throttle waits for the
        // test's whole life.
        client =
                new ApiClient(
                        Kubeconfig.plain(
                                URI.create("http://127.0.0.1:" + server.getAddress().getPort())),
                        ApiClient.userAgent("test"),
                        new TokenBucket(0.0001, 1, System.nanoTime()),
                        Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aClientWithAThrottleApartDoesNotWaitForTheOthersTokens() throws Exception {
        assertEquals(
                "Pod",
                client.get("/api/v1/pods/a")
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS)
                        .path("kind")
                        .asText());
        CompletableFuture<?> queued = client.get("/api/v1/pods/b").toCompletableFuture();

        ApiClient events = client.withThrottle(TokenBucket.eventDefaults(System.nanoTime()));
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    "Pod",
                    events.get("/api/v1/pods/c")
                            .toCompletableFuture()
                            .get(10, TimeUnit.SECONDS)
                            .path("kind")
                            .asText());
        }
        assertFalse(queued.isDone(), "the first client's second request still waits for its token");
        queued.cancel(true);
    }
}
