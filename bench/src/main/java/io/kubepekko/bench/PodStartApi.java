package io.kubepekko.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The pod-start bench's calls to the API server over HTTPS as its admin (not through kubectl, whose
 * own process start would be timed too): its one pod shape, create, dry-run create, delete, the
 * node's readiness and warming the connection pool. Apart from {@link PodStartBench} so the bench
 * reads as the steps it times.
 */
final class PodStartApi {
    static final String NAMESPACE = "default";
    static final String NODE = "podbench-node";
    static final String IMAGE = "docker.io/library/busybox:1.36";

    /**
     * Deletes are timed too, so the app ends on SIGTERM (a bare sleep as pid 1 ignores it and waits
     * the grace).
     */
    private static final String APP_COMMAND =
            "[\"sh\",\"-c\",\"trap 'exit 0' TERM; sleep 3600 & wait\"]";

    static final int STEADY_CREATORS = 10;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http;
    private final URI base;
    private final Duration startTimeout;

    PodStartApi(Endpoint server, Duration startTimeout) {
        HttpClient.Builder client =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5));
        if (server.secure()) {
            client.sslContext(server.tls());
        }
        this.http = client.build();
        this.base = server.base();
        this.startTimeout = startTimeout;
    }

    /** A watch on the bench's namespace, opened before the pods it times are created. */
    PodWatch watch() throws IOException, InterruptedException {
        return PodWatch.open(http, base, NAMESPACE);
    }

    /** Sends the delete of a pod (default grace); the answer is checked by the caller. */
    CompletableFuture<HttpResponse<String>> deleteAsync(String name) {
        return http.sendAsync(
                HttpRequest.newBuilder(podUri(name)).timeout(REQUEST_TIMEOUT).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    void create(String name) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(
                                        base.resolve("/api/v1/namespaces/" + NAMESPACE + "/pods"))
                                .timeout(REQUEST_TIMEOUT)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(podBody(name)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IOException(
                    "creating pod " + name + ": HTTP " + r.statusCode() + " " + r.body());
        }
    }

    /**
     * The bench's pod as the server would store it (defaults applied), from a dry-run create: what
     * the agent reads.
     */
    JsonNode storedPod(String name) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(
                                        base.resolve(
                                                "/api/v1/namespaces/"
                                                        + NAMESPACE
                                                        + "/pods?dryRun=All"))
                                .timeout(REQUEST_TIMEOUT)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(podBody(name)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IOException(
                    "dry-run creating pod " + name + ": HTTP " + r.statusCode() + " " + r.body());
        }
        return new ObjectMapper().readTree(r.body());
    }

    private static String podBody(String name) {
        return """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"%s"},
         "spec":{"nodeName":"%s","terminationGracePeriodSeconds":5,
          "containers":[{"name":"app","image":"%s","imagePullPolicy":"IfNotPresent","command":%s}]}}
        """
                .formatted(name, NAMESPACE, NODE, IMAGE, APP_COMMAND);
    }

    private URI podUri(String name) {
        return base.resolve("/api/v1/namespaces/" + NAMESPACE + "/pods/" + name);
    }

    /**
     * The agent registers its node and reports it Ready once the runtime answers: then pods can
     * start.
     */
    void awaitNodeReady(AgentProcess agent) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!agent.isAlive()) {
                throw new IOException(
                        "the agent exited before its node was Ready:\n" + agent.tail(40));
            }
            HttpResponse<String> r =
                    http.send(
                            HttpRequest.newBuilder(base.resolve("/api/v1/nodes/" + NODE))
                                    .timeout(REQUEST_TIMEOUT)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            last = "HTTP " + r.statusCode();
            if (r.statusCode() == 200
                    && r.body()
                            .replace(" ", "")
                            .matches(
                                    "(?s).*\\{[^{}]*\"type\":\"Ready\"[^{}]*\"status\":\"True\".*|"
                                            + "(?s).*\\{[^{}]*\"status\":\"True\"[^{}]*\"type\":\"Ready\".*")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IOException(
                "node "
                        + NODE
                        + " not Ready after "
                        + startTimeout.toSeconds()
                        + " s ("
                        + last
                        + "):\n"
                        + agent.tail(40));
    }

    /**
     * Opens the connections the concurrent creates will use, so that a burst does not time TCP
     * connects.
     */
    void warmConnections(int n) throws InterruptedException {
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(
                    http.sendAsync(
                            HttpRequest.newBuilder(
                                            base.resolve(
                                                    "/api/v1/namespaces/"
                                                            + NAMESPACE
                                                            + "/pods?limit=1"))
                                    .timeout(REQUEST_TIMEOUT)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString()));
        }
        calls.forEach(c -> c.exceptionally(e -> null).join());
    }
}
