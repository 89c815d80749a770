package io.kubepekko.api.auth.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.TokenAuthenticator;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Authenticates service-account tokens as kube's JWT token authenticator and its validator do, in
 * their order:
 *
 * <ol>
 *   <li>a token that is not a three-part JWT whose unverified {@code iss} is one of ours is not
 *       this authenticator's ({@link Authentication.NotPresented}), nor is one that does not parse
 *       as a JWS of an allowed algorithm (RS256, ES256, ES384, ES512; never {@code none});
 *   <li>the signature must verify against one of the {@code --service-account-key-file} keys (those
 *       with the token's {@code kid} when it has one);
 *   <li>{@code aud} must share an audience with the target audiences (a token without {@code aud}
 *       counts as carrying the API server's audiences);
 *   <li>{@code nbf}, {@code exp} and {@code iat} are checked with kube's one-minute leeway;
 *   <li>the service account, and the secret, pod or node the token is bound to, must still exist
 *       with the uid the token names and not have been deleted more than a leeway ago ({@link
 *       BoundObjects}).
 * </ol>
 *
 * Every failure after the first step is {@link Authentication.Rejected} with kube's message.
 */
public final class ServiceAccountTokenAuthenticator implements TokenAuthenticator {

    /** go-jose's default leeway for time claims, which kube uses. */
    public static final Duration LEEWAY = Duration.ofMinutes(1);

    /**
     * Longest token looked at. Pekko HTTP refuses much longer headers anyway; the bound keeps a
     * TokenReview body from making us decode megabytes.
     */
    public static final int MAX_TOKEN_LENGTH = 64 * 1024;

    private static final Set<JWSAlgorithm> ALLOWED =
            Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);

    private final Set<String> issuers;
    private final List<PublicKey> keys;
    private final List<String> keyIds;
    private final List<String> apiAudiences;
    private final BoundObjects objects;
    private final InstantSource clock;

    /**
     * @param issuers every accepted {@code --service-account-issuer}
     * @param keys the {@code --service-account-key-file} public keys
     * @param apiAudiences the API server's audiences
     * @param objects where bound objects are looked up
     * @param clock the time tokens are checked against
     */
    public ServiceAccountTokenAuthenticator(
            List<String> issuers,
            List<PublicKey> keys,
            List<String> apiAudiences,
            BoundObjects objects,
            InstantSource clock) {
        this.issuers = Set.copyOf(issuers);
        this.keys = List.copyOf(keys);
        this.keyIds = this.keys.stream().map(ServiceAccountKeys::keyId).toList();
        this.apiAudiences = List.copyOf(apiAudiences);
        this.objects = objects;
        this.clock = clock;
    }

    @Override
    public Authentication authenticateToken(String token, List<String> audiences) {
        if (token.length() > MAX_TOKEN_LENGTH) {
            return new Authentication.Rejected("service account token is too large");
        }
        if (!hasOurIssuer(token)) {
            return new Authentication.NotPresented();
        }
        JWSObject jws;
        try {
            jws = JWSObject.parse(token);
        } catch (ParseException | RuntimeException e) {
            return new Authentication.NotPresented();
        }
        if (!ALLOWED.contains(jws.getHeader().getAlgorithm())) {
            return new Authentication.NotPresented();
        }
        List<PublicKey> candidates = candidates(jws.getHeader().getKeyID());
        if (candidates.isEmpty()) {
            return rejected("invalid signature, no keys found");
        }
        if (!verifies(jws, candidates)) {
            return rejected("service account token signature is invalid");
        }
        JsonNode claims;
        try {
            claims = Json.MAPPER.readTree(jws.getPayload().toBytes());
        } catch (IOException | RuntimeException e) {
            return rejected("service account token claims could not be parsed");
        }
        return TokenClaims.read(claims)
                .map(c -> validate(c, audiences))
                .orElseGet(() -> rejected("service account token claims could not be parsed"));
    }

    private Authentication validate(TokenClaims c, List<String> requested) {
        if (!issuers.contains(c.issuer())) {
            return rejected("token issuer " + GoQuote.quote(c.issuer()) + " is invalid");
        }
        List<String> tokenAudiences = c.audiences().isEmpty() ? apiAudiences : c.audiences();
        List<String> target = requested.isEmpty() ? apiAudiences : requested;
        List<String> auds = TokenAuthenticator.intersect(tokenAudiences, target);
        if (auds.isEmpty() && !apiAudiences.isEmpty()) {
            return rejected(
                    "token audiences "
                            + GoQuote.quote(tokenAudiences)
                            + " is invalid for the target audiences "
                            + GoQuote.quote(target));
        }
        Instant now = clock.instant();
        if (c.notBefore().isPresent() && now.plus(LEEWAY).isBefore(c.notBefore().get())) {
            return rejected("service account token is not valid yet");
        }
        if (c.expiry().isPresent() && now.minus(LEEWAY).isAfter(c.expiry().get())) {
            return rejected("service account token has expired");
        }
        if (c.issuedAt().isPresent() && now.plus(LEEWAY).isBefore(c.issuedAt().get())) {
            return rejected(
                    "service account token claims could not be validated due to unexpected"
                            + " validation error");
        }
        Optional<String> gone = BoundCheck.failure(c, objects, now.minus(LEEWAY));
        if (gone.isPresent()) {
            return rejected(gone.get());
        }
        // A pod-bound token carries its node's name and uid without a lookup; a node-bound one
        // was checked above.
        return new Authentication.Authenticated(
                ServiceAccountUser.of(
                        c.namespace(),
                        c.serviceAccount(),
                        c.pod().orElse(null),
                        c.node().orElse(null),
                        c.id()),
                auds);
    }

    // kube tries only the keys whose kid the token names, or all of them when it names none.
    private List<PublicKey> candidates(String kid) {
        if (kid == null || kid.isEmpty()) {
            return keys;
        }
        List<PublicKey> named = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (keyIds.get(i).equals(kid)) {
                named.add(keys.get(i));
            }
        }
        return named;
    }

    private static boolean verifies(JWSObject jws, List<PublicKey> keys) {
        for (PublicKey key : keys) {
            try {
                JWSVerifier verifier = verifier(key, jws.getHeader().getAlgorithm());
                if (verifier != null && jws.verify(verifier)) {
                    return true;
                }
            } catch (JOSEException | RuntimeException e) {
                // Try the next key: kube tries them all and fails only if none verifies.
            }
        }
        return false;
    }

    private static JWSVerifier verifier(PublicKey key, JWSAlgorithm alg) throws JOSEException {
        if (key instanceof RSAPublicKey rsa && alg.equals(JWSAlgorithm.RS256)) {
            return new RSASSAVerifier(rsa);
        }
        if (key instanceof ECPublicKey ec
                && ServiceAccountKeys.algorithm(key).filter(alg::equals).isPresent()) {
            return new ECDSAVerifier(ec);
        }
        return null;
    }

    // kube's hasCorrectIssuer: a cheap look at the unverified payload so tokens of other issuers
    // (and other token kinds) are left to the other authenticators.
    private boolean hasOurIssuer(String token) {
        if (token.strip().startsWith("{")) {
            return false; // a JWS in JSON serialization is not a token
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return false;
        }
        try {
            // Go's RawURLEncoding: no padding.
            if (parts[1].contains("=")) {
                return false;
            }
            byte[] payload = Base64.getUrlDecoder().decode(parts[1]);
            JsonNode iss =
                    Json.MAPPER.readTree(new String(payload, StandardCharsets.UTF_8)).path("iss");
            return iss.isTextual() && issuers.contains(iss.asText());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Authentication rejected(String reason) {
        return new Authentication.Rejected(reason);
    }

    /** The checks of a token's bound objects, in kube's order: account, secret, pod, node. */
    private static final class BoundCheck {
        private BoundCheck() {}

        static Optional<String> failure(
                TokenClaims c, BoundObjects objects, Instant deletedBefore) {
            String ns = c.namespace();
            ObjectRef sa = c.serviceAccount();
            Optional<BoundObjects.Live> account =
                    objects.find(BoundObjects.Kind.SERVICE_ACCOUNT, ns, sa.name());
            if (account.isEmpty()) {
                return Optional.of("serviceaccounts " + GoQuote.quote(sa.name()) + " not found");
            }
            if (deletedBefore(account.get(), deletedBefore)) {
                return Optional.of("service account " + ns + "/" + sa.name() + " has been deleted");
            }
            if (!account.get().uid().equals(sa.uid())) {
                return Optional.of(
                        "service account UID ("
                                + account.get().uid()
                                + ") does not match claim ("
                                + sa.uid()
                                + ")");
            }
            if (c.secret().isPresent()) {
                Optional<String> f =
                        bound(
                                objects,
                                BoundObjects.Kind.SECRET,
                                ns,
                                c.secret().get(),
                                deletedBefore,
                                "secret",
                                "secret");
                if (f.isPresent()) {
                    return f;
                }
            }
            if (c.pod().isPresent()) {
                Optional<String> f =
                        bound(
                                objects,
                                BoundObjects.Kind.POD,
                                ns,
                                c.pod().get(),
                                deletedBefore,
                                "pod",
                                "pod");
                if (f.isPresent()) {
                    return f;
                }
            } else if (c.node().isPresent()) {
                return bound(
                        objects,
                        BoundObjects.Kind.NODE,
                        "",
                        c.node().get(),
                        deletedBefore,
                        "node",
                        "node");
            }
            return Optional.empty();
        }

        private static Optional<String> bound(
                BoundObjects objects,
                BoundObjects.Kind kind,
                String namespace,
                ObjectRef ref,
                Instant deletedBefore,
                String what,
                String claim) {
            Optional<BoundObjects.Live> live = objects.find(kind, namespace, ref.name());
            if (live.isEmpty() || deletedBefore(live.get(), deletedBefore)) {
                return Optional.of("service account token has been invalidated");
            }
            if (!live.get().uid().equals(ref.uid())) {
                return Optional.of(
                        what
                                + " UID ("
                                + live.get().uid()
                                + ") does not match service account "
                                + claim
                                + " ref claim ("
                                + ref.uid()
                                + ")");
            }
            return Optional.empty();
        }

        private static boolean deletedBefore(BoundObjects.Live live, Instant limit) {
            return live.deletionTimestamp().filter(t -> t.isBefore(limit)).isPresent();
        }
    }
}
