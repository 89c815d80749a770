package io.kubepekko.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One watch on the pods of a namespace, opened before the pods it times are created: for each pod,
 * when the first event with its {@code Ready} condition {@code True} arrived and when its {@code
 * DELETED} event arrived, as {@link System#nanoTime()} on this watch's reader thread at the moment
 * the event's line was read. A watch the server ends (its request timeout) is opened again from the
 * last resource version seen, so no event is missed.
 */
final class PodWatch implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final URI base;
    private final String namespace;
    private final Map<String, Long> ready = new HashMap<>();
    private final Map<String, Long> deleted = new HashMap<>();
    private final Thread reader;
    private volatile String resourceVersion;
    private volatile boolean closing;
    private volatile InputStream body;
    private volatile String problem;

    private PodWatch(HttpClient http, URI base, String namespace, String resourceVersion) {
        this.http = http;
        this.base = base;
        this.namespace = namespace;
        this.resourceVersion = resourceVersion;
        this.reader = new Thread(this::read, "pod-watch");
        this.reader.setDaemon(true);
    }

    /**
     * Lists the namespace's pods for a resource version and watches from there; returns once the
     * watch answered.
     */
    static PodWatch open(HttpClient http, URI base, String namespace)
            throws IOException, InterruptedException {
        HttpResponse<String> list =
                http.send(
                        HttpRequest.newBuilder(
                                        base.resolve(
                                                "/api/v1/namespaces/"
                                                        + namespace
                                                        + "/pods?limit=1"))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (list.statusCode() != 200) {
            throw new IOException("listing pods: HTTP " + list.statusCode() + " " + list.body());
        }
        PodWatch watch =
                new PodWatch(
                        http,
                        base,
                        namespace,
                        JSON.readTree(list.body()).at("/metadata/resourceVersion").asText());
        watch.connect();
        watch.reader.start();
        return watch;
    }

    private void connect() throws IOException, InterruptedException {
        HttpResponse<InputStream> r =
                http.send(
                        HttpRequest.newBuilder(
                                        base.resolve(
                                                "/api/v1/namespaces/"
                                                        + namespace
                                                        + "/pods?watch=true&allowWatchBookmarks=true&resourceVersion="
                                                        + resourceVersion))
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() != 200) {
            String text = new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
            throw new IOException("watching pods: HTTP " + r.statusCode() + " " + text);
        }
        body = r.body();
    }

    private void read() {
        while (!closing) {
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    long now = System.nanoTime();
                    if (!line.isBlank()) {
                        event(JSON.readTree(line), now);
                    }
                }
                if (!closing) {
                    connect();
                }
            } catch (IOException | RuntimeException e) {
                if (!closing) {
                    problem = "pod watch failed: " + e;
                    synchronized (this) {
                        notifyAll();
                    }
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void event(JsonNode event, long now) {
        String type = event.path("type").asText();
        JsonNode pod = event.path("object");
        if (type.equals("ERROR")) {
            throw new IllegalStateException("watch ERROR event: " + event);
        }
        resourceVersion = pod.at("/metadata/resourceVersion").asText(resourceVersion);
        if (type.equals("BOOKMARK")) {
            return;
        }
        String name = pod.at("/metadata/name").asText();
        synchronized (this) {
            if (type.equals("DELETED")) {
                deleted.putIfAbsent(name, now);
            } else if (isReady(pod)) {
                ready.putIfAbsent(name, now);
            }
            notifyAll();
        }
    }

    private static boolean isReady(JsonNode pod) {
        for (JsonNode c : pod.at("/status/conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                return c.path("status").asText().equals("True");
            }
        }
        return false;
    }

    /** When each of {@code names} was first seen Ready; throws if one is not by the deadline. */
    Map<String, Long> awaitReady(Collection<String> names, Duration timeout)
            throws IOException, InterruptedException {
        return await(ready, names, timeout, "Ready");
    }

    /** When each of {@code names} was seen deleted; throws if one is not by the deadline. */
    Map<String, Long> awaitDeleted(Collection<String> names, Duration timeout)
            throws IOException, InterruptedException {
        return await(deleted, names, timeout, "deleted");
    }

    private synchronized Map<String, Long> await(
            Map<String, Long> seen, Collection<String> names, Duration timeout, String what)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (problem != null) {
                throw new IOException(problem);
            }
            List<String> missing = names.stream().filter(n -> !seen.containsKey(n)).toList();
            if (missing.isEmpty()) {
                Map<String, Long> times = new HashMap<>();
                names.forEach(n -> times.put(n, seen.get(n)));
                return times;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IOException(
                        missing.size()
                                + " of "
                                + names.size()
                                + " pods not "
                                + what
                                + " after "
                                + timeout.toSeconds()
                                + " s, e.g. "
                                + missing.get(0));
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    @Override
    public void close() {
        closing = true;
        InputStream b = body;
        if (b != null) {
            try {
                b.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
