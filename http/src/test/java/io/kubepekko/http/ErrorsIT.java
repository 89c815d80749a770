package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Named.named;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests the server cannot serve: unknown paths and kinds, wrong methods, unacceptable media
 * types, and bad input of every sort. Each answers a {@code Status} with the right 4xx, never a
 * 5xx, and never a stack trace.
 */
class ErrorsIT {

    private static final String NOT_FOUND = "the server could not find the requested resource";
    private static final String NOT_ALLOWED =
            "the server does not allow this method on the requested resource";
    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";

    /** Placeholders in bad-input paths, replaced by an object created for that case alone. */
    private static final String CM = "{cm}";

    private static final String DEPLOY = "{deploy}";
    private static final AtomicInteger names = new AtomicInteger();

    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        api.create(
                CMS,
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'fixture'},'data':{'a':'1'}}"));
        api.create(DEPLOYMENTS, deployment("fixture"));
    }

    private static String deployment(String name) {
        return json(
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                        + name
                        + "'},"
                        + "'spec':{'replicas':1,'selector':{'matchLabels':{'app':'f'}},"
                        + "'template':{'metadata':{'labels':{'app':'f'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}}");
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    /**
     * A write the pipeline refuses answers its Status in the encoding negotiated for errors, not
     * for the object: protobuf when asked, and YAML when the first entry asks for a Table, since
     * kube-apiserver negotiates an error without transformations (responsewriters.ErrorNegotiated).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {PROTOBUF, "application/json;as=Table;g=meta.k8s.io;v=v1, application/yaml"})
    void aRefusedWriteAnswersItsStatusInTheEncodingNegotiatedForErrors(String accept) {
        Response exists =
                api.call("POST", CMS)
                        .header("Accept", accept)
                        .json(
                                json(
                                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'fixture'}}"))
                        .send();
        ObjectNode alreadyExists = statusIn(exists, accept, 409, "AlreadyExists");
        assertEquals(
                "configmaps \"fixture\" already exists", alreadyExists.path("message").asText());

        Response renamed =
                api.call("PUT", CMS + "/fixture")
                        .header("Accept", accept)
                        .json(
                                json(
                                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'other'}}"))
                        .send();
        assertEquals(
                "the name of the object (other) does not match the name on the URL (fixture)",
                statusIn(renamed, accept, 400, "BadRequest").path("message").asText());

        Response retyped =
                api.call("PATCH", CMS + "/fixture")
                        .header("Accept", accept)
                        .body("application/merge-patch+json", json("{'kind':'Secret'}"))
                        .send();
        statusIn(retyped, accept, 422, "Invalid");
        assertEquals(
                "1",
                api.get(CMS + "/fixture").assertCode(200).json().path("data").path("a").asText());
    }

    /** The Status of {@code r}, decoded from the encoding {@code accept} asks errors in. */
    private static ObjectNode statusIn(Response r, String accept, int code, String reason) {
        r.assertCode(code);
        ObjectNode status;
        if (accept.equals(PROTOBUF)) {
            assertEquals(PROTOBUF, r.mediaType());
            status =
                    ProtobufBodies.builtin()
                            .decode(r.body(), new GroupVersionKind("", "v1", "Status"));
        } else {
            assertEquals("application/yaml", r.mediaType());
            status = r.yaml();
        }
        assertEquals("Status", status.path("kind").asText());
        assertEquals(code, status.path("code").asInt());
        assertEquals(reason, status.path("reason").asText());
        return status;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/foo",
                "/apis/nope.example.com/v1/things",
                "/api/v9/pods",
                "/apis/apps/v9/deployments",
                "/api/v1/namespaces/default/foos",
                "/apis/apps/v1/namespaces/default/widgets/x",
                "/api/v1/foos",
                "/api/v1/namespaces/default/configmaps/fixture/nosuchsub"
            })
    void unknownPathOrResourceIsNotFound(String path) {
        api.get(path).assertStatus(404, "NotFound", NOT_FOUND);
    }

    /**
     * Every server signs with the service-account key under its data directory, so the token
     * subresource is served; a token for a service account that does not exist is kube's 404 for it
     * (no controller creates {@code default} here).
     */
    @Test
    void aTokenOfAServiceAccountThatDoesNotExistIsNotFound() {
        api.post(
                        "/api/v1/namespaces/default/serviceaccounts/nobody/token",
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest','spec':{}}"))
                .assertStatus(404, "NotFound", "serviceaccounts \"nobody\" not found");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/apis/rbac.authorization.k8s.io/v1/namespaces/default/clusterroles",
                "/apis/rbac.authorization.k8s.io/v1/namespaces/default/clusterroles/admin",
                "/api/v1/namespaces/default/nodes"
            })
    void clusterScopedKindUnderNamespacePathIsNotFound(String path) {
        api.get(path).assertStatus(404, "NotFound", NOT_FOUND);
    }

    static Stream<Arguments> methodsNotAllowed() {
        return Stream.of(
                Arguments.of(named("POST on an item path", "POST"), CMS + "/fixture"),
                Arguments.of(named("PUT on a collection", "PUT"), CMS),
                Arguments.of(named("PATCH on a collection", "PATCH"), CMS),
                Arguments.of(named("POST on all namespaces", "POST"), "/api/v1/configmaps"),
                Arguments.of(named("DELETE on all namespaces", "DELETE"), "/api/v1/configmaps"),
                Arguments.of(
                        named("deletecollection on namespaces", "DELETE"), "/api/v1/namespaces"),
                Arguments.of(named("POST on scale", "POST"), DEPLOYMENTS + "/fixture/scale"),
                Arguments.of(named("DELETE on status", "DELETE"), DEPLOYMENTS + "/fixture/status"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("methodsNotAllowed")
    void unsupportedVerbIsMethodNotAllowed(String method, String path) {
        api.call(method, path).json("{}").send().assertStatus(405, "MethodNotAllowed", NOT_ALLOWED);
    }

    @Test
    void deleteCollectionOfNamespacesDeletesNothing() {
        api.delete("/api/v1/namespaces").assertCode(405);
        api.get("/api/v1/namespaces/default").assertCode(200);
    }

    /** A client accepting nothing the server writes gets 406, not a body it cannot read. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "text/html",
                "application/xml",
                "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io",
                "application/json;q=0"
            })
    void unacceptableMediaTypeIsNotAcceptable(String accept) {
        api.get(CMS + "/fixture", accept)
                .assertStatusMessageStartsWith(
                        406,
                        "NotAcceptable",
                        "only the following media types are accepted: application/json, application/yaml");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1alpha1, application/json",
                "application/json;as=Table;v=v9;g=meta.k8s.io,application/json",
                "application/json, application/vnd.kubernetes.protobuf",
                "application/json, */*",
                "*/*"
            })
    void acceptListWithJsonFallbackAnswersJson(String accept) {
        Response r = api.get(CMS, accept).assertCode(200);
        assertEquals("application/json", r.mediaType());
        assertEquals("ConfigMapList", r.json().path("kind").asText());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"text/plain", "application/xml", "application/x-www-form-urlencoded"})
    void unsupportedBodyMediaTypeIsUnsupportedMediaType(String contentType) {
        api.call("POST", CMS)
                .body(
                        contentType,
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'}}"))
                .send()
                .assertStatusMessageStartsWith(
                        415,
                        "UnsupportedMediaType",
                        "the body of the request was in an unknown format - accepted media types include: "
                                + "application/json, application/yaml");
        api.get(CMS + "/x").assertCode(404);
    }

    @Test
    void jsonWithCharsetParameterIsAccepted() {
        api.call("POST", CMS)
                .body(
                        "application/json; charset=utf-8",
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'charset'}}"))
                .send()
                .assertCode(201);
    }

    @Test
    void bodyAboveThreeMebibytesIsTooLarge() {
        String big = "x".repeat(3 * 1024 * 1024);
        api.post(
                        CMS,
                        json(
                                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'big'},'data':{'a':'")
                                + big
                                + "\"}}")
                .assertFailure(413, "RequestEntityTooLarge");
    }

    /**
     * One bad request: method, path, Content-Type, body, and Kubernetes' code for it (0: any 4xx).
     */
    record Bad(String method, String path, String contentType, String body, int code) {
        @Override
        public String toString() {
            return method + " " + path + (body == null ? "" : " " + body);
        }
    }

    static Stream<Arguments> badInput() {
        String merge = "application/merge-patch+json";
        String jsonPatch = "application/json-patch+json";
        return Stream.of(
                bad("body is an array", "POST", CMS, "application/json", "[]", 400),
                bad("body is a string", "POST", CMS, "application/json", "\"cm\"", 400),
                bad("body is empty", "POST", CMS, "application/json", "", 400),
                bad("body is not JSON", "POST", CMS, "application/json", "not json", 400),
                bad("YAML body is not YAML", "POST", CMS, "application/yaml", "a: [b", 400),
                bad(
                        "metadata is a string",
                        "POST",
                        CMS,
                        "application/json",
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':'x'}"),
                        400),
                bad(
                        "metadata is an array",
                        "POST",
                        CMS,
                        "application/json",
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':[]}"),
                        400),
                bad(
                        "name is a number",
                        "POST",
                        CMS,
                        "application/json",
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':5}}"),
                        400),
                bad(
                        "labels is a number",
                        "POST",
                        CMS,
                        "application/json",
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'l1','labels':5}}"),
                        400),
                bad(
                        "label value is an object",
                        "POST",
                        CMS,
                        "application/json",
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'l2','labels':{'a':{}}}}"),
                        400),
                bad(
                        "data is an array",
                        "POST",
                        CMS,
                        "application/json",
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'d'},'data':[]}"),
                        400),
                bad(
                        "kind is an object",
                        "POST",
                        CMS,
                        "application/json",
                        json("{'apiVersion':'v1','kind':{},'metadata':{'name':'k'}}"),
                        400),
                bad(
                        "PUT metadata is a string",
                        "PUT",
                        CM,
                        "application/json",
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':'x'}"),
                        400),
                bad(
                        "PUT resourceVersion is a number",
                        "PUT",
                        CM,
                        "application/json",
                        json(
                                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'{name}','resourceVersion':1}}"),
                        400),
                bad("JSON patch is an object", "PATCH", CM, jsonPatch, "{}", 400),
                bad("JSON patch is not JSON", "PATCH", CM, jsonPatch, "[", 400),
                bad(
                        "JSON patch has an unknown op",
                        "PATCH",
                        CM,
                        jsonPatch,
                        json("[{'op':'bogus','path':'/data/a'}]"),
                        422),
                bad(
                        "JSON patch removes a missing path",
                        "PATCH",
                        CM,
                        jsonPatch,
                        json("[{'op':'remove','path':'/data/zz'}]"),
                        422),
                bad(
                        "JSON patch makes metadata a string",
                        "PATCH",
                        CM,
                        jsonPatch,
                        json("[{'op':'replace','path':'/metadata','value':'x'}]"),
                        0),
                bad(
                        "JSON patch removes metadata",
                        "PATCH",
                        CM,
                        jsonPatch,
                        json("[{'op':'remove','path':'/metadata'}]"),
                        0),
                bad("merge patch is not JSON", "PATCH", CM, merge, "{", 400),
                bad("merge patch is an array", "PATCH", CM, merge, "[1]", 0),
                bad(
                        "merge patch makes metadata a string",
                        "PATCH",
                        CM,
                        merge,
                        json("{'metadata':'x'}"),
                        0),
                bad("merge patch makes data a number", "PATCH", CM, merge, json("{'data':5}"), 0),
                bad(
                        "scale replicas is a string",
                        "PUT",
                        DEPLOY + "/scale",
                        "application/json",
                        json(
                                "{'apiVersion':'autoscaling/v1','kind':'Scale','metadata':{'name':'{name}'},"
                                        + "'spec':{'replicas':'x'}}"),
                        400),
                bad(
                        "scale patch replicas is a string",
                        "PATCH",
                        DEPLOY + "/scale",
                        merge,
                        json("{'spec':{'replicas':'x'}}"),
                        0),
                bad(
                        "status is a string",
                        "PUT",
                        DEPLOY + "/status",
                        "application/json",
                        json(
                                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'{name}'},'status':'x'}"),
                        400),
                bad(
                        "dryRun value unknown",
                        "POST",
                        CMS + "?dryRun=bogus",
                        "application/json",
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'dry'}}"),
                        422),
                bad(
                        "fieldValidation value unknown",
                        "POST",
                        CMS + "?fieldValidation=bogus",
                        "application/json",
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'fv'}}"),
                        422),
                bad(
                        "labelSelector unparsable",
                        "GET",
                        CMS + "?labelSelector=a%3D%3D%3Db%3D",
                        null,
                        null,
                        400),
                bad(
                        "fieldSelector unparsable",
                        "GET",
                        CMS + "?fieldSelector=metadata.name",
                        null,
                        null,
                        400),
                bad("limit not a number", "GET", CMS + "?limit=abc", null, null, 400),
                bad(
                        "timeoutSeconds not a number",
                        "GET",
                        CMS + "?timeoutSeconds=abc",
                        null,
                        null,
                        400),
                bad(
                        "resourceVersionMatch without resourceVersion",
                        "GET",
                        CMS + "?resourceVersionMatch=Exact",
                        null,
                        null,
                        422),
                bad(
                        "continue token not valid",
                        "GET",
                        CMS + "?limit=1&continue=%21%21",
                        null,
                        null,
                        400),
                bad("DeleteOptions not JSON", "DELETE", CM, "application/json", "{", 400),
                bad("DeleteOptions is an array", "DELETE", CM, "application/json", "[]", 400),
                bad(
                        "DeleteOptions preconditions is a string",
                        "DELETE",
                        CM,
                        "application/json",
                        json("{'preconditions':'x'}"),
                        400),
                bad(
                        "deletecollection with unparsable selector",
                        "DELETE",
                        CMS + "?labelSelector=%21%21",
                        null,
                        null,
                        400));
    }

    private static Arguments bad(
            String name, String method, String path, String contentType, String body, int code) {
        return Arguments.of(named(name, new Bad(method, path, contentType, body, code)));
    }

    /**
     * Each case gets its own configmap or deployment, so that a bad write the server wrongly
     * accepts cannot spoil the cases after it; the object must be unchanged afterwards.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void badInputAnswersClientErrorStatusWithoutStackTrace(Bad bad) {
        String target = null;
        String targetPath = null;
        String path = bad.path();
        String body = bad.body();
        if (path.startsWith(CM) || path.startsWith(DEPLOY)) {
            boolean cm = path.startsWith(CM);
            String name = "bad-" + names.incrementAndGet();
            targetPath = (cm ? CMS : DEPLOYMENTS) + "/" + name;
            target =
                    Json.string(
                            cm
                                    ? api.create(
                                            CMS,
                                            json(
                                                    "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                                            + name
                                                            + "'},'data':{'a':'1'}}"))
                                    : api.create(DEPLOYMENTS, deployment(name)));
            path = targetPath + path.substring((cm ? CM : DEPLOY).length());
            body = body == null ? null : body.replace("{name}", name);
        }
        TestApiServer.Call call = api.call(bad.method(), path);
        if (body != null) {
            call.body(bad.contentType(), body);
        }
        Response r = call.send();
        assertTrue(
                r.code() < 500,
                () -> "bad input must never answer 5xx: " + r.code() + " " + r.text());
        if (bad.code() == 0) {
            assertTrue(r.code() >= 400, () -> "expected a 4xx: " + r.code() + " " + r.text());
            r.assertNoStackTrace();
            assertEquals("Status", r.json().path("kind").asText());
        } else {
            ObjectNode s = r.assertFailure(bad.code(), reasonFor(bad.code()));
            assertTrue(!s.path("message").asText().isBlank(), "the message names the problem");
        }
        if (targetPath != null) {
            assertEquals(target, api.get(targetPath).text(), "a refused write changes nothing");
        }
    }

    private static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 422 -> "Invalid";
            default -> throw new IllegalArgumentException("no reason for " + code);
        };
    }

    @Test
    void failureBodyIsAStatusEvenForPathsOutsideTheApi() {
        Response r = api.get("/no/such/thing");
        ObjectNode s = r.assertStatus(404, "NotFound", NOT_FOUND);
        assertTrue(s.path("details").isObject());
    }
}
