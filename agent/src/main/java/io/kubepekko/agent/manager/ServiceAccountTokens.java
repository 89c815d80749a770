package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.TokenRequestKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kubelet's token manager: the service-account tokens of projected volumes, requested with the
 * node's credentials through {@code serviceaccounts/{name}/token} (audience, lifetime, bound to the
 * pod by name and uid), kept per pod and request, and requested again once 80 % of a token's
 * lifetime has passed or it is 24 h old ({@link #requiresRefresh}). A failed refresh keeps the
 * cached token while it is valid, as the kubelet does; without one the failure is the volume's
 * mount error ({@code failed to fetch token: …}).
 */
final class ServiceAccountTokens {

    private static final Resource SERVICE_ACCOUNTS =
            new Resource("", "v1", "serviceaccounts", true);

    /** The kubelet's cap on a token's age before it is refreshed ({@code maxTTL}). */
    static final Duration MAX_TTL = Duration.ofHours(24);

    private record Key(String podUid, TokenRequestKey request) {}

    /** A token the server issued, with the request's lifetime. */
    record Issued(String token, Instant expires, long expirationSeconds) {}

    private final ApiClient client;
    private final Clock clock;
    private final Map<Key, Issued> cache = new ConcurrentHashMap<>();

    ServiceAccountTokens(ApiClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The token {@code key} of {@code pod}: cached while fresh, else requested. */
    CompletionStage<PodInputs.Token> token(JsonNode pod, TokenRequestKey key) {
        JsonNode meta = pod.path("metadata");
        String uid = meta.path("uid").asText("");
        Key cacheKey = new Key(uid, key);
        Issued cached = cache.get(cacheKey);
        Instant now = clock.instant();
        if (cached != null && !requiresRefresh(now, cached)) {
            return CompletableFuture.completedFuture(PodInputs.Token.of(cached.token()));
        }
        String ns = meta.path("namespace").asText("");
        String account = pod.path("spec").path("serviceAccountName").asText("");
        return client.create(
                        SERVICE_ACCOUNTS.subresource(ns, account, "token"),
                        request(key, meta.path("name").asText(""), uid))
                .handle(
                        (answer, failure) -> {
                            if (failure == null) {
                                Issued issued = issued(answer, key);
                                cache.put(cacheKey, issued);
                                return PodInputs.Token.of(issued.token());
                            }
                            ApiError error = ApiError.of(failure);
                            String why =
                                    error instanceof ApiError.Answered a
                                            ? a.status().message()
                                            : error.toString();
                            if (cached != null && now.isBefore(cached.expires())) {
                                return PodInputs.Token.of(cached.token());
                            }
                            return PodInputs.Token.failed("failed to fetch token: " + why);
                        });
    }

    /** Forgets the tokens of a pod that is gone. */
    void forget(String podUid) {
        cache.keySet().removeIf(k -> k.podUid().equals(podUid));
    }

    /**
     * The kubelet's {@code requiresRefresh}: the token is older than 24 h, or less than 20 % of its
     * lifetime is left (the kubelet's random jitter of up to 10 s is left out).
     */
    static boolean requiresRefresh(Instant now, Issued token) {
        Instant issued = token.expires().minusSeconds(token.expirationSeconds());
        if (now.isAfter(issued.plus(MAX_TTL))) {
            return true;
        }
        return now.isAfter(token.expires().minusSeconds(token.expirationSeconds() * 20 / 100));
    }

    /** The TokenRequest the kubelet sends for a projection, bound to the pod. */
    static ObjectNode request(TokenRequestKey key, String podName, String podUid) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("apiVersion", "authentication.k8s.io/v1");
        body.put("kind", "TokenRequest");
        ObjectNode spec = body.putObject("spec");
        if (!key.audience().isEmpty()) {
            spec.putArray("audiences").add(key.audience());
        }
        spec.put("expirationSeconds", key.expirationSeconds());
        ObjectNode bound = spec.putObject("boundObjectRef");
        bound.put("apiVersion", "v1");
        bound.put("kind", "Pod");
        bound.put("name", podName);
        bound.put("uid", podUid);
        return body;
    }

    /**
     * The issued token; its lifetime is the one the server granted (it may extend or shorten what
     * was asked), read from the answer's spec.
     */
    static Issued issued(JsonNode answer, TokenRequestKey key) {
        return new Issued(
                answer.path("status").path("token").asText(""),
                Instant.parse(answer.path("status").path("expirationTimestamp").asText()),
                answer.path("spec").path("expirationSeconds").asLong(key.expirationSeconds()));
    }
}
