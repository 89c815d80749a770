package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A watch over HTTP as a test drives it: the response's status and headers, and its events read
 * line by line on a background thread, so a test awaits each one with a deadline.
 */
final class WatchClient implements AutoCloseable {

    private static final ObjectNode END = Json.MAPPER.createObjectNode();

    private final int code;
    private final HttpHeaders headers;
    private final InputStream body;
    private final BlockingQueue<ObjectNode> events = new LinkedBlockingQueue<>();
    private volatile boolean ended;

    private WatchClient(HttpResponse<InputStream> response) {
        this.code = response.statusCode();
        this.headers = response.headers();
        this.body = response.body();
        Thread reader = new Thread(this::read, "watch-client");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Opens {@code GET url+path} (with its query) and returns once the response headers arrived.
     */
    static WatchClient open(String url, String path) {
        return open(url, path, "application/json");
    }

    static WatchClient open(String url, String path, String accept) {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(url + path))
                        .header("Accept", accept)
                        .GET()
                        .build();
        // A client of its own: the connection of an abandoned watch is never pooled for another
        // request.
        HttpClient client = TestPki.adminClient();
        try {
            return new WatchClient(client.send(request, HttpResponse.BodyHandlers.ofInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void read() {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    events.add((ObjectNode) Json.MAPPER.readTree(line));
                }
            }
        } catch (IOException e) {
            // closed by the test, or the server cut the connection: both end the stream
        } finally {
            ended = true;
            events.add(END);
        }
    }

    int code() {
        return code;
    }

    HttpHeaders headers() {
        return headers;
    }

    /** The next event, failing the test if none arrives within 10 s or the stream ends. */
    ObjectNode next() {
        return next(Duration.ofSeconds(10));
    }

    ObjectNode next(Duration within) {
        ObjectNode e = poll(within);
        if (e == null) {
            throw new AssertionError("no watch event within " + within);
        }
        if (e == END) {
            events.add(END);
            throw new AssertionError("the watch stream ended");
        }
        return e;
    }

    /**
     * The next event if one arrives within {@code within}, else null; fails if the stream has
     * ended.
     */
    ObjectNode poll(Duration within, boolean failAtEnd) {
        ObjectNode e = poll(within);
        if (e == END) {
            events.add(END);
            if (failAtEnd) {
                throw new AssertionError("the watch stream ended");
            }
            return null;
        }
        return e;
    }

    /** The next {@code n} events as {@code TYPE name@rv} (bookmarks: {@code BOOKMARK@rv}). */
    List<String> next(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(describe(next()));
        }
        return out;
    }

    static String describe(ObjectNode event) {
        String type = event.path("type").asText();
        ObjectNode object = (ObjectNode) event.path("object");
        String rv = object.path("metadata").path("resourceVersion").asText();
        return switch (type) {
            case "BOOKMARK" -> "BOOKMARK@" + rv;
            case "ERROR" -> "ERROR " + object.path("code").asInt();
            default -> type + " " + object.path("metadata").path("name").asText() + "@" + rv;
        };
    }

    /** Asserts that the server ends the stream (within 10 s) with no further event. */
    void expectEnd() {
        expectEnd(Duration.ofSeconds(10));
    }

    /** Asserts that the server ends the stream within {@code within} with no further event. */
    void expectEnd(Duration within) {
        ObjectNode e = poll(within);
        if (e != END) {
            throw new AssertionError(
                    e == null ? "the stream did not end" : "unexpected event " + e);
        }
        events.add(END);
    }

    /** Asserts that no event arrives within {@code d}. */
    void expectNothingFor(Duration d) {
        ObjectNode e = poll(d);
        if (e != null) {
            throw new AssertionError(e == END ? "the stream ended" : "unexpected event " + e);
        }
    }

    boolean ended() {
        return ended;
    }

    private ObjectNode poll(Duration within) {
        try {
            return events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            body.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
