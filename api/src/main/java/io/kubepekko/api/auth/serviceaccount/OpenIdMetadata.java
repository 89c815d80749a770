package io.kubepekko.api.auth.serviceaccount;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The bodies of the service-account issuer's OIDC discovery endpoints as kube's {@code
 * openidmetadata.go} renders them: {@value #CONFIGURATION_PATH} (issuer, jwks_uri, {@code
 * response_types_supported: ["id_token"]}, {@code subject_types_supported: ["public"]}, the signing
 * algorithms of the keys, sorted) and {@value #JWKS_PATH} (every verification key as a public JWK
 * with {@code use: sig}, its {@code kid} and {@code alg}). kube serves them only when the issuer is
 * an https URL without query or fragment; otherwise it logs why and leaves both endpoints out.
 */
public final class OpenIdMetadata {
    private OpenIdMetadata() {}

    public static final String CONFIGURATION_PATH = "/.well-known/openid-configuration";
    public static final String JWKS_PATH = "/openid/v1/jwks";

    /** kube's media type of the configuration. */
    public static final String CONFIGURATION_MEDIA_TYPE = "application/json";

    /** kube's media type of the key set. */
    public static final String JWKS_MEDIA_TYPE = "application/jwk-set+json";

    /** kube's {@code Cache-Control: public, max-age=3600} for keys read from files. */
    public static final int MAX_AGE_SECONDS = 3600;

    /** Whether the endpoints are served. */
    public sealed interface Discovery {}

    /**
     * @param configuration the {@value #CONFIGURATION_PATH} body
     * @param keySet the {@value #JWKS_PATH} body
     */
    public record Served(ObjectNode configuration, ObjectNode keySet) implements Discovery {}

    /**
     * @param reason kube's error, for the log
     */
    public record NotServed(String reason) implements Discovery {}

    /**
     * The discovery documents.
     *
     * @param issuer the first {@code --service-account-issuer}
     * @param jwksUri {@code --service-account-jwks-uri}, empty when not given
     * @param externalAddress the server's external host[:port], used for the default jwks_uri
     *     {@code https://<externalAddress>/openid/v1/jwks}
     * @param keys the {@code --service-account-key-file} public keys
     */
    public static Discovery discovery(
            String issuer, String jwksUri, String externalAddress, List<PublicKey> keys) {
        if (issuer.isEmpty()) {
            return new NotServed("empty issuer URL");
        }
        if (jwksUri.isEmpty() && externalAddress.isEmpty()) {
            return new NotServed(
                    "either the JWKS URI or the default external address, or both, must be set");
        }
        if (!scheme(issuer).equals("https")) {
            return new NotServed("issuer URL must use https scheme, got: " + issuer);
        }
        if (!query(issuer).isEmpty()) {
            return new NotServed("issuer URL may not include a query, got: " + issuer);
        }
        if (!fragment(issuer).isEmpty()) {
            return new NotServed("issuer URL may not include a fragment, got: " + issuer);
        }
        String jwks = jwksUri;
        if (jwks.isEmpty()) {
            jwks = "https://" + externalAddress + JWKS_PATH;
        } else if (!scheme(jwks).equals("https")) {
            return new NotServed("jwksURI requires https scheme, parsed as: " + jwks);
        }
        if (keys.isEmpty()) {
            return new NotServed("no keys provided for validating keyset");
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode keySet = f.objectNode();
        ArrayNode array = keySet.putArray("keys");
        TreeSet<String> algs = new TreeSet<>();
        for (int i = 0; i < keys.size(); i++) {
            PublicKey key = keys.get(i);
            Optional<JWSAlgorithm> alg = ServiceAccountKeys.algorithm(key);
            if (alg.isEmpty()) {
                return new NotServed(
                        "could not marshal issuer discovery JSON, error: error constructing JWK"
                                + " for key #"
                                + i
                                + ": unknown public key type, must be *rsa.PublicKey,"
                                + " *ecdsa.PublicKey, or jose.OpaqueSigner");
            }
            algs.add(alg.get().getName());
            array.add(jwk(key, alg.get()));
        }
        ObjectNode config = f.objectNode();
        config.put("issuer", issuer);
        config.put("jwks_uri", jwks);
        config.putArray("response_types_supported").add("id_token");
        config.putArray("subject_types_supported").add("public");
        ArrayNode signing = config.putArray("id_token_signing_alg_values_supported");
        algs.forEach(signing::add);
        return new Served(config, keySet);
    }

    // go-jose's field order: use, kty, kid, crv, alg, then the key's numbers.
    private static ObjectNode jwk(PublicKey key, JWSAlgorithm alg) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("use", "sig");
        if (key instanceof RSAPublicKey rsa) {
            Map<String, Object> json = new RSAKey.Builder(rsa).build().toJSONObject();
            o.put("kty", "RSA");
            o.put("kid", ServiceAccountKeys.keyId(key));
            o.put("alg", alg.getName());
            o.put("n", String.valueOf(json.get("n")));
            o.put("e", String.valueOf(json.get("e")));
        } else {
            ECPublicKey ec = (ECPublicKey) key;
            Map<String, Object> json =
                    new ECKey.Builder(Curve.forECParameterSpec(ec.getParams()), ec)
                            .build()
                            .toJSONObject();
            o.put("kty", "EC");
            o.put("kid", ServiceAccountKeys.keyId(key));
            o.put("crv", String.valueOf(json.get("crv")));
            o.put("alg", alg.getName());
            o.put("x", String.valueOf(json.get("x")));
            o.put("y", String.valueOf(json.get("y")));
        }
        return o;
    }

    // The URL's parts as Go's url.Parse splits them (scheme lower-cased); api does no java.net.
    private static String scheme(String url) {
        int colon = url.indexOf(':');
        if (colon <= 0) {
            return "";
        }
        String scheme = url.substring(0, colon);
        return scheme.matches("[A-Za-z][A-Za-z0-9+.-]*") ? scheme.toLowerCase(Locale.ROOT) : "";
    }

    private static String query(String url) {
        String beforeFragment = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
        int q = beforeFragment.indexOf('?');
        return q < 0 ? "" : beforeFragment.substring(q + 1);
    }

    private static String fragment(String url) {
        int hash = url.indexOf('#');
        return hash < 0 ? "" : url.substring(hash + 1);
    }
}
