package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Named.named;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dry-run ({@code dryRun=All}, or {@code dryRun: ["All"]} in a DeleteOptions body) on every write
 * verb. Each case runs the request twice, as a dry run in one namespace and for real in another,
 * each holding the same objects: the dry run answers the real request's code and body (but for the
 * fields a server generates), persists nothing, sends no watch event and consumes no
 * resourceVersion — the next real write gets exactly the version after the one a list reported
 * before the dry run.
 *
 * <p>Which values of {@code dryRun} are accepted follows kube-apiserver: the handlers validate the
 * decoded options with {@code ValidateCreateOptions} / {@code ValidateUpdateOptions} / {@code
 * ValidatePatchOptions} / {@code ValidateDeleteOptions}, whose {@code ValidateDryRun} allows only
 * {@code All} (any number of times), and answer 422 on {@code <Kind>Options.meta.k8s.io}. The bare
 * parameter reaches that check as one empty value (Go's query parser reads {@code ?dryRun} as
 * {@code [""]}), so it is refused too. A DELETE with a body reads its options from the body only.
 *
 * <p>Dry runs of Services' allocations are proven in {@code ServiceAllocationIT$DryRun}.
 */
class DryRunIT {

    private static final AtomicInteger names = new AtomicInteger();

    // Without the controllers: a real Foreground or Orphan delete's finalizer would otherwise be
    // removed
    // by the garbage collector at some moment, a write that moves the kind's latest resourceVersion
    // while
    // a later case checks that a dry run did not.
    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(s -> s.withConfig("kubepekko.controllers.enabled = off"));

    /**
     * Fields whose values a server generates, so a dry run's may differ; they must be there all the
     * same. Not {@code resourceVersion}: a dry-run create has none (kube-apiserver's dry-run
     * storage returns the object as it would have been sent to storage), and a dry-run update keeps
     * the stored one.
     */
    private static final Set<String> GENERATED =
            Set.of("uid", "creationTimestamp", "deletionTimestamp", "time", "namespace");

    // ---- the kinds the cases write ----

    /** A kind as the cases address it: its collection in a namespace and a valid object of it. */
    record Kind(String collectionFormat, UnaryOperator<String> manifest) {
        String collection(String ns) {
            return collectionFormat.formatted(ns);
        }
    }

    private static final Kind CONFIG_MAPS =
            new Kind(
                    "/api/v1/namespaces/%s/configmaps",
                    name ->
                            json(
                                    "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                            + name
                                            + "'},'data':{'a':'1'}}"));

    private static final Kind HELD_CONFIG_MAPS =
            new Kind(
                    CONFIG_MAPS.collectionFormat(),
                    name ->
                            json(
                                    "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                            + name
                                            + "',"
                                            + "'finalizers':['example.com/hold']},'data':{'a':'1'}}"));

    private static final Kind DEPLOYMENTS =
            new Kind(
                    "/apis/apps/v1/namespaces/%s/deployments",
                    name ->
                            json(
                                    "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                                            + name
                                            + "',"
                                            + "'labels':{'app':'web'}},'spec':{'replicas':2,'selector':{'matchLabels':{'app':'web'}},"
                                            + "'template':{'metadata':{'labels':{'app':'web'}},"
                                            + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}}}"));

    /** A kind whose PUT of an absent object creates it. */
    private static final Kind LIMIT_RANGES =
            new Kind(
                    "/api/v1/namespaces/%s/limitranges",
                    name ->
                            json(
                                    "{'apiVersion':'v1','kind':'LimitRange','metadata':{'name':'"
                                            + name
                                            + "'},"
                                            + "'spec':{'limits':[{'type':'Container','default':{'cpu':'100m'}}]}}"));

    /** A pod bound to a node: the one kind Kubernetes deletes gracefully. */
    private static final Kind BOUND_PODS =
            new Kind(
                    "/api/v1/namespaces/%s/pods",
                    name ->
                            json(
                                    "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                                            + name
                                            + "'},"
                                            + "'spec':{'nodeName':'node-1','containers':[{'name':'c','image':'nginx:1.27'}]}}"));

    private static String newNamespace() {
        String ns = "dry-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        // The controllers are off: the account the ServiceAccount plugin requires of a pod is made
        // here, as kube-controller-manager would.
        api.create(
                "/api/v1/namespaces/" + ns + "/serviceaccounts",
                json("{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'default'}}"));
        return ns;
    }

    /** The latest committed resourceVersion of the kind, as a list reports it. */
    private static long latestVersion(Kind kind, String ns) {
        return Long.parseLong(
                api.get(kind.collection(ns))
                        .assertCode(200)
                        .json()
                        .path("metadata")
                        .path("resourceVersion")
                        .asText());
    }

    /** The collection's objects exactly as stored. */
    private static JsonNode items(Kind kind, String ns) {
        return api.get(kind.collection(ns)).assertCode(200).json().path("items");
    }

    /**
     * A body with the values a server generates blanked: what a dry run must answer like the real
     * request.
     */
    private static JsonNode shape(JsonNode body) {
        // The ServiceAccount plugin's token volume has a random name, each write its own (also in
        // managedFields' keys).
        JsonNode copy =
                Json.parseTrusted(
                        body.toString()
                                .replaceAll(
                                        "kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}",
                                        "kube-api-access-(generated)")
                                .getBytes(StandardCharsets.UTF_8));
        strip(copy);
        return copy;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove("resourceVersion");
            for (String field : GENERATED) {
                if (o.has(field)) {
                    o.put(field, "(generated)");
                }
            }
        }
        for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
            strip(it.next());
        }
    }

    // ---- every verb: the dry run answers as the real request and changes nothing ----

    /**
     * One write, sent to the objects {@code seeded} in a namespace.
     *
     * @param subpath appended to the collection: {@code ""}, {@code "/x"}, {@code "/x/status"}…
     * @param query further query parameters ({@code "&a=b"}), or {@code ""}
     * @param dryRunInBody the dry run says so in its DeleteOptions body (as kubectl does), not the
     *     query
     */
    record Write(
            Kind kind,
            List<String> seeded,
            String method,
            String subpath,
            String query,
            String contentType,
            String body,
            boolean dryRunInBody,
            int code) {

        Response send(String ns, boolean dryRun) {
            String q =
                    dryRun && !dryRunInBody
                            ? "?dryRun=All" + query
                            : query.isEmpty() ? "" : "?" + query.substring(1);
            TestApiServer.Call call = api.call(method, kind.collection(ns) + subpath + q);
            String sent = body;
            if (dryRun && dryRunInBody) {
                ObjectNode options =
                        body == null ? Json.MAPPER.createObjectNode() : TestApiServer.obj(body);
                options.putArray("dryRun").add("All");
                sent = Json.string(options);
            }
            return sent == null ? call.send() : call.body(contentType, sent).send();
        }
    }

    private static Arguments write(
            String name,
            Kind kind,
            List<String> seeded,
            String method,
            String subpath,
            String query,
            String contentType,
            String body,
            boolean dryRunInBody,
            int code) {
        return Arguments.of(
                named(
                        name,
                        new Write(
                                kind,
                                seeded,
                                method,
                                subpath,
                                query,
                                contentType,
                                body == null ? null : json(body),
                                dryRunInBody,
                                code)));
    }

    static Stream<Arguments> everyVerb() {
        List<String> x = List.of("x");
        String json = "application/json";
        String merge = "application/merge-patch+json";
        String scale =
                "{'apiVersion':'autoscaling/v1','kind':'Scale','metadata':{'name':'x'},'spec':{'replicas':5}}";
        return Stream.of(
                write(
                        "create",
                        CONFIG_MAPS,
                        List.of(),
                        "POST",
                        "",
                        "",
                        json,
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'},'data':{'a':'1'}}",
                        false,
                        201),
                write(
                        "update (PUT)",
                        CONFIG_MAPS,
                        x,
                        "PUT",
                        "/x",
                        "",
                        json,
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'},'data':{'a':'2'}}",
                        false,
                        200),
                write(
                        "update that creates (PUT of an absent limit range)",
                        LIMIT_RANGES,
                        List.of(),
                        "PUT",
                        "/x",
                        "",
                        json,
                        LIMIT_RANGES.manifest().apply("x"),
                        false,
                        201),
                write(
                        "merge patch",
                        CONFIG_MAPS,
                        x,
                        "PATCH",
                        "/x",
                        "",
                        merge,
                        "{'data':{'b':'2'}}",
                        false,
                        200),
                write(
                        "JSON patch",
                        CONFIG_MAPS,
                        x,
                        "PATCH",
                        "/x",
                        "",
                        "application/json-patch+json",
                        "[{'op':'add','path':'/data/b','value':'2'}]",
                        false,
                        200),
                write(
                        "strategic merge patch",
                        DEPLOYMENTS,
                        x,
                        "PATCH",
                        "/x",
                        "",
                        "application/strategic-merge-patch+json",
                        "{'spec':{'template':{'spec':{'containers':[{'name':'c','image':'nginx:1.28'}]}}}}",
                        false,
                        200),
                write(
                        "server-side apply to an existing object",
                        CONFIG_MAPS,
                        x,
                        "PATCH",
                        "/x",
                        "&fieldManager=tester",
                        "application/apply-patch+yaml",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'},'data':{'b':'2'}}",
                        false,
                        200),
                write(
                        "server-side apply that creates",
                        CONFIG_MAPS,
                        List.of(),
                        "PATCH",
                        "/x",
                        "&fieldManager=tester",
                        "application/apply-patch+yaml",
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'},'data':{'b':'2'}}",
                        false,
                        201),
                write("delete", CONFIG_MAPS, x, "DELETE", "/x", "", null, null, false, 200),
                write(
                        "delete, dryRun in the DeleteOptions body",
                        CONFIG_MAPS,
                        x,
                        "DELETE",
                        "/x",
                        "",
                        json,
                        "{'propagationPolicy':'Background'}",
                        true,
                        200),
                write(
                        "delete of an object with finalizers",
                        HELD_CONFIG_MAPS,
                        x,
                        "DELETE",
                        "/x",
                        "",
                        null,
                        null,
                        false,
                        200),
                write(
                        "delete with propagationPolicy=Foreground",
                        DEPLOYMENTS,
                        x,
                        "DELETE",
                        "/x",
                        "&propagationPolicy=Foreground",
                        null,
                        null,
                        false,
                        200),
                write(
                        "delete with propagationPolicy=Orphan in the body",
                        DEPLOYMENTS,
                        x,
                        "DELETE",
                        "/x",
                        "",
                        json,
                        "{'propagationPolicy':'Orphan'}",
                        true,
                        200),
                write(
                        "delete with a grace period (a pod bound to a node)",
                        BOUND_PODS,
                        x,
                        "DELETE",
                        "/x",
                        "",
                        json,
                        "{'gracePeriodSeconds':30}",
                        true,
                        200),
                write(
                        "deletecollection",
                        CONFIG_MAPS,
                        List.of("x", "y"),
                        "DELETE",
                        "",
                        "",
                        null,
                        null,
                        false,
                        200),
                write(
                        "deletecollection with a label selector, dryRun in the body",
                        CONFIG_MAPS,
                        List.of("x", "y"),
                        "DELETE",
                        "",
                        "&labelSelector=app%21%3Dnone",
                        json,
                        "{}",
                        true,
                        200),
                write(
                        "status update (PUT /status)",
                        DEPLOYMENTS,
                        x,
                        "PUT",
                        "/x/status",
                        "",
                        json,
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'x','labels':{'app':'web'}},"
                                + "'spec':{'replicas':2,'selector':{'matchLabels':{'app':'web'}},"
                                + "'template':{'metadata':{'labels':{'app':'web'}},"
                                + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}},"
                                + "'status':{'replicas':2,'readyReplicas':1}}",
                        false,
                        200),
                write(
                        "status patch (PATCH /status)",
                        DEPLOYMENTS,
                        x,
                        "PATCH",
                        "/x/status",
                        "",
                        merge,
                        "{'status':{'readyReplicas':2}}",
                        false,
                        200),
                write(
                        "scale update (PUT /scale)",
                        DEPLOYMENTS,
                        x,
                        "PUT",
                        "/x/scale",
                        "",
                        json,
                        scale,
                        false,
                        200),
                write(
                        "scale patch (PATCH /scale)",
                        DEPLOYMENTS,
                        x,
                        "PATCH",
                        "/x/scale",
                        "",
                        merge,
                        "{'spec':{'replicas':7}}",
                        false,
                        200));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyVerb")
    void aDryRunAnswersAsTheRealRequestAndChangesNothing(Write w) {
        String dryNs = newNamespace();
        String realNs = newNamespace();
        for (String name : w.seeded()) {
            api.create(w.kind().collection(dryNs), w.kind().manifest().apply(name));
            api.create(w.kind().collection(realNs), w.kind().manifest().apply(name));
        }
        JsonNode before = items(w.kind(), dryNs);
        long latest = latestVersion(w.kind(), dryNs);
        try (WatchClient watch =
                WatchClient.open(
                        api.url(),
                        w.kind().collection(dryNs) + "?watch=true&resourceVersion=" + latest)) {
            Response dry = w.send(dryNs, true);

            assertEquals(
                    latest,
                    latestVersion(w.kind(), dryNs),
                    "the dry run consumed no resourceVersion");
            assertEquals(before, items(w.kind(), dryNs), "the dry run persisted nothing");
            // The next real write gets the very next version, and is the watch's first event: the
            // dry run sent none before it.
            ObjectNode fence =
                    api.create(w.kind().collection(dryNs), w.kind().manifest().apply("fence"));
            assertEquals(latest + 1, rv(fence), "the next real write's resourceVersion");
            assertEquals(
                    "ADDED fence@" + (latest + 1),
                    WatchClient.describe(watch.next()),
                    "the first event after the dry run is the next real write's");

            Response real = w.send(realNs, false);
            assertEquals(w.code(), real.code(), () -> "the real request: " + real.text());
            assertEquals(
                    real.code(),
                    dry.code(),
                    () -> "the dry run answers the real request's code: " + dry.text());
            assertEquals(
                    shape(real.json()),
                    shape(dry.json()),
                    "the dry run's body is the real request's");
        }
    }

    // ---- errors: the dry run refuses exactly as the real request ----

    @Test
    void aDryRunCreateOfAnExistingNameIsAConflictAsTheRealOne() {
        String ns = newNamespace();
        api.create(CONFIG_MAPS.collection(ns), CONFIG_MAPS.manifest().apply("taken"));
        assertRefusedAlike(
                ns,
                "POST",
                CONFIG_MAPS.collection(ns),
                CONFIG_MAPS.manifest().apply("taken"),
                409,
                "AlreadyExists",
                "configmaps \"taken\" already exists");
    }

    @Test
    void aDryRunCreateOfAnInvalidObjectIsInvalidAsTheRealOne() {
        String ns = newNamespace();
        assertRefusedAlike(
                ns,
                "POST",
                CONFIG_MAPS.collection(ns),
                json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'Not_Valid'}}"),
                422,
                "Invalid",
                "ConfigMap \"Not_Valid\" is invalid: metadata.name: Invalid value: \"Not_Valid\": a lowercase RFC "
                        + "1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
                        + "start and end with an alphanumeric character (e.g. 'example.com', regex used for "
                        + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    }

    @Test
    void aDryRunCreateInAMissingNamespaceIsNotFoundAsTheRealOne() {
        String ns = newNamespace();
        assertRefusedAlike(
                ns,
                "POST",
                CONFIG_MAPS.collection("dry-missing"),
                CONFIG_MAPS.manifest().apply("x"),
                404,
                "NotFound",
                "namespaces \"dry-missing\" not found");
    }

    @Test
    void aDryRunDeleteOfAnAbsentObjectIsNotFoundAsTheRealOne() {
        String ns = newNamespace();
        assertRefusedAlike(
                ns,
                "DELETE",
                CONFIG_MAPS.collection(ns) + "/absent",
                null,
                404,
                "NotFound",
                "configmaps \"absent\" not found");
    }

    @Test
    void aDryRunUpdateWithAStaleResourceVersionIsAConflictAsTheRealOne() {
        String ns = newNamespace();
        ObjectNode cm =
                api.create(CONFIG_MAPS.collection(ns), CONFIG_MAPS.manifest().apply("stale"));
        api.patch(
                        CONFIG_MAPS.collection(ns) + "/stale",
                        "application/merge-patch+json",
                        json("{'data':{'a':'2'}}"))
                .assertCode(200);
        assertRefusedAlike(
                ns,
                "PUT",
                CONFIG_MAPS.collection(ns) + "/stale",
                Json.string(cm),
                409,
                "Conflict",
                "Operation cannot be fulfilled on configmaps \"stale\": the object has been modified; please apply "
                        + "your changes to the latest version and try again");
    }

    /**
     * The dry run and then the real request answer the same Status; neither consumes a version
     * (checked in {@code ns}'s configmaps, which the requests target or share a counter with).
     */
    private static void assertRefusedAlike(
            String ns,
            String method,
            String path,
            String body,
            int code,
            String reason,
            String message) {
        long latest = latestVersion(CONFIG_MAPS, ns);
        String query = path.contains("?") ? "&dryRun=All" : "?dryRun=All";
        TestApiServer.Call dryCall = api.call(method, path + query);
        TestApiServer.Call realCall = api.call(method, path);
        if (body != null) {
            dryCall.json(body);
            realCall.json(body);
        }
        ObjectNode dry = dryCall.send().assertStatus(code, reason, message);
        ObjectNode real = realCall.send().assertStatus(code, reason, message);
        assertEquals(real, dry, "the dry run's Status is the real request's");
        assertEquals(latest, latestVersion(CONFIG_MAPS, ns));
    }

    // ---- the values of dryRun ----

    /**
     * One write with a {@code dryRun} in some form: the outcome is a dry run, a real write, or a
     * 422 naming the options kind and the values.
     */
    record Form(
            String method,
            String subpath,
            String query,
            String contentType,
            String body,
            Outcome outcome,
            String optionsKind,
            String badValues) {}

    enum Outcome {
        DRY,
        REAL,
        INVALID,
        MALFORMED
    }

    private static Arguments form(
            String name,
            String method,
            String subpath,
            String query,
            String contentType,
            String body,
            Outcome outcome) {
        return form(name, method, subpath, query, contentType, body, outcome, null, null);
    }

    private static Arguments form(
            String name,
            String method,
            String subpath,
            String query,
            String contentType,
            String body,
            Outcome outcome,
            String optionsKind,
            String badValues) {
        return Arguments.of(
                named(
                        name,
                        new Form(
                                method,
                                subpath,
                                query,
                                contentType,
                                body == null ? null : json(body),
                                outcome,
                                optionsKind,
                                badValues)));
    }

    static Stream<Arguments> dryRunForms() {
        String created =
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'made'},'data':{'a':'1'}}";
        String replaced =
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'x'},'data':{'a':'2'}}";
        String merge = "application/merge-patch+json";
        String patch = "{'data':{'a':'2'}}";
        String json = "application/json";
        Stream<Arguments> perVerb =
                Stream.of(
                                new Object[] {"create", "POST", "", json, created, "CreateOptions"},
                                new Object[] {
                                    "update", "PUT", "/x", json, replaced, "UpdateOptions"
                                },
                                new Object[] {"patch", "PATCH", "/x", merge, patch, "PatchOptions"},
                                new Object[] {
                                    "delete", "DELETE", "/x", null, null, "DeleteOptions"
                                },
                                new Object[] {
                                    "deletecollection", "DELETE", "", null, null, "DeleteOptions"
                                })
                        .flatMap(
                                v -> {
                                    String verb = (String) v[0];
                                    String method = (String) v[1];
                                    String subpath = (String) v[2];
                                    String type = (String) v[3];
                                    String body = (String) v[4];
                                    String kind = (String) v[5];
                                    return Stream.of(
                                            form(
                                                    verb + " ?dryRun=All",
                                                    method,
                                                    subpath,
                                                    "dryRun=All",
                                                    type,
                                                    body,
                                                    Outcome.DRY),
                                            form(
                                                    verb + " ?dryRun=All&dryRun=All",
                                                    method,
                                                    subpath,
                                                    "dryRun=All&dryRun=All",
                                                    type,
                                                    body,
                                                    Outcome.DRY),
                                            form(
                                                    verb + " ?dryRun (bare)",
                                                    method,
                                                    subpath,
                                                    "dryRun",
                                                    type,
                                                    body,
                                                    Outcome.INVALID,
                                                    kind,
                                                    "[\"\"]"),
                                            form(
                                                    verb + " ?dryRun= (empty)",
                                                    method,
                                                    subpath,
                                                    "dryRun=",
                                                    type,
                                                    body,
                                                    Outcome.INVALID,
                                                    kind,
                                                    "[\"\"]"),
                                            form(
                                                    verb + " ?dryRun=foo",
                                                    method,
                                                    subpath,
                                                    "dryRun=foo",
                                                    type,
                                                    body,
                                                    Outcome.INVALID,
                                                    kind,
                                                    "[\"foo\"]"),
                                            form(
                                                    verb + " ?dryRun=All&dryRun=foo",
                                                    method,
                                                    subpath,
                                                    "dryRun=All&dryRun=foo",
                                                    type,
                                                    body,
                                                    Outcome.INVALID,
                                                    kind,
                                                    "[\"All\",\"foo\"]"),
                                            form(
                                                    verb + " ?dryRun=all (case matters)",
                                                    method,
                                                    subpath,
                                                    "dryRun=all",
                                                    type,
                                                    body,
                                                    Outcome.INVALID,
                                                    kind,
                                                    "[\"all\"]"));
                                });
        Stream<Arguments> deleteBodies =
                Stream.of("/x", "")
                        .flatMap(
                                subpath -> {
                                    String verb = subpath.isEmpty() ? "deletecollection" : "delete";
                                    return Stream.of(
                                            form(
                                                    verb + " body dryRun:[All]",
                                                    "DELETE",
                                                    subpath,
                                                    "",
                                                    json,
                                                    "{'dryRun':['All']}",
                                                    Outcome.DRY),
                                            form(
                                                    verb + " body dryRun:[]",
                                                    "DELETE",
                                                    subpath,
                                                    "",
                                                    json,
                                                    "{'dryRun':[]}",
                                                    Outcome.REAL),
                                            form(
                                                    verb + " body dryRun:['']",
                                                    "DELETE",
                                                    subpath,
                                                    "",
                                                    json,
                                                    "{'dryRun':['']}",
                                                    Outcome.INVALID,
                                                    "DeleteOptions",
                                                    "[\"\"]"),
                                            form(
                                                    verb + " body dryRun:[foo]",
                                                    "DELETE",
                                                    subpath,
                                                    "",
                                                    json,
                                                    "{'dryRun':['foo']}",
                                                    Outcome.INVALID,
                                                    "DeleteOptions",
                                                    "[\"foo\"]"),
                                            // kube-apiserver reads the options from the body when
                                            // there is one, never the query too.
                                            form(
                                                    verb
                                                            + " ?dryRun=All with a body: the body rules",
                                                    "DELETE",
                                                    subpath,
                                                    "dryRun=All",
                                                    json,
                                                    "{}",
                                                    Outcome.REAL),
                                            form(
                                                    verb
                                                            + " ?dryRun=foo with a body: the query is not read",
                                                    "DELETE",
                                                    subpath,
                                                    "dryRun=foo",
                                                    json,
                                                    "{'dryRun':['All']}",
                                                    Outcome.DRY),
                                            // Not a list of strings: the body does not decode
                                            // (kube-apiserver answers its decoder's
                                            // error as a 500; bad input is a 400 here, as for every
                                            // malformed DeleteOptions body).
                                            form(
                                                    verb + " body dryRun:'All' (not a list)",
                                                    "DELETE",
                                                    subpath,
                                                    "",
                                                    json,
                                                    "{'dryRun':'All'}",
                                                    Outcome.MALFORMED));
                                });
        return Stream.concat(perVerb, deleteBodies);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dryRunForms")
    void dryRunValuesAreReadAsKubeApiserverReadsThem(Form f) {
        String ns = newNamespace();
        String collection = CONFIG_MAPS.collection(ns);
        api.create(collection, CONFIG_MAPS.manifest().apply("x"));
        JsonNode before = items(CONFIG_MAPS, ns);
        long latest = latestVersion(CONFIG_MAPS, ns);
        TestApiServer.Call call =
                api.call(
                        f.method(),
                        collection + f.subpath() + (f.query().isEmpty() ? "" : "?" + f.query()));
        Response r = f.body() == null ? call.send() : call.body(f.contentType(), f.body()).send();
        switch (f.outcome()) {
            case DRY -> {
                assertEquals(2, r.code() / 100, () -> "a dry run succeeds: " + r.text());
                assertEquals(
                        latest,
                        latestVersion(CONFIG_MAPS, ns),
                        "the dry run consumed no resourceVersion");
                assertEquals(before, items(CONFIG_MAPS, ns), "the dry run persisted nothing");
            }
            case REAL -> {
                assertEquals(2, r.code() / 100, () -> "a real write succeeds: " + r.text());
                assertEquals(latest + 1, latestVersion(CONFIG_MAPS, ns), "the write was real");
            }
            case MALFORMED -> {
                r.assertFailure(400, "BadRequest");
                assertEquals(latest, latestVersion(CONFIG_MAPS, ns));
                assertEquals(before, items(CONFIG_MAPS, ns));
            }
            case INVALID -> {
                r.assertStatus(
                        422,
                        "Invalid",
                        f.optionsKind()
                                + ".meta.k8s.io \"\" is invalid: dryRun: Unsupported "
                                + "value: "
                                + f.badValues()
                                + ": supported values: \"All\"");
                assertEquals(latest, latestVersion(CONFIG_MAPS, ns));
                assertEquals(before, items(CONFIG_MAPS, ns));
            }
        }
    }
}
