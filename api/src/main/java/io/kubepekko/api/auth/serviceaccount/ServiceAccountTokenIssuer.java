package io.kubepekko.api.auth.serviceaccount;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import java.security.KeyPair;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;

/**
 * Signs service-account tokens as kube's {@code JWTTokenGenerator}: a compact JWS whose header is
 * {@code alg} (RS256 for an RSA key, ES256/384/512 for an EC key) and {@code kid} (see {@link
 * ServiceAccountKeys#keyId}), whose payload is {@link ServiceAccountClaims#payload} with the first
 * {@code --service-account-issuer}.
 */
public final class ServiceAccountTokenIssuer {

    private final String issuer;
    private final JWSSigner signer;
    private final JWSHeader header;

    /**
     * @param issuer the first {@code --service-account-issuer}
     * @param signingKey the {@code --service-account-signing-key-file} key with its public half
     * @throws IllegalArgumentException for a key kube cannot sign with
     */
    public ServiceAccountTokenIssuer(String issuer, KeyPair signingKey) {
        this.issuer = issuer;
        JWSAlgorithm alg =
                ServiceAccountKeys.algorithm(signingKey.getPublic())
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "unsupported service-account signing key: "
                                                        + signingKey.getPublic().getAlgorithm()));
        try {
            this.signer =
                    signingKey.getPrivate() instanceof RSAPrivateKey rsa
                            ? new RSASSASigner(rsa)
                            : new ECDSASigner((ECPrivateKey) signingKey.getPrivate());
        } catch (JOSEException | ClassCastException e) {
            throw new IllegalArgumentException("unusable service-account signing key", e);
        }
        this.header =
                new JWSHeader.Builder(alg)
                        .keyID(ServiceAccountKeys.keyId(signingKey.getPublic()))
                        .build();
    }

    /** The issuer written into every token. */
    public String issuer() {
        return issuer;
    }

    /** The signed token. */
    public String issue(ServiceAccountClaims claims) {
        JWSObject jws = new JWSObject(header, new Payload(claims.payload(issuer).toString()));
        try {
            jws.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("signing a service-account token failed", e);
        }
        return jws.serialize();
    }
}
