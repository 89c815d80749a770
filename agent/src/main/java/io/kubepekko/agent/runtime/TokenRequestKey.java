package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a projected volume's {@code serviceAccountToken} source asks a token for, and so what one
 * token of the pod serves: its audience (empty for the API server's own) and lifetime (kube's
 * default 3600 s when the source names none). Ordered, so a pod's keys read the same every time.
 */
public record TokenRequestKey(String audience, long expirationSeconds)
        implements Comparable<TokenRequestKey> {

    /** The API's default {@code expirationSeconds} of a token projection. */
    public static final long DEFAULT_EXPIRATION_SECONDS = 3600;

    public TokenRequestKey {
        audience = audience == null ? "" : audience;
    }

    /** The key of one {@code serviceAccountToken} source. */
    public static TokenRequestKey of(JsonNode source) {
        return new TokenRequestKey(
                source.path("audience").asText(""),
                source.path("expirationSeconds").asLong(DEFAULT_EXPIRATION_SECONDS));
    }

    /** The tokens the pod's projected volumes ask for. */
    public static Set<TokenRequestKey> ofPod(JsonNode pod) {
        Set<TokenRequestKey> keys = new TreeSet<>();
        for (JsonNode volume : pod.path("spec").path("volumes")) {
            for (JsonNode source : volume.path("projected").path("sources")) {
                if (source.path("serviceAccountToken").isObject()) {
                    keys.add(of(source.get("serviceAccountToken")));
                }
            }
        }
        return keys;
    }

    @Override
    public int compareTo(TokenRequestKey o) {
        int c = audience.compareTo(o.audience);
        return c != 0 ? c : Long.compare(expirationSeconds, o.expirationSeconds);
    }
}
