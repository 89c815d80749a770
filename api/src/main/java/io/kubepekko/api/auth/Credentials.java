package io.kubepekko.api.auth;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * What a request presented to prove who sent it, taken from the connection and headers once at the
 * edge: the TLS client's verified certificate chain (leaf first; empty when the client sent none)
 * and the bearer token of an {@code Authorization: Bearer} header. An Authorization header of
 * another scheme, or a malformed one, is {@link #malformedAuthorization} so the chain can answer
 * 401 rather than treat the request as anonymous, as kube does.
 *
 * @param clientChain the client's certificate chain, leaf first
 * @param bearerToken the bearer token, if one was sent
 * @param malformedAuthorization whether an Authorization header was sent that is not a usable
 *     bearer token
 */
public record Credentials(
        List<X509Certificate> clientChain,
        Optional<String> bearerToken,
        boolean malformedAuthorization) {

    public Credentials {
        clientChain = List.copyOf(clientChain);
    }

    /** A request that presented nothing. */
    public static Credentials none() {
        return new Credentials(List.of(), Optional.empty(), false);
    }

    /** Whether the request presented any credential at all. */
    public boolean presentsAny() {
        return !clientChain.isEmpty() || bearerToken.isPresent() || malformedAuthorization;
    }
}
