package io.kubepekko.e2e;

import io.kubepekko.e2e.support.ApiCalls;
import io.kubepekko.e2e.support.ServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * SIGTERM, as a process manager stops the server: during {@code --shutdown-delay-duration} /readyz fails
 * but writes are still taken and stored; then the server exits by itself, without failing to persist
 * anything on the way out, and a start on the same data directory finds every acknowledged write.
 */
class GracefulShutdownE2E {
    private static final Duration SHUTDOWN_DELAY = Duration.ofSeconds(10);

    private final ApiCalls api = new ApiCalls(Duration.ofSeconds(30));

    @TempDir
    Path scratch;

    private ServerProcess server;

    @AfterEach
    void killServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void writesAreStoredDuringTheShutdownDelayAndTheServerExitsCleanly() throws Exception {
        server = ServerProcess.start(scratch.resolve("data"),
                List.of("--shutdown-delay-duration", SHUTDOWN_DELAY.toSeconds() + "s"));
        ApiCalls.Reply before = api.post(server.url(), "/api/v1/namespaces/default/configmaps", configMap("before"));
        assertEquals(201, before.status(), before.toString());
        Path firstLog = server.log();

        server.terminate();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> api.get(server.url(), "/readyz").status() == 500);
        // H2 used to close its database from its own JVM shutdown hook at this moment: this write failed,
        // and the sharded actors' hand-over (which persists) failed and waited out sharding's timeouts.
        ApiCalls.Reply during = api.post(server.url(), "/api/v1/namespaces/default/configmaps", configMap("during"));
        assertEquals(201, during.status(), during.toString());

        assertEquals(143, server.awaitExit(Duration.ofSeconds(120)), "exit code after SIGTERM");
        String log = Files.readString(firstLog, StandardCharsets.UTF_8);
        assertFalse(log.contains("Database is already closed"), log);
        assertFalse(log.contains("Failed to persist"), log);
        assertFalse(log.contains("not stopped after"), log);
        assertFalse(log.contains("shutdown of shard region timed out"), log);

        server.restart();
        for (String name : List.of("before", "during")) {
            ApiCalls.Reply stored = api.get(server.url(), "/api/v1/namespaces/default/configmaps/" + name);
            assertEquals(200, stored.status(), name + " lost across the graceful shutdown: " + stored);
        }
    }

    private static String configMap(String name) {
        return """
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s"},"data":{"k":"v"}}""".formatted(name);
    }
}
