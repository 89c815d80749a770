package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A body's apiVersion and kind against the endpoint's: defaulted when absent, refused when different. */
class TypeMetaTest {

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of("both absent are filled", "v1", "Pod", "{'metadata':{'name':'p'}}"),
                Arguments.of("absent apiVersion is filled", "apps/v1", "Deployment", "{'kind':'Deployment'}"),
                Arguments.of("absent kind is filled", "apps/v1", "Deployment", "{'apiVersion':'apps/v1'}"),
                Arguments.of("matching pair is kept", "autoscaling/v1", "Scale",
                        "{'apiVersion':'autoscaling/v1','kind':'Scale'}"),
                Arguments.of("empty strings count as absent", "v1", "ConfigMap", "{'apiVersion':'','kind':''}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void checkFillsAbsentTypeMeta(String name, String apiVersion, String kind, String json) {
        ObjectNode body = obj(json);
        TypeMeta.check(apiVersion, kind, body);
        assertEquals(apiVersion, body.path("apiVersion").asText());
        assertEquals(kind, body.path("kind").asText());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("another kind", "v1", "Pod", "{'apiVersion':'v1','kind':'Service'}",
                        "Service in version \"v1\" cannot be handled as a Pod: the kind in the body (Service) "
                                + "does not match the kind of the URL (Pod)"),
                Arguments.of("another kind without apiVersion names the endpoint's version", "apps/v1", "Deployment",
                        "{'kind':'StatefulSet'}",
                        "StatefulSet in version \"v1\" cannot be handled as a Deployment: the kind in the body "
                                + "(StatefulSet) does not match the kind of the URL (Deployment)"),
                Arguments.of("another version", "apps/v1", "Deployment",
                        "{'apiVersion':'apps/v1beta1','kind':'Deployment'}",
                        "the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)"),
                Arguments.of("another version without kind", "v1", "Pod", "{'apiVersion':'v2'}",
                        "the API version in the data (v2) does not match the expected API version (v1)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void checkRefusesAnotherTypeWith400(String name, String apiVersion, String kind, String json, String message) {
        ApiStatus s = assertThrows(ApiException.class, () -> TypeMeta.check(apiVersion, kind, obj(json))).status();
        assertEquals(400, s.code());
        assertEquals("BadRequest", s.reason());
        assertEquals(message, s.message());
    }
}
