package io.kubepekko.api.auth.serviceaccount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OpenIdMetadataTest {

    private static final List<PublicKey> KEYS =
            List.of(TestKeys.RSA.getPublic(), TestKeys.EC.getPublic());

    private static OpenIdMetadata.Served served(String issuer, String jwksUri) {
        return assertInstanceOf(
                OpenIdMetadata.Served.class,
                OpenIdMetadata.discovery(issuer, jwksUri, "10.0.0.1:6443", KEYS));
    }

    @Test
    void describesTheIssuerAsKubeDoes() throws Exception {
        JsonNode config =
                served("https://kubernetes.default.svc.cluster.local", "").configuration();
        assertEquals(
                "{\"issuer\":\"https://kubernetes.default.svc.cluster.local\","
                        + "\"jwks_uri\":\"https://10.0.0.1:6443/openid/v1/jwks\","
                        + "\"response_types_supported\":[\"id_token\"],"
                        + "\"subject_types_supported\":[\"public\"],"
                        + "\"id_token_signing_alg_values_supported\":[\"ES256\",\"RS256\"]}",
                config.toString());
        assertEquals(
                "https://keys.example/jwks",
                served("https://issuer.example/path", "https://keys.example/jwks")
                        .configuration()
                        .path("jwks_uri")
                        .asText());
    }

    @Test
    void publishesEveryKeyAsAPublicSigningJwk() throws Exception {
        JsonNode keys = served("https://issuer.example", "").keySet().path("keys");
        assertEquals(2, keys.size());
        JsonNode rsa = keys.get(0);
        assertEquals(List.of("use", "kty", "kid", "alg", "n", "e"), iterable(rsa.fieldNames()));
        assertEquals("sig", rsa.path("use").asText());
        assertEquals(ServiceAccountKeys.keyId(TestKeys.RSA.getPublic()), rsa.path("kid").asText());
        RSAKey parsed = JWK.parse(rsa.toString()).toRSAKey();
        assertEquals(TestKeys.RSA.getPublic(), parsed.toPublicKey());
        JsonNode ec = keys.get(1);
        assertEquals("P-256", ec.path("crv").asText());
        assertEquals("ES256", ec.path("alg").asText());
        assertEquals(TestKeys.EC.getPublic(), JWK.parse(ec.toString()).toECKey().toPublicKey());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "http://issuer.example|issuer URL must use https scheme, got: http://issuer.example",
                "kubernetes/serviceaccount|issuer URL must use https scheme, got:"
                        + " kubernetes/serviceaccount",
                "https://issuer.example?a=b|issuer URL may not include a query, got:"
                        + " https://issuer.example?a=b",
                "https://issuer.example#x|issuer URL may not include a fragment, got:"
                        + " https://issuer.example#x",
            })
    void isNotServedForAnIssuerThatIsNoHttpsUrl(String issuer, String reason) {
        assertEquals(
                new OpenIdMetadata.NotServed(reason),
                OpenIdMetadata.discovery(issuer, "", "10.0.0.1:6443", KEYS));
    }

    @Test
    void isNotServedForAPlainHttpJwksUri() {
        assertEquals(
                new OpenIdMetadata.NotServed(
                        "jwksURI requires https scheme, parsed as: http://keys.example"),
                OpenIdMetadata.discovery("https://i.example", "http://keys.example", "", KEYS));
    }

    private static <T> List<T> iterable(Iterator<T> it) {
        List<T> list = new ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }
}
