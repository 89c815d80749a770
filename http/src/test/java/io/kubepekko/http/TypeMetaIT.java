package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A write never changes the kind or apiVersion an object is stored and served as: patches of every
 * type, PUT and the status and scale subresources, dry runs included, answer kube-apiserver's
 * refusal or end with the collection's type meta.
 */
class TypeMetaIT {

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static final String SCHEME =
            " in scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"";
    private static final String MERGE = "application/merge-patch+json";
    private static final String JSON_PATCH = "application/json-patch+json";
    private static final String STRATEGIC = "application/strategic-merge-patch+json";
    private static final String APPLY = "application/apply-patch+yaml";
    private static final AtomicInteger names = new AtomicInteger();

    private static String deployment(String name) {
        return json(
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                        + name
                        + "'},"
                        + "'spec':{'replicas':1,'selector':{'matchLabels':{'app':'f'}},"
                        + "'template':{'metadata':{'labels':{'app':'f'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}}");
    }

    /** A new Deployment's path. */
    private static String newDeployment() {
        String name = "d" + names.incrementAndGet();
        api.create("/apis/apps/v1/namespaces/default/deployments", deployment(name));
        return "/apis/apps/v1/namespaces/default/deployments/" + name;
    }

    /** A new ConfigMap's path. */
    private static String newConfigMap() {
        String name = "cm" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces/default/configmaps",
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                + name
                                + "'},'data':{'a':'1'}}"));
        return "/api/v1/namespaces/default/configmaps/" + name;
    }

    static Stream<Arguments> refusedPatches() {
        String garbage = "no kind \"Garbage\" is registered for version \"apps/v1\"" + SCHEME;
        return Stream.of(
                Arguments.of("merge patch of kind", "", MERGE, "{\"kind\":\"Garbage\"}", garbage),
                Arguments.of(
                        "merge patch of kind, dry run",
                        "?dryRun=All",
                        MERGE,
                        "{\"kind\":\"Garbage\"}",
                        garbage),
                Arguments.of(
                        "merge patch of apiVersion",
                        "",
                        MERGE,
                        "{\"apiVersion\":\"v9\"}",
                        "no kind \"Deployment\" is registered for version \"v9\"" + SCHEME),
                Arguments.of(
                        "JSON patch replacing /kind",
                        "",
                        JSON_PATCH,
                        "[{\"op\":\"replace\",\"path\":\"/kind\",\"value\":\"Garbage\"}]",
                        garbage),
                Arguments.of(
                        "JSON patch of another kind",
                        "",
                        JSON_PATCH,
                        "[{\"op\":\"replace\",\"path\":\"/kind\",\"value\":\"StatefulSet\"}]",
                        "converting (v1.StatefulSet) to (apps.Deployment): unknown conversion"),
                Arguments.of(
                        "merge patch of kind on /status",
                        "/status",
                        MERGE,
                        "{\"kind\":\"Garbage\"}",
                        garbage),
                Arguments.of(
                        "merge patch of kind on /scale",
                        "/scale",
                        MERGE,
                        "{\"kind\":\"Garbage\"}",
                        "no kind \"Garbage\" is registered for version \"autoscaling/v1\""
                                + SCHEME));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedPatches")
    void patchToAnotherTypeIs422AndChangesNothing(
            String name, String suffix, String contentType, String patch, String problem) {
        String path = newDeployment();
        ObjectNode before = api.get(path).assertCode(200).json();
        ObjectNode status =
                api.patch(path + suffix, contentType, patch).assertFailure(422, "Invalid");
        String message = status.path("message").asText();
        assertTrue(message.startsWith(" \"\" is invalid: patch: Invalid value: \"{"), message);
        assertTrue(message.endsWith("\": " + problem), message);
        assertEquals("patch", status.at("/details/causes/0/field").asText());
        assertEquals(before, api.get(path).assertCode(200).json());
        assertEquals(
                "Scale", api.get(path + "/scale").assertCode(200).json().path("kind").asText());
    }

    @Test
    void strategicPatchOfTypeMetaIsIgnoredAsKubernetesIgnoresIt() {
        String path = newDeployment();
        ObjectNode before = api.get(path).assertCode(200).json();
        ObjectNode after =
                api.patch(path, STRATEGIC, "{\"apiVersion\":\"apps/v1beta1\",\"kind\":\"Garbage\"}")
                        .assertCode(200)
                        .json();
        assertEquals("apps/v1", after.path("apiVersion").asText());
        assertEquals("Deployment", after.path("kind").asText());
        assertEquals(before, api.get(path).assertCode(200).json(), "a no-op");
    }

    @Test
    void mergePatchToAnotherRegisteredVersionOfTheKindKeepsTheServedVersion() {
        String path = newDeployment();
        ObjectNode after =
                api.patch(
                                path,
                                MERGE,
                                "{\"apiVersion\":\"apps/v1beta1\",\"metadata\":{\"labels\":{\"a\":\"b\"}}}")
                        .assertCode(200)
                        .json();
        assertEquals("apps/v1", after.path("apiVersion").asText());
        assertEquals("apps/v1", api.get(path).assertCode(200).json().path("apiVersion").asText());
        assertEquals("b", api.get(path).json().at("/metadata/labels/a").asText());
    }

    @Test
    void putOfAnotherKindIs400() {
        String path = newConfigMap();
        ObjectNode body = api.get(path).assertCode(200).json();
        body.put("kind", "Garbage");
        api.put(path, body.toString())
                .assertStatus(
                        400,
                        "BadRequest",
                        "Garbage in version \"v1\" cannot be handled as "
                                + "a ConfigMap: no kind \"Garbage\" is registered for version \"v1\""
                                + SCHEME);
        body.put("kind", "Secret");
        api.put(path, body.toString())
                .assertStatus(
                        400,
                        "BadRequest",
                        "Secret in version \"v1\" cannot be handled as "
                                + "a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion");
        assertEquals("ConfigMap", api.get(path).json().path("kind").asText());
    }

    @Test
    void applyOfAnotherKindIs400() {
        String path = newConfigMap();
        String name = path.substring(path.lastIndexOf('/') + 1);
        api.patch(
                        path + "?fieldManager=m",
                        APPLY,
                        "apiVersion: v1\nkind: Garbage\nmetadata:\n  name: " + name + "\n")
                .assertStatus(400, "BadRequest", "invalid object type: /v1, Kind=Garbage");
        assertEquals("ConfigMap", api.get(path).json().path("kind").asText());
    }
}
