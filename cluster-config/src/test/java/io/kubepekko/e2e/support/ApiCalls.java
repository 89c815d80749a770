package io.kubepekko.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * JSON requests to an API server that never throw for a failed exchange: a refused connection, a
 * reset, a failed handshake or a client-side timeout becomes a {@link Reply} with status -1 and the
 * reason, so load and failover tests can record every outcome, failures included. The server serves
 * HTTPS only: make it with the {@link ClientTls} of a kubeconfig (its admin's, say).
 */
public final class ApiCalls {
    public static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration requestTimeout;

    /**
     * @param requestTimeout how long a request may take before the client gives up on it; longer
     *     than the server's own deadlines, so the server's answer (a 5xx Status) normally comes
     *     first
     * @param tls whom the client trusts and who it is
     */
    public ApiCalls(Duration requestTimeout, ClientTls tls) {
        this.requestTimeout = requestTimeout;
        this.http = tls.httpClient();
    }

    /**
     * Without a certificate of the server's CA to trust: only for servers whose certificate the
     * JDK's default trust verifies (never the test servers, which have CAs of their own).
     */
    public ApiCalls(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        this.http =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
    }

    /**
     * One exchange's outcome.
     *
     * @param status the HTTP status, or -1 when no response came
     * @param body the response body ("" without a response)
     * @param failure why no response came (null when one did)
     */
    public record Reply(int status, String body, String failure) {

        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** Whether the client gave up waiting (rather than the connection failing). */
        public boolean timedOut() {
            return failure != null
                    && failure.startsWith(HttpTimeoutException.class.getSimpleName());
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON (" + status + "): " + body, e);
            }
        }

        /**
         * Whether the body is a Status object whose code is this reply's status, as Kubernetes
         * errors are.
         */
        public boolean isStatusBody() {
            try {
                JsonNode node = JSON.readTree(body);
                return node != null
                        && "Status".equals(node.path("kind").asText())
                        && node.path("code").asInt() == status;
            } catch (IOException e) {
                return false;
            }
        }

        @Override
        public String toString() {
            return status < 0
                    ? "no response: " + failure
                    : status + " " + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }

    public Reply get(String baseUrl, String path) {
        return send(request(baseUrl, path).GET().build());
    }

    public Reply post(String baseUrl, String path, String json) {
        return send(
                request(baseUrl, path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build());
    }

    public Reply mergePatch(String baseUrl, String path, String json) {
        return send(
                request(baseUrl, path)
                        .header("Content-Type", "application/merge-patch+json")
                        .method("PATCH", HttpRequest.BodyPublishers.ofString(json))
                        .build());
    }

    /** The underlying client, for streaming requests (watches). */
    public HttpClient client() {
        return http;
    }

    private HttpRequest.Builder request(String baseUrl, String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(requestTimeout)
                .header("Accept", "application/json");
    }

    private Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response =
                    http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.body(), null);
        } catch (IOException e) {
            return new Reply(-1, "", e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Reply(-1, "", "interrupted");
        }
    }
}
