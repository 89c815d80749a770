package io.kubepekko.agent.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.GoPlatform;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The agent's asynchronous REST client of the API server, over the JDK's {@link HttpClient} with
 * JSON bodies as Jackson trees. Every call first takes a token from a {@link TokenBucket}
 * (client-go's throttle: the kubelet's 50 per second, burst 100), then completes with the answer's
 * object, or fails with an {@link ApiCallFailed} whose {@link ApiError} carries the server's {@code
 * Status}.
 *
 * <p>HTTP/1.1 only (the JDK would otherwise try an h2c upgrade on a plain connection); https with
 * the kubeconfig's CA, client certificate and key through the JDK's TLS.
 */
public final class ApiClient {

    private static final String JSON = "application/json";

    private final Kubeconfig config;
    private final HttpClient http;
    private final String userAgent;
    private final TokenBucket bucket;
    private final LongSupplier nanoClock;
    private final Duration requestTimeout;

    public ApiClient(
            Kubeconfig config, String userAgent, TokenBucket bucket, Duration requestTimeout)
            throws GeneralSecurityException {
        this.config = config;
        this.userAgent = userAgent;
        this.bucket = bucket;
        this.nanoClock = System::nanoTime;
        this.requestTimeout = requestTimeout;
        HttpClient.Builder b =
                HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10));
        if ("https".equals(config.server().getScheme())) {
            b.sslContext(Tls.context(config));
        }
        this.http = b.build();
    }

    private ApiClient(ApiClient shared, TokenBucket bucket) {
        this.config = shared.config;
        this.userAgent = shared.userAgent;
        this.bucket = bucket;
        this.nanoClock = shared.nanoClock;
        this.requestTimeout = shared.requestTimeout;
        this.http = shared.http;
    }

    /**
     * The same server and connections with a throttle of its own, as the kubelet's event client is
     * a client apart from its API client ({@code eventRecordQPS}/{@code eventBurst} beside {@code
     * kubeAPIQPS}/{@code kubeAPIBurst}): the events of many pods starting at once do not hold their
     * status writes back.
     */
    public ApiClient withThrottle(TokenBucket throttle) {
        return new ApiClient(this, throttle);
    }

    /** A client with the agent's defaults: the SPEC's rate limit and a 60 s request timeout. */
    public static ApiClient create(Kubeconfig config, String agentVersion)
            throws GeneralSecurityException {
        return new ApiClient(
                config,
                userAgent(agentVersion),
                TokenBucket.agentDefaults(System.nanoTime()),
                Duration.ofSeconds(60));
    }

    /**
     * {@code kubepekko-agent/<version> (<os>/<arch>)}, shaped like client-go's {@code
     * kubelet/v1.35.0 (linux/amd64)}.
     */
    public static String userAgent(String agentVersion) {
        return "kubepekko-agent/"
                + agentVersion
                + " ("
                + GoPlatform.os()
                + "/"
                + GoPlatform.arch()
                + ")";
    }

    public URI server() {
        return config.server();
    }

    public CompletionStage<ObjectNode> get(String path) {
        return call("GET", path, null, null);
    }

    /** POST to a collection. */
    public CompletionStage<ObjectNode> create(String collectionPath, JsonNode object) {
        return call("POST", collectionPath, JSON, object);
    }

    /** PUT of a whole object (or of its {@code status} subresource). */
    public CompletionStage<ObjectNode> update(String path, JsonNode object) {
        return call("PUT", path, JSON, object);
    }

    public CompletionStage<ObjectNode> patch(String path, PatchType type, JsonNode patch) {
        return call("PATCH", path, type.contentType(), patch);
    }

    /**
     * DELETE; the answer is the object (when deletion is graceful or finalizers hold it) or a
     * Success Status.
     */
    public CompletionStage<ObjectNode> delete(String path, DeleteOptions options) {
        return call("DELETE", path, JSON, options.body());
    }

    public CompletionStage<ObjectNode> list(String collectionPath, ListOptions options) {
        String q = options.query(false);
        return call("GET", q.isEmpty() ? collectionPath : collectionPath + "?" + q, null, null);
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(config.server() + pathAndQuery))
                        .header("Accept", JSON)
                        .header("User-Agent", userAgent);
        config.bearerToken().ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return b;
    }

    /** Waits for a token of the throttle, then runs {@code send}. */
    private <T> CompletableFuture<T> throttled(Supplier<CompletableFuture<T>> send) {
        long wait;
        synchronized (bucket) {
            wait = bucket.reserve(nanoClock.getAsLong());
        }
        if (wait <= 0) {
            return send.get();
        }
        Executor later = CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS);
        return CompletableFuture.supplyAsync(() -> null, later).thenCompose(x -> send.get());
    }

    private CompletionStage<ObjectNode> call(
            String method, String pathAndQuery, String contentType, JsonNode body) {
        HttpRequest.Builder b = request(pathAndQuery).timeout(requestTimeout);
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType)
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body)));
        }
        HttpRequest req = b.build();
        return throttled(() -> http.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray()))
                .handle(
                        (r, t) -> {
                            if (t != null) {
                                throw new ApiCallFailed(ApiError.of(t));
                            }
                            return answer(r);
                        });
    }

    private static ObjectNode answer(HttpResponse<byte[]> r) {
        int code = r.statusCode();
        if (code < 200 || code > 299) {
            throw new ApiCallFailed(new ApiError.Answered(StatusBodies.status(code, r.body())));
        }
        try {
            JsonNode n = Json.MAPPER.readTree(r.body());
            if (n instanceof ObjectNode o) {
                return o;
            }
        } catch (IOException e) {
            // Reported below.
        }
        throw new ApiCallFailed(
                new ApiError.Unreachable(
                        "the server answered "
                                + code
                                + " with a body that is not a JSON object: "
                                + new String(
                                        r.body(),
                                        0,
                                        Math.min(200, r.body().length),
                                        StandardCharsets.UTF_8)));
    }

    /**
     * Opens a watch of {@code collectionPath} with {@code options} (its resourceVersion says where
     * to start); events go to {@code listener} in order until the stream ends or {@link
     * Watch#stop()}.
     */
    public Watch watch(String collectionPath, ListOptions options, WatchListener listener) {
        OpenWatch w = new OpenWatch(listener);
        HttpRequest req = request(collectionPath + "?" + options.query(true)).GET().build();
        throttled(() -> http.sendAsync(req, w::handler)).whenComplete((r, t) -> w.ended(t));
        return w;
    }

    /** One watch stream: lines in, events out, one close notice. */
    private static final class OpenWatch implements Watch, Flow.Subscriber<String> {
        private final WatchListener listener;
        private final AtomicBoolean stopped = new AtomicBoolean();
        private final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
        private final AtomicReference<ApiError> failure = new AtomicReference<>();

        OpenWatch(WatchListener listener) {
            this.listener = listener;
        }

        HttpResponse.BodySubscriber<Void> handler(HttpResponse.ResponseInfo info) {
            if (info.statusCode() == 200) {
                return HttpResponse.BodySubscribers.fromLineSubscriber(
                        this, s -> null, StandardCharsets.UTF_8, null);
            }
            return HttpResponse.BodySubscribers.mapping(
                    HttpResponse.BodySubscribers.ofByteArray(),
                    bytes -> {
                        failure.compareAndSet(
                                null,
                                new ApiError.Answered(
                                        StatusBodies.status(info.statusCode(), bytes)));
                        return null;
                    });
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription.set(s);
            if (stopped.get()) {
                s.cancel();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(String line) {
            if (stopped.get() || line.isBlank()) {
                return;
            }
            WatchEvent e;
            try {
                JsonNode n = Json.MAPPER.readTree(line);
                if (!(n.path("object") instanceof ObjectNode o) || !n.path("type").isTextual()) {
                    throw new IOException("not a watch event");
                }
                e = new WatchEvent(n.path("type").asText(), o);
            } catch (IOException ex) {
                failure.compareAndSet(
                        null,
                        new ApiError.Unreachable("unreadable watch event: " + ex.getMessage()));
                stop();
                return;
            }
            listener.onEvent(e);
        }

        @Override
        public void onError(Throwable t) {
            failure.compareAndSet(null, ApiError.of(t));
        }

        @Override
        public void onComplete() {
            // ended() reports it once the response future completes.
        }

        void ended(Throwable t) {
            if (t != null) {
                failure.compareAndSet(null, ApiError.of(t));
            }
            if (stopped.compareAndSet(false, true)) {
                listener.onClosed(Optional.ofNullable(failure.get()));
            }
        }

        @Override
        public void stop() {
            if (stopped.compareAndSet(false, true)) {
                Flow.Subscription s = subscription.get();
                if (s != null) {
                    s.cancel();
                }
            }
        }
    }
}
