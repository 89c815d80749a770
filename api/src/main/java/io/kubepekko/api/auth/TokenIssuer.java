package io.kubepekko.api.auth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Issues service-account tokens: the SPI behind the {@code serviceaccounts/{name}/token}
 * subresource (TokenRequest). The route has validated the request, found the service account and
 * the object the token is to be bound to (checking its uid), and defaulted the spec; the issuer
 * signs a token with those claims or refuses.
 */
public interface TokenIssuer {

    /**
     * A token for {@code serviceAccount}.
     *
     * @param serviceAccount the ServiceAccount object as stored
     * @param request what was asked, defaults applied
     * @param boundObject the object the token is bound to (a Pod, Secret or Node as stored), when
     *     the request names one
     */
    Result issue(ObjectNode serviceAccount, Request request, Optional<ObjectNode> boundObject);

    /**
     * The audiences a token gets when the request names none: the API server's own ({@code
     * --api-audiences}, by default the service-account issuer).
     */
    List<String> defaultAudiences();

    /**
     * The longest lifetime a token is issued for ({@code --service-account-max-token-expiration}):
     * the route shortens a longer request to it, with kube's warning, before asking {@link #issue}.
     * Zero (the default) means no limit beyond the 2^32 seconds validation allows.
     */
    default Duration maxExpiration() {
        return Duration.ZERO;
    }

    /**
     * kube-apiserver without a service-account signing key: it registers no {@code token}
     * subresource, so every request to it answers 404 {@code the server could not find the
     * requested resource}. The server answers this way until a signing key is wired in.
     */
    static TokenIssuer unconfigured() {
        return new TokenIssuer() {
            @Override
            public Result issue(
                    ObjectNode serviceAccount, Request request, Optional<ObjectNode> boundObject) {
                return new Refused(ApiStatus.pathNotFound());
            }

            @Override
            public List<String> defaultAudiences() {
                return List.of();
            }

            @Override
            public boolean configured() {
                return false;
            }
        };
    }

    /**
     * Whether tokens can be issued at all; when not, the route answers as {@link #unconfigured()}
     * before reading the request, as kube does without the route.
     */
    default boolean configured() {
        return true;
    }

    /**
     * A TokenRequest's spec with kube's defaults applied.
     *
     * @param audiences the audiences, never empty ({@link #defaultAudiences()} when the request
     *     named none)
     * @param expirationSeconds the requested lifetime (kube defaults it to an hour)
     * @param boundObjectRef the reference to the object the token is bound to, if any
     */
    record Request(
            List<String> audiences,
            long expirationSeconds,
            Optional<BoundObjectRef> boundObjectRef) {
        public Request {
            audiences = List.copyOf(audiences);
            Objects.requireNonNull(boundObjectRef, "boundObjectRef");
        }
    }

    /** {@code spec.boundObjectRef}: which object's lifetime bounds the token's. */
    record BoundObjectRef(String apiVersion, String kind, String name, String uid) {}

    /** An issuer's answer. */
    sealed interface Result {}

    /**
     * The token and the instant it stops being valid.
     *
     * @param expiration when it expires (the issuer may shorten or extend what was asked)
     */
    record Issued(String token, Instant expiration) implements Result {}

    /** The issuer refuses; the status is the answer. */
    record Refused(ApiStatus status) implements Result {}
}
