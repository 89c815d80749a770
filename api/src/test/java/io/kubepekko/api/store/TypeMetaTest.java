package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.bytes;
import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.status.StatusCause;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A body's or a patched object's apiVersion and kind against the endpoint's, with kube-apiserver's
 * answers (its scheme's decoding errors, k8s.io/apimachinery runtime/error.go and
 * conversion/converter.go).
 */
class TypeMetaTest {

    private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");
    private static final GroupVersionKind DEPLOYMENT =
            new GroupVersionKind("apps", "v1", "Deployment");
    private static final GroupVersionKind CONFIGMAP = new GroupVersionKind("", "v1", "ConfigMap");
    private static final String SCHEME =
            " in scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"";

    static Stream<Arguments> acceptedBodies() {
        return Stream.of(
                Arguments.of("both absent are filled", POD, "{'metadata':{'name':'p'}}"),
                Arguments.of("absent apiVersion is filled", DEPLOYMENT, "{'kind':'Deployment'}"),
                Arguments.of("absent kind is filled", DEPLOYMENT, "{'apiVersion':'apps/v1'}"),
                Arguments.of(
                        "matching pair is kept",
                        ScaleConversion.GVK,
                        "{'apiVersion':'autoscaling/v1','kind':'Scale'}"),
                Arguments.of(
                        "empty strings count as absent", CONFIGMAP, "{'apiVersion':'','kind':''}"),
                Arguments.of(
                        "an apiVersion that is no group version is the URL's",
                        POD,
                        "{'apiVersion':'a/b/c','kind':'Pod'}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedBodies")
    void checkBodyEndsWithTheUrlsTypeMeta(String name, GroupVersionKind url, String json) {
        ObjectNode body = obj(json);
        assertEquals(Optional.empty(), TypeMeta.checkBody(url, body));
        assertEquals(url.apiVersion(), body.path("apiVersion").asText());
        assertEquals(url.kind(), body.path("kind").asText());
    }

    static Stream<Arguments> refusedBodies() {
        return Stream.of(
                Arguments.of(
                        "another kind of the group",
                        POD,
                        "{'apiVersion':'v1','kind':'Service'}",
                        "Service in version \"v1\" cannot be handled as a Pod: converting (v1.Service) to "
                                + "(core.Pod): unknown conversion"),
                Arguments.of(
                        "another kind without apiVersion is read in the URL's version",
                        DEPLOYMENT,
                        "{'kind':'StatefulSet'}",
                        "StatefulSet in version \"v1\" cannot be handled as a Deployment: converting "
                                + "(v1.StatefulSet) to (apps.Deployment): unknown conversion"),
                Arguments.of(
                        "a kind the scheme does not know",
                        POD,
                        "{'apiVersion':'v1','kind':'Garbage'}",
                        "Garbage in version \"v1\" cannot be handled as a Pod: no kind \"Garbage\" is registered "
                                + "for version \"v1\""
                                + SCHEME),
                Arguments.of(
                        "kinds are case-sensitive",
                        DEPLOYMENT,
                        "{'apiVersion':'apps/v1','kind':'deployment'}",
                        "deployment in version \"v1\" cannot be handled as a Deployment: no kind \"deployment\" is "
                                + "registered for version \"apps/v1\""
                                + SCHEME),
                Arguments.of(
                        "a version the scheme does not know",
                        POD,
                        "{'apiVersion':'v9'}",
                        "Pod in version \"v9\" cannot be handled as a Pod: no kind \"Pod\" is registered for "
                                + "version \"v9\""
                                + SCHEME),
                Arguments.of(
                        "a meta kind",
                        POD,
                        "{'apiVersion':'v1','kind':'Status'}",
                        "Status in version \"v1\" cannot be handled as a Pod: converting (v1.Status) to "
                                + "(core.Pod): unknown conversion"),
                Arguments.of(
                        "an object sent to its scale subresource",
                        ScaleConversion.GVK,
                        "{'apiVersion':'apps/v1','kind':'Deployment'}",
                        "Deployment in version \"v1\" cannot be handled as a Scale: converting (v1.Deployment) to "
                                + "(autoscaling.Scale): unknown conversion"),
                Arguments.of(
                        "another registered version of the kind",
                        DEPLOYMENT,
                        "{'apiVersion':'apps/v1beta1','kind':'Deployment'}",
                        "the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedBodies")
    void checkBodyRefusesAnotherTypeWith400(
            String name, GroupVersionKind url, String json, String message) {
        ApiStatus s = TypeMeta.checkBody(url, obj(json)).orElseThrow();
        assertEquals(400, s.code());
        assertEquals("BadRequest", s.reason());
        assertEquals(message, s.message());
    }

    static Stream<Arguments> refusedPatchResults() {
        return Stream.of(
                Arguments.of(
                        "a kind the scheme does not know",
                        POD,
                        "{'apiVersion':'v1','kind':'Garbage'}",
                        "no kind \"Garbage\" is registered for version \"v1\"" + SCHEME),
                Arguments.of(
                        "a version the scheme does not know",
                        POD,
                        "{'apiVersion':'v9','kind':'Pod'}",
                        "no kind \"Pod\" is registered for version \"v9\"" + SCHEME),
                Arguments.of(
                        "another kind",
                        DEPLOYMENT,
                        "{'apiVersion':'apps/v1','kind':'ReplicaSet'}",
                        "converting (v1.ReplicaSet) to (apps.Deployment): unknown conversion"),
                Arguments.of(
                        "a kind that is not a string",
                        CONFIGMAP,
                        "{'apiVersion':'v1','kind':5}",
                        "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct "
                                + "field .kind of type string"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedPatchResults")
    void checkPatchedRefusesAnotherTypeWith422OnThePatch(
            String name, GroupVersionKind url, String json, String problem) {
        ObjectNode patched = obj(json);
        ApiStatus s = TypeMeta.checkPatched(url, patched).orElseThrow();
        String value = FieldError.quote(Json.string(patched));
        assertEquals(422, s.code());
        assertEquals("Invalid", s.reason());
        assertEquals(
                " \"\" is invalid: patch: Invalid value: " + value + ": " + problem, s.message());
        assertEquals(
                List.of(
                        new StatusCause(
                                "FieldValueInvalid",
                                "Invalid value: " + value + ": " + problem,
                                "patch")),
                s.details().causes());
        assertEquals(null, s.details().kind());
        assertEquals(null, s.details().name());
    }

    @Test
    void checkPatchedTakesAnotherRegisteredVersionOfTheKindAsTheUrls() {
        ObjectNode patched =
                obj("{'apiVersion':'apps/v1beta1','kind':'Deployment','metadata':{'name':'d'}}");
        assertEquals(Optional.empty(), TypeMeta.checkPatched(DEPLOYMENT, patched));
        assertEquals("apps/v1", patched.path("apiVersion").asText());
        assertEquals("Deployment", patched.path("kind").asText());
    }

    @Test
    void checkPatchedFillsARemovedTypeMeta() {
        ObjectNode patched = obj("{'metadata':{'name':'p'}}");
        assertEquals(Optional.empty(), TypeMeta.checkPatched(POD, patched));
        assertEquals("v1", patched.path("apiVersion").asText());
        assertEquals("Pod", patched.path("kind").asText());
    }

    @Test
    void resetPatchedReplacesWhateverAStrategicPatchSet() {
        ObjectNode patched = obj("{'apiVersion':'apps/v1beta1','kind':'Garbage'}");
        TypeMeta.resetPatched(DEPLOYMENT, patched);
        assertEquals("apps/v1", patched.path("apiVersion").asText());
        assertEquals("Deployment", patched.path("kind").asText());
    }

    static Stream<Arguments> refusedApplyConfigurations() {
        return Stream.of(
                Arguments.of(
                        "another group",
                        "{'apiVersion':'apps/v1','kind':'ConfigMap'}",
                        "invalid object type: apps/v1, Kind=ConfigMap"),
                Arguments.of(
                        "another kind",
                        "{'apiVersion':'v1','kind':'Garbage'}",
                        "invalid object type: /v1, Kind=Garbage"),
                Arguments.of(
                        "no type meta",
                        "{'metadata':{'name':'cm'}}",
                        "invalid object type: /, Kind="));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedApplyConfigurations")
    void checkAppliedRefusesAnotherTypeAsTheFieldManagerDoes(
            String name, String json, String message) {
        ApiStatus s =
                assertThrows(ApiException.class, () -> TypeMeta.checkApplied(CONFIGMAP, obj(json)))
                        .status();
        assertEquals(400, s.code());
        assertEquals("BadRequest", s.reason());
        assertEquals(message, s.message());
    }

    @Test
    void repairStoredKeepsAnObjectWithTheCollectionsTypeMetaAsItIs() {
        byte[] stored =
                bytes(
                        "{'metadata':{'name':'p'},'spec':{'x':[1,{'kind':'Garbage'}]},'kind':'Pod','apiVersion':'v1'}");
        assertTrue(TypeMeta.storedMatches(POD, stored));
        assertSame(stored, TypeMeta.repairStored(POD, stored));
    }

    @Test
    void repairStoredGivesAnObjectOfAnotherTypeTheCollectionsTypeMeta() {
        byte[] stored =
                bytes(
                        "{'apiVersion':'v9','kind':'Garbage','metadata':{'name':'p'},'data':{'kind':'x'}}");
        assertFalse(TypeMeta.storedMatches(CONFIGMAP, stored));
        assertArrayEquals(
                bytes(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'p'},'data':{'kind':'x'}}"),
                TypeMeta.repairStored(CONFIGMAP, stored));
    }

    @Test
    void storedMatchesWantsBothFields() {
        assertFalse(TypeMeta.storedMatches(POD, bytes("{'kind':'Pod'}")));
        assertFalse(TypeMeta.storedMatches(POD, bytes("{'apiVersion':'v1','kind':5}")));
    }
}
