package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.kubepekko.api.status.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ContinueTokenTest {

    private static String b64(String json) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void encodesKubernetesShape() {
        assertEquals(
                b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"default/cm2\"}"),
                new ContinueToken(5, "default/cm2").encode());
    }

    static Stream<Arguments> tokens() {
        return Stream.of(
                arguments("namespaced key", new ContinueToken(42, "default/cm-1")),
                arguments("cluster-scoped key", new ContinueToken(7, "node-a")),
                arguments("dotted name", new ContinueToken(9_000_000_000L, "kube-system/a.b.c")),
                arguments("latest after an inconsistent continue", new ContinueToken(-1, "ns/x")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tokens")
    void roundTrips(String name, ContinueToken token) {
        String encoded = token.encode();
        assertFalse(encoded.contains("=") || encoded.contains("+") || encoded.contains("/"));
        assertEquals(token, ContinueToken.decode(encoded));
    }

    @Test
    void readsTokensKubeApiserverIssued() {
        // etcd-backed kube-apiserver starts after the last key with a NUL and may add "rc".
        ContinueToken t =
                ContinueToken.decode(
                        b64(
                                "{\"v\":\"meta.k8s.io/v1\",\"rv\":123,\"start\":\"cm1\\u0000\",\"rc\":3}"));
        assertEquals(new ContinueToken(123, "cm1\u0000"), t);
    }

    @Test
    void negativeVersionMeansLatest() {
        assertTrue(ContinueToken.decode(new ContinueToken(-1, "a").encode()).latest());
        assertFalse(new ContinueToken(3, "a").latest());
    }

    static Stream<Arguments> badTokens() {
        return Stream.of(
                arguments("not base64", "!!!", "illegal base64 data at input byte 0"),
                arguments(
                        "dangling base64 character",
                        "abcde",
                        "illegal base64 data at input byte 4"),
                arguments(
                        "padding is not raw encoding",
                        "eyJ2IjoxfQ==",
                        "illegal base64 data at input byte 10"),
                arguments("standard alphabet", "ab+/", "illegal base64 data at input byte 2"),
                arguments("truncated JSON", b64("{\"v\":"), "unexpected end of JSON input"),
                arguments(
                        "not an object",
                        b64("[1]"),
                        "json: cannot unmarshal array into Go value of type storage.continueToken"),
                arguments(
                        "rv as string",
                        b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":\"5\",\"start\":\"a\"}"),
                        "json: cannot unmarshal string into Go struct field continueToken.rv of type int64"),
                arguments(
                        "fractional rv",
                        b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":1.5,\"start\":\"a\"}"),
                        "json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64"),
                arguments(
                        "start as number",
                        b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":1}"),
                        "json: cannot unmarshal number into Go struct field continueToken.start of type string"),
                arguments(
                        "unknown version",
                        b64("{\"v\":\"v2\",\"rv\":5,\"start\":\"a\"}"),
                        "server does not recognize this encoded version v2"),
                arguments(
                        "missing version",
                        b64("{\"rv\":5,\"start\":\"a\"}"),
                        "server does not recognize this encoded version "),
                arguments(
                        "zero rv",
                        b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":0,\"start\":\"a\"}"),
                        "incorrect encoded start resourceVersion (version meta.k8s.io/v1)"),
                arguments(
                        "empty start",
                        b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"\"}"),
                        "encoded start key empty (version meta.k8s.io/v1)"),
                arguments(
                        "start climbs out",
                        b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"../secrets/x\"}"),
                        "../secrets/x"),
                arguments(
                        "start with empty segment",
                        b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"a//b\"}"),
                        "a//b"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTokens")
    void rejectsMalformedTokenAsBadRequest(String name, String token, String why) {
        ApiException e = assertThrows(ApiException.class, () -> ContinueToken.decode(token));
        assertEquals(400, e.status().code());
        assertEquals("BadRequest", e.status().reason());
        assertEquals(
                "invalid continue token: continue key is not valid: " + why, e.status().message());
    }
}
