package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The apiVersion/kind of a delete's body, decoded as kube-apiserver's meta scheme decodes it. */
class DeleteOptionsTypeTest {

    private static void check(String body) throws IOException {
        DeleteOptionsType.check(Json.MAPPER.readTree(body), body.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{}",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\"}",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"meta.k8s.io/v1\"}",
                "{\"apiVersion\":\"v1\"}",
                "{\"kind\":\"DeleteOptions\"}",
                "{\"kind\":\"\",\"apiVersion\":\"\"}",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"apps/v1\"}",
                "{\"apiVersion\":\"batch/v1beta1\"}",
                "{\"apiVersion\":\"meta.k8s.io/\"}",
                "{\"apiVersion\":\"/\"}"
            })
    void deleteOptionsOfAnyGroupAndVersionOrNoTypeAtAllAreAccepted(String body) {
        assertDoesNotThrow(() -> check(body));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"kind\":\"Pod\",\"apiVersion\":\"v1\"} | no kind \"Pod\" is registered for version \"v1\" in scheme "
                        + "\"pkg/apis/meta/internalversion/scheme/register.go:27\"",
                "{\"kind\":\"Pod\"} | no kind \"Pod\" is registered for version \"meta.k8s.io/v1\" in scheme "
                        + "\"pkg/apis/meta/internalversion/scheme/register.go:27\"",
                "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"} | no kind \"Deployment\" is registered for version "
                        + "\"apps/v1\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\"",
                "{\"kind\":\"deleteoptions\",\"apiVersion\":\"v1\"} | no kind \"deleteoptions\" is registered for version "
                        + "\"v1\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\"",
                "{\"kind\":\"Pod\",\"apiVersion\":\"meta.k8s.io/__internal\"} | no kind \"Pod\" is registered for the "
                        + "internal version of group \"meta.k8s.io\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\"",
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\"} | converting (v1.Status) to (v1.DeleteOptions): unknown conversion",
                "{\"kind\":\"APIResourceList\",\"apiVersion\":\"apps/v1\"} | converting (v1.APIResourceList) to "
                        + "(v1.DeleteOptions): unknown conversion",
                "{\"kind\":\"ListOptions\",\"apiVersion\":\"meta.k8s.io/v1\"} | converting (v1.ListOptions) to "
                        + "(v1.DeleteOptions): unknown conversion",
                "{\"kind\":\"PartialObjectMetadataList\",\"apiVersion\":\"meta.k8s.io/v1beta1\"} | converting "
                        + "(v1beta1.PartialObjectMetadataList) to (v1.DeleteOptions): unknown conversion",
                "{\"kind\":\"ListOptions\",\"apiVersion\":\"v1\"} | no kind \"ListOptions\" is registered for version "
                        + "\"v1\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\"",
                "{\"apiVersion\":\"apps/\"} | Object 'apiVersion' is missing in '{\"apiVersion\":\"apps/\"}'",
                "{\"apiVersion\":\"a/b/c\"} | unexpected GroupVersion string: a/b/c",
            })
    void anotherKindIsABadRequestWithTheDecodersMessage(String body, String message) {
        ApiException e = assertThrows(ApiException.class, () -> check(body));
        assertEquals(400, e.status().code());
        assertEquals("BadRequest", e.status().reason());
        assertEquals(message, e.status().message());
    }
}
