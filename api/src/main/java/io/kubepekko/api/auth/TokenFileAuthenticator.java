package io.kubepekko.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Authenticates the tokens of a {@link TokenFile}. A token it does not know is {@link
 * Authentication.NotPresented} (kube's token file says "not mine" and lets the next authenticator
 * try; the bearer authenticator turns "nobody's" into a 401).
 *
 * <p>Unlike kube's map lookup, the comparison takes the same time whichever entry, or none, the
 * token matches: every entry's SHA-256 digest is compared with {@link MessageDigest#isEqual}, so
 * response timing tells nothing about how much of a secret a guess got right.
 */
public final class TokenFileAuthenticator implements TokenAuthenticator {

    private record Entry(byte[] digest, UserInfo user) {}

    private final List<Entry> entries;

    public TokenFileAuthenticator(TokenFile file) {
        List<Entry> list = new ArrayList<>();
        for (Map.Entry<String, UserInfo> e : file.users().entrySet()) {
            list.add(new Entry(sha256(e.getKey()), e.getValue()));
        }
        this.entries = List.copyOf(list);
    }

    @Override
    public Authentication authenticateToken(String token, List<String> audiences) {
        byte[] digest = sha256(token);
        UserInfo found = null;
        for (Entry entry : entries) {
            // No early exit: the loop's length does not depend on where (or whether) it matches.
            if (MessageDigest.isEqual(entry.digest(), digest)) {
                found = entry.user();
            }
        }
        return found == null
                ? new Authentication.NotPresented()
                : new Authentication.Authenticated(found);
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
