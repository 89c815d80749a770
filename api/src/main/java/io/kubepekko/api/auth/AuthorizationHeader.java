package io.kubepekko.api.auth;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads an {@code Authorization} header the way kube's bearer-token authenticator does. Only a
 * {@code Bearer} (any case) header with a non-empty token presents a credential; an empty header,
 * another scheme ({@code Basic ...}) or an empty token presents nothing, so such a request goes on
 * as anonymous when anonymous requests are allowed (kube does not answer 401 for them).
 */
public final class AuthorizationHeader {
    private AuthorizationHeader() {}

    /** kube's warning when a space doubles the separator: the token is then ignored. */
    public static final String EXTRA_SPACE_WARNING =
            "the provided Authorization header contains extra space before the bearer token, and is"
                    + " ignored";

    /**
     * What the header presented.
     *
     * @param bearerToken the token, when the header is a usable bearer header
     * @param warning a warning for the client (kube sends it as a {@code Warning} header)
     */
    public record Parsed(Optional<String> bearerToken, Optional<String> warning) {
        static final Parsed NOTHING = new Parsed(Optional.empty(), Optional.empty());
    }

    /** Parses one header value; {@code null} or blank presents nothing. */
    public static Parsed parse(String value) {
        if (value == null) {
            return Parsed.NOTHING;
        }
        String auth = value.strip();
        if (auth.isEmpty()) {
            return Parsed.NOTHING;
        }
        // kube splits on single spaces into at most three parts and takes the second as the token:
        // "Bearer a b" authenticates with "a", "Bearer  a" (two spaces) with nothing.
        String[] parts = auth.split(" ", 3);
        if (parts.length < 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer")) {
            return Parsed.NOTHING;
        }
        String token = parts[1];
        if (token.isEmpty()) {
            return new Parsed(
                    Optional.empty(),
                    parts.length == 3 ? Optional.of(EXTRA_SPACE_WARNING) : Optional.empty());
        }
        return new Parsed(Optional.of(token), Optional.empty());
    }

    /** The credentials of a request with this client chain and Authorization header value. */
    public static Credentials credentials(List<X509Certificate> clientChain, String authorization) {
        return new Credentials(clientChain, parse(authorization).bearerToken(), false);
    }
}
