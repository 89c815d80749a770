package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.discovery.SubresourceInfo;
import io.kubepekko.api.openapi.OpenApiV3;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.http.route.ApiHandler;
import io.kubepekko.http.security.AccessSettings;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.SecureServing;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every route family the secure port serves, asked by four callers: nobody (no credential) on a
 * server with anonymous requests on and on one with them off, an authenticated user without a role,
 * and the admin of {@code system:masters}. The resource routes come from the server's own registry
 * (every kind, every verb it advertises, every subresource), so a new kind or subresource is
 * covered without touching this test; the non-resource routes are listed here, and {@link
 * #everyPathFamilyTheHandlersDispatchOnIsInTheMatrix} fails when the handlers serve a path family
 * the list does not name.
 *
 * <p>What each caller should get is kube's default policy: {@code system:public-info-viewer}
 * (health and version) for everyone, {@code system:discovery} (discovery, OpenAPI, health roots)
 * and {@code system:basic-user} (the self reviews) for every authenticated user, nothing else; and
 * without anonymous requests every request without a credential is 401, {@code /healthz} included.
 */
class EndpointAccessMatrixIT {

    @RegisterExtension static final TestApiServer SERVER = TestApiServer.perClass();

    @RegisterExtension
    static final TestApiServer CLOSED =
            TestApiServer.perClass(
                    s ->
                            s.withSecure(
                                    SecureServing.generated()
                                            .withAccess(
                                                    AccessSettings.DEFAULT.withAnonymousAuth(
                                                            false))));

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The namespace of every namespaced route; created by the admin before the tests. */
    private static final String NAMESPACE = "matrix";

    /** An object that never exists: item routes answer the admin 404, never change anything. */
    private static final String ABSENT = "matrix-absent";

    /** Matches nothing, so the admin's deletecollection deletes nothing (bootstrap roles stay). */
    private static final String NO_MATCH = "labelSelector=kubepekko.io%2Fmatrix%3Dnone";

    /**
     * Every write's body: not even JSON, so a write refused with 403 (not 400) proves the gate
     * answered before the body was read, as kube authorizes before it decodes.
     */
    private static final String UNREADABLE = "{\"matrix\":";

    private static final String AGGREGATED_DISCOVERY =
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

    /**
     * kube's {@code system:basic-user}, bound to {@code system:authenticated}: the creates every
     * authenticated user may make.
     */
    private static final Set<GroupResource> BASIC_USER_CREATES =
            Set.of(
                    new GroupResource("authorization.k8s.io", "selfsubjectaccessreviews"),
                    new GroupResource("authorization.k8s.io", "selfsubjectrulesreviews"),
                    new GroupResource("authentication.k8s.io", "selfsubjectreviews"));

    /** Who may ask a route, by kube's bootstrap policy. */
    enum Access {
        /** A resource: RBAC grants none of the matrix's users anything but the admin. */
        RESOURCE,
        /** A create of {@code system:basic-user}: every authenticated user. */
        BASIC_USER,
        /** {@code system:discovery}: every authenticated user. */
        DISCOVERY,
        /** {@code system:public-info-viewer}: everyone, anonymous included. */
        PUBLIC,
        /**
         * Health sub-checks ({@code /livez/ping}) and {@code /metrics}: {@code system:monitoring}.
         */
        MONITORING
    }

    /**
     * One request of the matrix.
     *
     * @param served what the admin gets for a non-resource route (it is served for the users who
     *     may ask it too); 0 for a resource route, whose admin answer is only "not refused"
     */
    record Route(
            String method,
            String path,
            String body,
            Map<String, String> headers,
            Access access,
            int served) {

        boolean watch() {
            return path.contains("watch=1");
        }

        String family() {
            String p = path.substring(1);
            int end = p.indexOf('/');
            int query = p.indexOf('?');
            if (end < 0 || (query >= 0 && query < end)) {
                end = query;
            }
            return end < 0 ? p : p.substring(0, end);
        }

        @Override
        public String toString() {
            return method + " " + path + (headers.isEmpty() ? "" : " " + headers);
        }
    }

    /** What one caller got for one route. */
    record Answer(int code, String body) {}

    private static TlsClients.Kubeconfig admin;
    private static HttpClient adminClient;
    private static HttpClient anonymous;
    private static HttpClient nobody;
    private static TlsClients.Kubeconfig closed;
    private static HttpClient closedAnonymous;
    private static List<Route> routes;

    @BeforeAll
    static void clients() throws Exception {
        Path kubeconfig = SERVER.server().kubeconfig();
        admin = TlsClients.kubeconfig(kubeconfig);
        adminClient = TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        anonymous = TlsClients.client(admin.ca(), null, null);
        CertificateIssuer.Issued nobodys =
                TlsClients.userCertificate(kubeconfig.getParent(), "nobody", List.of());
        nobody = TlsClients.client(admin.ca(), nobodys.certificate(), nobodys.key());
        closed = TlsClients.kubeconfig(CLOSED.server().kubeconfig());
        closedAnonymous = TlsClients.client(closed.ca(), null, null);
        HttpResponse<String> created =
                TlsClients.send(
                        adminClient,
                        "POST",
                        admin.server() + "/api/v1/namespaces",
                        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                                + NAMESPACE
                                + "\"}}",
                        Map.of());
        assertEquals(201, created.statusCode(), created.body());
        routes = routes(Registry.builtin());
    }

    /** The whole matrix: the registry's resource routes and the listed non-resource ones. */
    static List<Route> routes(Registry registry) {
        List<Route> out = new ArrayList<>(nonResourceRoutes(registry));
        for (ResourceType type : registry.all()) {
            out.addAll(resourceRoutes(type));
        }
        return out;
    }

    /**
     * The non-resource routes: discovery of every group-version the registry serves, OpenAPI,
     * version and health. The path families of this list are what {@link
     * #everyPathFamilyTheHandlersDispatchOnIsInTheMatrix} checks the handlers against.
     */
    static List<Route> nonResourceRoutes(Registry registry) {
        List<Route> out = new ArrayList<>();
        out.add(get("/api", Access.DISCOVERY, 200));
        out.add(get("/apis", Access.DISCOVERY, 200));
        out.add(
                new Route(
                        "GET",
                        "/apis",
                        null,
                        Map.of("Accept", AGGREGATED_DISCOVERY),
                        Access.DISCOVERY,
                        200));
        out.add(
                new Route(
                        "GET",
                        "/api",
                        null,
                        Map.of("Accept", AGGREGATED_DISCOVERY),
                        Access.DISCOVERY,
                        200));
        for (String group : registry.groups()) {
            if (!group.isEmpty()) {
                out.add(get("/apis/" + group, Access.DISCOVERY, 200));
            }
            for (String version : registry.versions(group)) {
                out.add(get(prefix(group, version), Access.DISCOVERY, 200));
            }
        }
        // kube serves /openapi/v2; this server does not (yet), so its answer is the route's 404.
        out.add(get("/openapi/v2", Access.DISCOVERY, 404));
        out.add(get(OpenApiV3.ROOT_PATH, Access.DISCOVERY, 200));
        out.add(get(OpenApiV3.ROOT_PATH + "/api/v1", Access.DISCOVERY, 200));
        out.add(get(OpenApiV3.ROOT_PATH + "/apis/apps/v1", Access.DISCOVERY, 200));
        out.add(get("/version", Access.PUBLIC, 200));
        for (String health : List.of("/healthz", "/livez", "/readyz")) {
            out.add(get(health, Access.PUBLIC, 200));
            out.add(get(health + "?verbose", Access.PUBLIC, 200));
            out.add(get(health + "/ping", Access.MONITORING, 200));
        }
        // The service-account issuer's discovery: kube binds it to system:serviceaccounts only.
        out.add(get("/.well-known/openid-configuration", Access.RESOURCE, 200));
        out.add(get("/openid/v1/jwks", Access.RESOURCE, 200));
        // kube's metrics: system:monitoring's, as the health sub-checks.
        out.add(get("/metrics", Access.MONITORING, 200));
        // Paths no role but cluster-admin's names: kube refuses them before finding them missing.
        // kube serves / (its path list) to the admin; this server answers 404.
        out.add(get("/", Access.RESOURCE, 0));
        out.add(get("/no-such-path", Access.RESOURCE, 0));
        return out;
    }

    private static Route get(String path, Access access, int served) {
        return new Route("GET", path, null, Map.of(), access, served);
    }

    private static String prefix(String group, String version) {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }

    /**
     * Every verb the kind advertises, on its collection or on an item that does not exist, plus a
     * GET and a POST of the collection whatever its verbs, and every verb of every subresource.
     */
    static List<Route> resourceRoutes(ResourceType type) {
        String collection =
                prefix(type.group(), type.version())
                        + (type.namespaced() ? "/namespaces/" + NAMESPACE : "")
                        + "/"
                        + type.resource();
        String item = collection + "/" + ABSENT;
        Set<String> verbs = new LinkedHashSet<>(type.verbs());
        verbs.add("list");
        verbs.add("create");
        List<Route> out = new ArrayList<>();
        for (String verb : verbs) {
            Access access =
                    verb.equals("create") && BASIC_USER_CREATES.contains(type.groupResource())
                            ? Access.BASIC_USER
                            : Access.RESOURCE;
            out.add(
                    switch (verb) {
                        case "get" -> resource("GET", item, access);
                        case "list" -> resource("GET", collection, access);
                        case "watch" ->
                                resource("GET", collection + "?watch=1&timeoutSeconds=1", access);
                        case "create" -> resource("POST", collection, access);
                        case "update" -> resource("PUT", item, access);
                        case "patch" -> resource("PATCH", item, access);
                        case "delete" -> resource("DELETE", item, access);
                        case "deletecollection" ->
                                resource("DELETE", collection + "?" + NO_MATCH, access);
                        default -> throw new IllegalStateException("verb " + verb);
                    });
        }
        for (String sub : new TreeSet<>(type.subresources())) {
            for (String verb : SubresourceInfo.of(type, sub).verbs()) {
                String path = item + "/" + sub;
                out.add(
                        switch (verb) {
                            case "get" -> resource("GET", path, Access.RESOURCE);
                            case "create" -> resource("POST", path, Access.RESOURCE);
                            case "update" -> resource("PUT", path, Access.RESOURCE);
                            case "patch" -> resource("PATCH", path, Access.RESOURCE);
                            case "delete" -> resource("DELETE", path, Access.RESOURCE);
                            default -> throw new IllegalStateException("verb " + verb);
                        });
            }
        }
        return out;
    }

    private static Route resource(String method, String path, Access access) {
        boolean body = !method.equals("GET") && !method.equals("DELETE");
        Map<String, String> headers =
                method.equals("PATCH")
                        ? Map.of("Content-Type", "application/merge-patch+json")
                        : Map.of();
        return new Route(method, path, body ? UNREADABLE : null, headers, access, 0);
    }

    @Test
    void theMatrixCoversEveryKindAndSubresourceOfTheRegistry() {
        Registry registry = Registry.builtin();
        for (ResourceType type : registry.all()) {
            String collection = "/" + type.resource();
            assertTrue(
                    routes.stream().anyMatch(r -> r.path().endsWith(collection)),
                    "no route for " + type.groupResource());
            for (String sub : type.subresources()) {
                assertTrue(
                        routes.stream()
                                .anyMatch(
                                        r ->
                                                r.path()
                                                        .contains(
                                                                "/"
                                                                        + type.resource()
                                                                        + "/"
                                                                        + ABSENT
                                                                        + "/"
                                                                        + sub)),
                        "no route for " + type.resource() + "/" + sub);
            }
        }
    }

    @Test
    void withoutACredentialOnlyHealthAndVersionAreServed() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Route route : routes) {
            Answer got = ask(anonymous, admin.server(), route);
            if (route.access() == Access.PUBLIC) {
                expect(wrong, route, got, route.served());
            } else {
                expectStatus(wrong, route, got, 403, "Forbidden");
            }
        }
        assertTrue(wrong.isEmpty(), report("anonymous", wrong));
    }

    @Test
    void withAnonymousRequestsOffEveryRouteIsUnauthorized() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Route route : routes) {
            expectStatus(
                    wrong,
                    route,
                    ask(closedAnonymous, closed.server(), route),
                    401,
                    "Unauthorized");
        }
        assertTrue(wrong.isEmpty(), report("no credential, --anonymous-auth=false", wrong));
    }

    @Test
    void aUserWithoutARoleGetsDiscoveryHealthAndVersionOnly() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Route route : routes) {
            Answer got = ask(nobody, admin.server(), route);
            switch (route.access()) {
                case PUBLIC, DISCOVERY -> expect(wrong, route, got, route.served());
                case BASIC_USER -> {
                    if (got.code() == 401 || got.code() == 403 || got.code() >= 500) {
                        wrong.add(route + " -> " + got.code() + " " + shortly(got));
                    }
                }
                case RESOURCE, MONITORING -> expectStatus(wrong, route, got, 403, "Forbidden");
            }
        }
        assertTrue(wrong.isEmpty(), report("nobody", wrong));
    }

    @Test
    void theAdminIsNeverRefusedAndNeverGetsAServerError() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Route route : routes) {
            Answer got = ask(adminClient, admin.server(), route);
            if (route.served() != 0) {
                expect(wrong, route, got, route.served());
            } else if (got.code() == 401 || got.code() == 403 || got.code() >= 500) {
                wrong.add(route + " -> " + got.code() + " " + shortly(got));
            }
        }
        assertTrue(wrong.isEmpty(), report("admin", wrong));
    }

    /**
     * The handlers' path families against the matrix's. Every string constant compiled into the
     * route package that could name a path (a literal {@code "/x/..."}, or a bare word a handler
     * switches on, like {@code "healthz"}) is asked by the admin; each one the server answers with
     * anything but 404 is a served path, and its first segment must be a family the matrix asks.
     * The scan needs no list in the handlers, so a new family (a {@code case "metrics"}, a new
     * {@code "/openid/..."} literal) fails here until the matrix names it and its access.
     */
    @Test
    void everyPathFamilyTheHandlersDispatchOnIsInTheMatrix() throws Exception {
        Set<String> matrix = new TreeSet<>();
        routes.forEach(r -> matrix.add(r.family()));
        Set<String> served = new TreeSet<>();
        Pattern pathLike = Pattern.compile("/?\\.?[a-z][a-z0-9-]*(/[a-z0-9][a-z0-9.-]*)*/?");
        for (String constant : ClassConstants.ofPackage(ApiHandler.class)) {
            if (!pathLike.matcher(constant).matches()) {
                continue;
            }
            String path = constant.startsWith("/") ? constant : "/" + constant;
            Route probe = get(path, Access.RESOURCE, 0);
            if (ask(adminClient, admin.server(), probe).code() != 404) {
                served.add(probe.family());
            }
        }
        Set<String> uncovered = new TreeSet<>(served);
        uncovered.removeAll(matrix);
        assertEquals(Set.of(), uncovered, "path families served but not in the matrix");
        // The scan itself works: it finds every family the matrix expects served.
        Set<String> expected = new TreeSet<>();
        routes.stream().filter(r -> r.served() == 200).forEach(r -> expected.add(r.family()));
        assertEquals(expected, served, "families the scan found");
    }

    /** An answer's body, cut short for the failure report. */
    private static String shortly(Answer got) {
        String b = got.body();
        return b.length() > 300 ? b.substring(0, 300) + "..." : b;
    }

    private static void expect(List<String> wrong, Route route, Answer got, int code) {
        if (got.code() != code) {
            wrong.add(route + " -> " + got.code() + " (want " + code + ") " + shortly(got));
        }
    }

    /** A {@code Status} of {@code code} and {@code reason}, as kube answers. */
    private static void expectStatus(
            List<String> wrong, Route route, Answer got, int code, String reason) {
        if (got.code() != code) {
            wrong.add(route + " -> " + got.code() + " (want " + code + ") " + shortly(got));
            return;
        }
        try {
            JsonNode status = JSON.readTree(got.body());
            if (!status.path("kind").asText().equals("Status")
                    || status.path("code").asInt() != code
                    || !status.path("reason").asText().equals(reason)) {
                wrong.add(route + " -> not kube's Status: " + shortly(got));
            }
        } catch (IOException e) {
            wrong.add(route + " -> not JSON: " + shortly(got));
        }
    }

    private static String report(String who, List<String> wrong) {
        return wrong.size() + " routes answered " + who + " wrongly:\n" + String.join("\n", wrong);
    }

    /**
     * Sends one route's request. A watch the server accepts is a stream: its answer is the status
     * line, and the stream is closed without waiting for it to end.
     */
    private static Answer ask(HttpClient client, String server, Route route) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(server + route.path()))
                        .timeout(Duration.ofSeconds(30))
                        .method(
                                route.method(),
                                route.body() == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(route.body()));
        if (route.body() != null) {
            b.header("Content-Type", "application/json");
        }
        route.headers().forEach(b::setHeader);
        HttpResponse<InputStream> r =
                client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = r.body()) {
            if (route.watch() && r.statusCode() == 200) {
                return new Answer(200, "(watch stream)");
            }
            return new Answer(
                    r.statusCode(), new String(body.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
