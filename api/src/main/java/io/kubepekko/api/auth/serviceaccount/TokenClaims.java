package io.kubepekko.api.auth.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The claims of a signature-checked service-account token, read strictly: a claim of the wrong JSON
 * type makes the whole token unreadable (as go-jose's decoding does), never a default.
 */
record TokenClaims(
        String issuer,
        List<String> audiences,
        Optional<Instant> notBefore,
        Optional<Instant> expiry,
        Optional<Instant> issuedAt,
        String id,
        String namespace,
        ObjectRef serviceAccount,
        Optional<ObjectRef> pod,
        Optional<ObjectRef> secret,
        Optional<ObjectRef> node) {

    /** Thrown inside {@link #read} only, to leave the parse at the first bad claim. */
    private static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable() {
            super(null, null, false, false);
        }
    }

    static Optional<TokenClaims> read(JsonNode claims) {
        try {
            if (!claims.isObject()) {
                throw new Unreadable();
            }
            JsonNode k8s = claims.path("kubernetes.io");
            if (!k8s.isObject()) {
                throw new Unreadable();
            }
            Optional<ObjectRef> sa = ref(k8s, "serviceaccount");
            if (sa.isEmpty() || sa.get().name().isEmpty()) {
                throw new Unreadable();
            }
            return Optional.of(
                    new TokenClaims(
                            text(claims, "iss"),
                            audiences(claims.path("aud")),
                            time(claims, "nbf"),
                            time(claims, "exp"),
                            time(claims, "iat"),
                            text(claims, "jti"),
                            text(k8s, "namespace"),
                            sa.get(),
                            ref(k8s, "pod"),
                            ref(k8s, "secret"),
                            ref(k8s, "node")));
        } catch (Unreadable e) {
            return Optional.empty();
        }
    }

    private static String text(JsonNode parent, String field) throws Unreadable {
        JsonNode v = parent.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw new Unreadable();
        }
        return v.asText();
    }

    // go-jose reads aud as one string or an array of strings.
    private static List<String> audiences(JsonNode aud) throws Unreadable {
        if (aud.isMissingNode() || aud.isNull()) {
            return List.of();
        }
        if (aud.isTextual()) {
            return List.of(aud.asText());
        }
        if (!aud.isArray()) {
            throw new Unreadable();
        }
        List<String> list = new ArrayList<>();
        for (JsonNode a : aud) {
            if (!a.isTextual()) {
                throw new Unreadable();
            }
            list.add(a.asText());
        }
        return List.copyOf(list);
    }

    private static Optional<Instant> time(JsonNode parent, String field) throws Unreadable {
        JsonNode v = parent.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isNumber()) {
            throw new Unreadable();
        }
        double seconds = v.doubleValue();
        if (Double.isNaN(seconds) || Math.abs(seconds) > 1e15) {
            throw new Unreadable();
        }
        return Optional.of(Instant.ofEpochSecond((long) seconds));
    }

    private static Optional<ObjectRef> ref(JsonNode parent, String field) throws Unreadable {
        JsonNode v = parent.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isObject()) {
            throw new Unreadable();
        }
        return Optional.of(new ObjectRef(text(v, "name"), text(v, "uid")));
    }
}
