package io.kubepekko.api.auth.serviceaccount;

import com.nimbusds.jose.JWSAlgorithm;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Optional;

/** Facts kube derives from a service-account public key: its key id and its JWS algorithm. */
public final class ServiceAccountKeys {
    private ServiceAccountKeys() {}

    /**
     * kube's {@code kid}: the SHA-256 of the key's PKIX (SubjectPublicKeyInfo) DER encoding,
     * base64url without padding. Java's {@link PublicKey#getEncoded()} is that same DER for RSA and
     * EC keys.
     */
    public static String keyId(PublicKey key) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * The algorithm kube signs with for this key: RS256 for RSA, ES256/ES384/ES512 for the
     * P-256/P-384/P-521 curves; empty for any other key, which kube refuses.
     */
    public static Optional<JWSAlgorithm> algorithm(PublicKey key) {
        if (key instanceof RSAPublicKey) {
            return Optional.of(JWSAlgorithm.RS256);
        }
        if (key instanceof ECPublicKey ec) {
            return switch (ec.getParams().getCurve().getField().getFieldSize()) {
                case 256 -> Optional.of(JWSAlgorithm.ES256);
                case 384 -> Optional.of(JWSAlgorithm.ES384);
                case 521 -> Optional.of(JWSAlgorithm.ES512);
                default -> Optional.empty();
            };
        }
        return Optional.empty();
    }
}
