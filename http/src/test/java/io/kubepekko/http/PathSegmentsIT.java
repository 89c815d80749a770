package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Request paths holding dot segments, encoded slashes and backslashes, and empty segments, sent
 * byte for byte (no client resolves them first). kube-apiserver routes on the decoded path without
 * ever resolving {@code .} or {@code ..}: such a segment is a name, and no name reaches another
 * object. Every answer here is a {@code Status} (never another object, never a 5xx), and nothing
 * anywhere changes.
 */
class PathSegmentsIT {

    private static final String NOT_FOUND = "the server could not find the requested resource";

    /** Collections whose every object is compared before and after the walk. */
    private static final List<String> WATCHED =
            List.of(
                    "/api/v1/namespaces",
                    "/api/v1/configmaps",
                    "/api/v1/secrets",
                    "/apis/apps/v1/deployments",
                    "/apis/rbac.authorization.k8s.io/v1/clusterroles");

    /**
     * Every route shape; a {@code {segment}} is one that the walk replaces (its text is the value
     * it has otherwise) and {@code {+}} marks where an extra segment is appended.
     */
    private static final List<String> SHAPES =
            List.of(
                    "/api/{v1}/{namespaces}",
                    "/api/v1/namespaces/{walk-b}",
                    "/api/v1/namespaces/{walk-b}/{status}",
                    "/api/v1/namespaces/{walk-b}/{finalize}",
                    "/api/v1/namespaces/{walk-a}/{configmaps}",
                    "/api/v1/namespaces/{walk-a}/configmaps/{cm}",
                    "/api/v1/namespaces/{walk-b}/secrets/{s}",
                    "/apis/{apps}/{v1}/namespaces/{walk-a}/{deployments}",
                    "/apis/apps/v1/namespaces/{walk-a}/deployments/{d}/{status}",
                    "/apis/apps/v1/namespaces/{walk-a}/deployments/{d}/{scale}",
                    "/apis/rbac.authorization.k8s.io/v1/{clusterroles}",
                    "/apis/rbac.authorization.k8s.io/v1/clusterroles/{walk-cr}");

    /**
     * What replaces a segment: each decodes to, or into several segments holding, a dot segment.
     */
    private static final List<String> DOTS =
            List.of(
                    ".",
                    "..",
                    "%2e",
                    "%2E",
                    "%2e%2e",
                    "%2E%2e",
                    ".%2e",
                    "%2e.",
                    "..%2f..",
                    "%2e%2e%2F%2e%2e",
                    "%2f..",
                    "..%5c..%2f..",
                    "%2F%2e%2e%2F%2e%2e%2Fnamespaces",
                    "%2E%2E/%2e%2e/%2e%2e/namespaces/kube-system/secrets");

    private static final Pattern SEGMENT = Pattern.compile("\\{([^}]*)}");

    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        for (String ns : List.of("walk-a", "walk-b")) {
            api.create(
                    "/api/v1/namespaces",
                    json(
                            "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                    + ns
                                    + "'}}"));
            api.create(
                    "/api/v1/namespaces/" + ns + "/configmaps",
                    json(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm'},'data':{'in':'"
                                    + ns
                                    + "'}}"));
        }
        api.create(
                "/api/v1/namespaces/walk-b/secrets",
                json(
                        "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'s'},'stringData':{'k':'v'}}"));
        api.create(
                "/apis/apps/v1/namespaces/walk-a/deployments",
                json(
                        "{'apiVersion':'apps/v1','kind':'Deployment',"
                                + "'metadata':{'name':'d'},'spec':{'replicas':1,'selector':{'matchLabels':{'app':'d'}},"
                                + "'template':{'metadata':{'labels':{'app':'d'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}}"));
        api.create(
                "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                json(
                        "{'apiVersion':'rbac.authorization.k8s.io/v1',"
                                + "'kind':'ClusterRole','metadata':{'name':'walk-cr'},'rules':[]}"));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static Response send(String method, String target, String body) {
        return RawHttp.send(
                api.url(), method, target, body == null ? Map.of() : RawHttp.json(), body);
    }

    /**
     * Every object of the watched collections (by kind, namespace and name) and each collection's
     * version.
     */
    private static Map<String, String> snapshot() throws IOException {
        Map<String, String> all = new TreeMap<>();
        for (String collection : WATCHED) {
            JsonNode list = Json.MAPPER.readTree(send("GET", collection, null).body());
            all.put(collection, list.path("metadata").path("resourceVersion").asText());
            for (JsonNode item : list.path("items")) {
                JsonNode meta = item.path("metadata");
                all.put(
                        collection
                                + " "
                                + meta.path("namespace").asText()
                                + "/"
                                + meta.path("name").asText(),
                        item.toString());
            }
        }
        return all;
    }

    /** Problems with an answer that must be a 4xx Status, or an empty list. */
    private static List<String> notARefusal(Response a) {
        List<String> problems = new ArrayList<>();
        if (a.code() < 400 || a.code() >= 500) {
            problems.add("answered " + a.code());
        }
        ObjectNode status;
        try {
            status = (ObjectNode) Json.MAPPER.readTree(a.body());
        } catch (IOException | ClassCastException e) {
            problems.add("not a JSON object: " + a.text());
            return problems;
        }
        if (!"Status".equals(status.path("kind").asText())
                || !"v1".equals(status.path("apiVersion").asText())
                || !"Failure".equals(status.path("status").asText())
                || status.path("code").asInt() != a.code()
                || status.path("reason").asText().isEmpty()
                || status.path("message").asText().isEmpty()) {
            problems.add("not a Status: " + a.text());
        }
        return problems;
    }

    /**
     * The paths of every shape with one segment replaced by {@code replacement}, or one appended.
     */
    private static List<String> walk(String replacement) {
        List<String> paths = new ArrayList<>();
        for (String shape : SHAPES) {
            Matcher m = SEGMENT.matcher(shape);
            List<int[]> spans = new ArrayList<>();
            while (m.find()) {
                spans.add(new int[] {m.start(), m.end()});
            }
            for (int[] span : spans) {
                paths.add(
                        plain(shape.substring(0, span[0]))
                                + replacement
                                + plain(shape.substring(span[1])));
            }
            paths.add(plain(shape) + "/" + replacement);
        }
        return paths;
    }

    private static String plain(String shape) {
        return SEGMENT.matcher(shape).replaceAll("$1");
    }

    @Test
    void dotSegmentsInAnyPositionOnEveryVerbNeverReachAnotherObject() throws IOException {
        Map<String, String> before = snapshot();
        String cm =
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm'},'data':{'walked':'yes'}}");
        String patch = json("{'metadata':{'labels':{'walked':'yes'}}}");
        List<String> failures = new ArrayList<>();
        int requests = 0;
        // Kept-alive connections: a handshake per request was most of this walk's time.
        try (RawHttp.Session session = new RawHttp.Session(api.url())) {
            for (String dots : DOTS) {
                for (String path : walk(dots)) {
                    for (String[] request :
                            List.of(
                                    new String[] {"GET", path, null},
                                    new String[] {"GET", path + "?watch=1&timeoutSeconds=2", null},
                                    new String[] {"POST", path, cm},
                                    new String[] {"PUT", path, cm},
                                    new String[] {"PATCH", path, patch},
                                    new String[] {"DELETE", path, null},
                                    new String[] {
                                        "DELETE",
                                        path,
                                        json("{'kind':'DeleteOptions','apiVersion':'v1'}")
                                    })) {
                        Map<String, String> headers =
                                request[0].equals("PATCH")
                                        ? Map.of("Content-Type", "application/merge-patch+json")
                                        : request[2] == null ? Map.of() : RawHttp.json();
                        Response a = session.send(request[0], request[1], headers, request[2]);
                        requests++;
                        for (String problem : notARefusal(a)) {
                            failures.add(request[0] + " " + request[1] + ": " + problem);
                        }
                    }
                }
            }
        }
        assertTrue(requests > 2000, "walked " + requests + " requests");
        assertTrue(
                failures.isEmpty(),
                failures.size()
                        + " of "
                        + requests
                        + " requests were not refused, e.g.\n"
                        + String.join("\n", failures.subList(0, Math.min(40, failures.size()))));
        assertEquals(before, snapshot(), "an object changed");
    }

    @Test
    void aDotOrPercentNameIsRefusedWithKubeApiserversMessage() {
        for (String method : List.of("GET", "PUT", "PATCH", "DELETE")) {
            String body = method.equals("GET") || method.equals("DELETE") ? null : "{}";
            assertRefused(
                    send(method, "/api/v1/namespaces/walk-a/configmaps/%2e%2e", body),
                    400,
                    "BadRequest",
                    "Name parameter invalid: \"..\": may not be '..'");
            assertRefused(
                    send(method, "/api/v1/namespaces/walk-a/configmaps/.", body),
                    400,
                    "BadRequest",
                    "Name parameter invalid: \".\": may not be '.'");
            assertRefused(
                    send(method, "/api/v1/namespaces/walk-a/configmaps/a%25b", body),
                    400,
                    "BadRequest",
                    "Name parameter invalid: \"a%b\": may not contain '%'");
            assertRefused(
                    send(method, "/api/v1/namespaces/%2E%2e", body),
                    400,
                    "BadRequest",
                    "Name parameter invalid: \"..\": may not be '..'");
        }
        assertRefused(
                send("GET", "/apis/apps/v1/namespaces/walk-a/deployments/%2e/scale", null),
                400,
                "BadRequest",
                "Name parameter invalid: \".\": may not be '.'");
        assertRefused(
                send("GET", "/api/v1/namespaces/%2e%2e/configmaps", null),
                400,
                "BadRequest",
                "Namespace parameter invalid: \"..\": may not be '..'");
        assertRefused(
                send(
                        "GET",
                        "/api/v1/namespaces/walk-a/configmaps/%2E%2E/%2e%2e/%2e%2e/namespaces/kube-system"
                                + "/secrets",
                        null),
                404,
                "NotFound",
                NOT_FOUND);
    }

    @Test
    void emptySegmentsAnswerAsKubeApiserver() throws IOException {
        // Slashes at either end of the resource part are dropped.
        assertEquals(
                List.of("walk-a/cm"),
                names(send("GET", "/api/v1/namespaces/walk-a/configmaps/", null)));
        assertEquals(
                "walk-a",
                Json.MAPPER
                        .readTree(
                                send("GET", "/api/v1/namespaces/walk-a/configmaps/cm//", null)
                                        .body())
                        .path("data")
                        .path("in")
                        .asText());
        // An empty namespace is no namespace: a list of every namespace, an error for anything
        // else.
        assertTrue(
                names(send("GET", "/api/v1/namespaces//configmaps", null))
                        .containsAll(List.of("walk-a/cm", "walk-b/cm")));
        for (String[] request :
                List.of(
                        new String[] {"GET", "/api/v1/namespaces//configmaps/cm"},
                        new String[] {"DELETE", "/api/v1/namespaces//configmaps/cm"},
                        new String[] {"DELETE", "/api/v1/namespaces//configmaps"},
                        new String[] {"POST", "/api/v1/namespaces//configmaps"})) {
            assertRefused(
                    send(request[0], request[1], request[0].equals("POST") ? "{}" : null),
                    400,
                    "BadRequest",
                    "Namespace parameter required.");
        }
        // An empty name before a subresource names nothing.
        assertRefused(
                send("GET", "/apis/apps/v1/namespaces/walk-a/deployments//status", null),
                400,
                "BadRequest",
                "name must be provided");
        for (String path :
                List.of(
                        "//api/v1/namespaces",
                        "/api//v1/namespaces",
                        "/api/v1//namespaces",
                        "/apis//apps/v1/deployments",
                        "/apis/apps//v1/deployments",
                        "/api/v1/namespaces/walk-a//configmaps",
                        "/api/v1/namespaces/walk-a/configmaps//status",
                        "//version",
                        "/healthz/",
                        "/healthz//ping",
                        "//healthz")) {
            assertRefused(send("GET", path, null), 404, "NotFound", NOT_FOUND);
        }
    }

    @Test
    void anEncodedSlashSeparatesSegmentsAsInKubeApiserver() throws IOException {
        // Go's URL.Path is decoded before kube-apiserver splits it: the same paths as with plain
        // slashes.
        assertEquals(
                List.of("walk-b/cm"),
                names(send("GET", "/api/v1/namespaces/walk-b%2Fconfigmaps", null)));
        assertEquals(
                "walk-b",
                Json.MAPPER
                        .readTree(
                                send("GET", "/api/v1/namespaces/walk-b%2fconfigmaps%2fcm", null)
                                        .body())
                        .path("data")
                        .path("in")
                        .asText());
        assertRefused(
                send("DELETE", "/api/v1/namespaces/walk-b/configmaps/cm%2fstatus", null),
                404,
                "NotFound",
                NOT_FOUND);
        assertEquals(200, send("GET", "/api/v1/namespaces/walk-b/configmaps/cm", null).code());
    }

    @Test
    void pathsOutsideTheResourcesCannotBeWalkedEither() {
        for (String path :
                List.of(
                        "/healthz/%2e%2e/version",
                        "/livez/%2e%2e/version",
                        "/readyz/..",
                        "/version/%2e%2e",
                        "/%2e%2e/version",
                        "/./version",
                        "/openapi/v3/%2e%2e/version",
                        "/openapi/v3/apis/apps/v1/%2e%2e/%2e%2e/%2e%2e/api/v1",
                        "/apis/%2e%2e/version",
                        "/api/%2e",
                        "/apis/apps/%2e%2e",
                        "/api/v1/%2e%2e/%2e%2e/version",
                        "/healthz/%2e")) {
            assertRefused(send("GET", path, null), 404, "NotFound", NOT_FOUND);
        }
        assertEquals(200, send("GET", "/version", null).code());
        assertEquals(200, send("GET", "/healthz", null).code());
    }

    private static List<String> names(Response list) throws IOException {
        assertEquals(200, list.code(), list.text());
        List<String> names = new ArrayList<>();
        for (JsonNode item : Json.MAPPER.readTree(list.body()).path("items")) {
            names.add(
                    item.path("metadata").path("namespace").asText()
                            + "/"
                            + item.path("metadata").path("name").asText());
        }
        return names;
    }

    private static void assertRefused(Response a, int code, String reason, String message) {
        assertEquals(List.of(), notARefusal(a));
        ObjectNode status;
        try {
            status = (ObjectNode) Json.MAPPER.readTree(a.body());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertEquals(code, a.code(), a.text());
        assertEquals(reason, status.path("reason").asText(), a.text());
        assertEquals(message, status.path("message").asText(), a.text());
    }
}
