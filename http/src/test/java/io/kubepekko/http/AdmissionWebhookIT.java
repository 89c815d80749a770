package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.ServingTlsContexts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Admission webhooks through the API, with a real HTTPS webhook server the test starts (its
 * certificate signed by a CA given as the configurations' caBundle): a validating webhook's denial
 * with its message, a mutating webhook's JSON patch, failure policies on a webhook that is down,
 * hangs past its timeout or answers garbage, dry runs, the object and namespace selectors and the
 * warnings a webhook returns. Every configuration is limited to its own namespace by a namespace
 * selector, so the cases do not meet; each waits until its configuration reached the server's
 * informer by the request its "probe" webhook records.
 */
class AdmissionWebhookIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final AtomicInteger names = new AtomicInteger();
    private static final Map<String, List<JsonNode>> received = new ConcurrentHashMap<>();
    private static final CountDownLatch release = new CountDownLatch(1);

    /**
     * The server's audit log: requests in {@value #METADATA_NS} at Metadata, the rest at Request.
     */
    private static final Path AUDIT_LOG = AuditLogs.newFile();

    private static final String METADATA_NS = "hooks-audited-metadata";

    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s ->
                            s.withAudit(
                                    AuditLogs.settings(
                                            AuditLogs.policy(
                                                    "apiVersion: audit.k8s.io/v1\n"
                                                            + "kind: Policy\n"
                                                            + "rules:\n"
                                                            + "- level: Metadata\n"
                                                            + "  namespaces: ["
                                                            + METADATA_NS
                                                            + "]\n"
                                                            + "- level: Request\n"),
                                            AUDIT_LOG)));

    /** The Service the serving certificate names: {@code webhook.hooks-svc.svc}. */
    private static final String SERVICE = "webhook";

    private static final String SERVICE_NS = "hooks-svc";

    private static HttpsServer webhooks;
    private static ExecutorService executor;
    private static String base;
    private static String caBundle;

    @BeforeAll
    static void startWebhookServer() throws Exception {
        Instant now = Instant.now();
        CertificateIssuer.Issued ca =
                CertificateIssuer.selfSignedCa("webhook-ca", now, Duration.ofDays(1));
        CertificateIssuer.Issued serving =
                CertificateIssuer.leaf(
                        ca,
                        CertificateIssuer.subject("webhook", List.of()),
                        CertificateIssuer.Usage.SERVER,
                        new ServingNames(
                                List.of("localhost", SERVICE + "." + SERVICE_NS + ".svc"),
                                List.of("127.0.0.1")),
                        now,
                        Duration.ofDays(1));
        SSLContext tls =
                ServingTlsContexts.of(
                        List.of(serving.certificate(), ca.certificate()), serving.key());
        // The JDK's server leaves Nagle's algorithm on, which holds each answer for the client's
        // delayed ACK (40 ms on Linux); Go's net/http, which webhooks mostly run on, turns it off.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        webhooks = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhooks.setHttpsConfigurator(new HttpsConfigurator(tls));
        executor = Executors.newCachedThreadPool();
        webhooks.setExecutor(executor);
        webhooks.createContext("/", AdmissionWebhookIT::handle);
        webhooks.start();
        base = "https://127.0.0.1:" + webhooks.getAddress().getPort();
        caBundle =
                Base64.getEncoder()
                        .encodeToString(
                                Pem.encode(ca.certificate()).getBytes(StandardCharsets.US_ASCII));
    }

    @AfterAll
    static void stopWebhookServer() {
        release.countDown();
        webhooks.stop(0);
        executor.shutdownNow();
    }

    /** The webhook server: what it answers is named by the first segment of the path. */
    private static void handle(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        JsonNode review = Json.MAPPER.readTree(body);
        String path = exchange.getRequestURI().getPath();
        received.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>()).add(review);
        String uid = review.at("/request/uid").asText();
        String action = path.split("/")[1];
        String response;
        switch (action) {
            case "deny" ->
                    response =
                            answer(
                                    uid,
                                    "'allowed':false,'status':{'code':403,'message':'no configmaps here'}");
            case "label" -> response = labelPatch(uid);
            case "labels" -> response = labelsPatch(uid);
            case "breakmanaged" -> response = breakManagedFields(uid);
            case "warn" -> response = answer(uid, "'allowed':true,'warnings':['careful now']");
            case "itemwarn" ->
                    response =
                            answer(
                                    uid,
                                    "'allowed':true,'warnings':['careful now','deleting "
                                            + review.at("/request/oldObject/metadata/name").asText()
                                            + "']");
            case "denywarn" ->
                    response =
                            answer(
                                    uid,
                                    "'allowed':false,'status':{'code':403,'message':'held'},"
                                            + "'warnings':['careful now']");
            case "bigwarn" -> {
                JsonNode object = review.at("/request/object");
                String name =
                        (object.isObject() ? object : review.at("/request/oldObject"))
                                .at("/metadata/name")
                                .asText();
                response =
                        answer(
                                uid,
                                "'allowed':true,'warnings':['"
                                        + name
                                        + "x".repeat(5000)
                                        + "','careful now']");
            }
            case "annotate" ->
                    response = answer(uid, "'allowed':true,'auditAnnotations':{'verdict':'fine'}");
            case "item" ->
                    response =
                            answer(
                                    uid,
                                    "'allowed':true,'auditAnnotations':{'item':'"
                                            + review.at("/request/oldObject/metadata/name").asText()
                                            + "'}");
            case "interfere" -> {
                // The first call writes the object itself, between the server's dry run and its
                // store of what the webhook answers.
                if (received.get(path).size() == 1) {
                    String target = review.at("/request/object/metadata/name").asText();
                    String ns = review.at("/request/namespace").asText();
                    api.patch(
                            configMaps(ns) + "/" + target,
                            "application/merge-patch+json",
                            json("{'data':{'meanwhile':'written'}}"));
                }
                response = labelPatch(uid);
            }
            case "garbage" -> response = "this is not a review";
            case "hang" -> {
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                response = answer(uid, "'allowed':true");
            }
            default -> response = answer(uid, "'allowed':true");
        }
        byte[] out = response.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, out.length);
        exchange.getResponseBody().write(out);
        exchange.close();
    }

    /** Allowed, with a JSON patch adding the label mutated=yes. */
    private static String labelPatch(String uid) {
        return answer(
                uid,
                "'allowed':true,'patchType':'JSONPatch','patch':'"
                        + Base64.getEncoder()
                                .encodeToString(
                                        json("[{'op':'add','path':'/metadata/labels/mutated','value':'yes'}]")
                                                .getBytes(StandardCharsets.UTF_8))
                        + "'");
    }

    /** Allowed, with a JSON patch setting the labels to mutated=yes (for objects without any). */
    private static String labelsPatch(String uid) {
        return answer(
                uid,
                "'allowed':true,'patchType':'JSONPatch','patch':'"
                        + Base64.getEncoder()
                                .encodeToString(
                                        json("[{'op':'add','path':'/metadata/labels','value':{'mutated':'yes'}}]")
                                                .getBytes(StandardCharsets.UTF_8))
                        + "'");
    }

    /**
     * Allowed, with a JSON patch adding the label mutated=yes and leaving managedFields without a
     * fieldsType, which kube's field manager cannot decode.
     */
    private static String breakManagedFields(String uid) {
        return answer(
                uid,
                "'allowed':true,'patchType':'JSONPatch','patch':'"
                        + Base64.getEncoder()
                                .encodeToString(
                                        json("[{'op':'add','path':'/metadata/labels/mutated','value':'yes'},"
                                                        + "{'op':'add','path':'/metadata/managedFields','value':"
                                                        + "[{'manager':'hook','operation':'Update','apiVersion':'v1'}]}]")
                                                .getBytes(StandardCharsets.UTF_8))
                        + "'");
    }

    private static String answer(String uid, String fields) {
        return json(
                "{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','response':{'uid':'"
                        + uid
                        + "',"
                        + fields
                        + "}}");
    }

    /** A namespace of its own, labelled so that only its case's configuration applies there. */
    private static String newCase() {
        return newCase("hooks-" + names.incrementAndGet());
    }

    private static String newCase(String c) {
        api.create(
                "/api/v1/namespaces",
                json(
                        "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                + c
                                + "','labels':{'webhook-case':'"
                                + c
                                + "'}}}"));
        return c;
    }

    /**
     * A webhook of case {@code c} calling {@code path} on ConfigMap creates; {@code extra} adds
     * fields (failurePolicy, objectSelector…).
     */
    private static String hook(String c, String name, String path, String extra) {
        return hookAt(c, name, base + path, extra);
    }

    private static String hookAt(String c, String name, String url, String extra) {
        return "{'name':'"
                + name
                + "','clientConfig':{'url':'"
                + url
                + "','caBundle':'"
                + caBundle
                + "'},'rules':[{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],"
                + "'resources':['configmaps']}],'sideEffects':'None','admissionReviewVersions':['v1'],"
                + "'namespaceSelector':{'matchLabels':{'webhook-case':'"
                + c
                + "'}}"
                + (extra.isEmpty() ? "" : "," + extra)
                + "}";
    }

    /**
     * Configures {@code hooks} (after a probe webhook) for case {@code c} and waits until the
     * server calls them: the probe saw a request.
     */
    private static void configure(String c, boolean mutating, String... hooks) {
        String kind = mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration";
        List<String> all = new ArrayList<>();
        // A probe of each kind: a case may configure both, and waits for each.
        String probe = "/probe/" + c + "/" + (mutating ? "mutating" : "validating");
        all.add(hook(c, "probe." + c + ".example.com", probe, ""));
        all.addAll(List.of(hooks));
        api.create(
                "/apis/admissionregistration.k8s.io/v1/" + kind.toLowerCase() + "s",
                json(
                        "{'apiVersion':'admissionregistration.k8s.io/v1','kind':'"
                                + kind
                                + "','metadata':{'name':'"
                                + c
                                + "'},'webhooks':["
                                + String.join(",", all)
                                + "]}"));
        await().atMost(DEADLINE)
                .until(
                        () -> {
                            api.post(configMaps(c) + "?dryRun=All", configMap("probe", "{}"));
                            return received.containsKey(probe);
                        });
    }

    private static String configMaps(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    private static String configMap(String name, String labels) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "','labels':"
                        + labels
                        + "},'data':{'k':'v'}}");
    }

    @Test
    void aValidatingWebhookDeniesWithItsMessage() {
        String c = newCase();
        configure(c, false, hook(c, "deny.example.com", "/deny", ""));

        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "admission webhook \"deny.example.com\" denied the request: no configmaps here",
                r.json().path("message").asText());
        assertEquals(404, api.get(configMaps(c) + "/cm").code());
    }

    @Test
    void aMutatingWebhooksPatchIsStored() {
        String c = newCase();
        configure(c, true, hook(c, "label.example.com", "/label", ""));

        ObjectNode created = api.create(configMaps(c), configMap("cm", "{'app':'web'}"));
        assertEquals("yes", created.at("/metadata/labels/mutated").asText());
        assertEquals("web", created.at("/metadata/labels/app").asText());
        assertEquals(
                "yes",
                api.get(configMaps(c) + "/cm").json().at("/metadata/labels/mutated").asText());
        JsonNode review = received.get("/label").get(0);
        assertEquals("CREATE", review.at("/request/operation").asText());
        assertEquals("configmaps", review.at("/request/resource/resource").asText());
        assertEquals("ConfigMap", review.at("/request/kind/kind").asText());
        assertEquals(c, review.at("/request/namespace").asText());
        assertEquals("kubernetes-admin", review.at("/request/userInfo/username").asText());
        assertEquals("CreateOptions", review.at("/request/options/kind").asText());
    }

    @Test
    void aWebhookThatIsDownFailsTheWriteOnlyWhenItsPolicyIsFail() throws IOException {
        int down = TestApiServer.freePort();
        String ignored = newCase();
        configure(
                ignored,
                false,
                hookAt(
                        ignored,
                        "down.example.com",
                        "https://127.0.0.1:" + down + "/",
                        "'failurePolicy':'Ignore'"));
        assertEquals(201, api.post(configMaps(ignored), configMap("cm", "{}")).code());

        String failing = newCase();
        configure(
                failing,
                false,
                hookAt(failing, "down.example.com", "https://127.0.0.1:" + down + "/", ""));
        Response r = api.post(configMaps(failing), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertEquals("InternalError", r.json().path("reason").asText());
        assertEquals(
                "Internal error occurred: failed calling webhook \"down.example.com\": failed to call"
                        + " webhook: Post \"https://127.0.0.1:"
                        + down
                        + "/?timeout=10s\": dial tcp 127.0.0.1:"
                        + down
                        + ": connect: connection refused",
                r.json().path("message").asText());
    }

    @Test
    void aWebhookThatHangsPastItsTimeoutFailsAsItsPolicySays() {
        String ignored = newCase();
        configure(
                ignored,
                false,
                hook(
                        ignored,
                        "hang.example.com",
                        "/hang",
                        "'failurePolicy':'Ignore','timeoutSeconds':1"));
        assertEquals(201, api.post(configMaps(ignored), configMap("cm", "{}")).code());

        String failing = newCase();
        configure(failing, false, hook(failing, "hang.example.com", "/hang", "'timeoutSeconds':1"));
        Response r = api.post(configMaps(failing), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertTrue(
                r.json()
                        .path("message")
                        .asText()
                        .endsWith("/hang?timeout=1s\": context deadline exceeded"),
                r.text());
    }

    @Test
    void aGarbageAnswerIsAFailedCall() {
        String c = newCase();
        configure(c, false, hook(c, "garbage.example.com", "/garbage", ""));
        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertTrue(
                r.json()
                        .path("message")
                        .asText()
                        .startsWith(
                                "Internal error occurred: failed calling webhook \"garbage.example.com\":"),
                r.text());
    }

    @Test
    void aDryRunCallsAWebhookWithoutSideEffectsTellingItSo() {
        String c = newCase();
        configure(c, true, hook(c, "label.example.com", "/label/" + c, ""));

        Response r = api.post(configMaps(c) + "?dryRun=All", configMap("cm", "{'app':'web'}"));
        assertEquals(201, r.code(), r.text());
        assertEquals("yes", r.json().at("/metadata/labels/mutated").asText());
        List<JsonNode> reviews = received.get("/label/" + c);
        assertTrue(reviews.get(reviews.size() - 1).at("/request/dryRun").asBoolean());
        assertEquals(404, api.get(configMaps(c) + "/cm").code());
    }

    @Test
    void selectorsSkipTheWebhook() {
        String c = newCase();
        configure(
                c,
                false,
                hook(
                        c,
                        "deny.example.com",
                        "/deny",
                        "'objectSelector':{'matchLabels':{'checked':'yes'}}"));
        // The object selector: an object without the label is not sent.
        assertEquals(201, api.post(configMaps(c), configMap("free", "{}")).code());
        assertEquals(403, api.post(configMaps(c), configMap("held", "{'checked':'yes'}")).code());
        // The namespace selector: another namespace is not this configuration's.
        String other = newCase();
        assertEquals(
                201, api.post(configMaps(other), configMap("held", "{'checked':'yes'}")).code());
    }

    @Test
    void aWebhooksWarningsAreWarningHeaders() {
        String c = newCase();
        configure(c, false, hook(c, "warn.example.com", "/warn", ""));
        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(201, r.code(), r.text());
        assertEquals(List.of("299 - \"careful now\""), r.headers().allValues("Warning"));
        assertFalse(received.get("/warn").isEmpty());
    }

    /**
     * A webhook of case {@code c} calling Service {@code service} of SERVICE_NS at {@code path}.
     */
    private static String serviceHook(String c, String name, String service, String path) {
        return hook(c, name, "/unused", "")
                .replace(
                        "'url':'" + base + "/unused'",
                        "'service':{'namespace':'"
                                + SERVICE_NS
                                + "','name':'"
                                + service
                                + "','path':'"
                                + path
                                + "'}");
    }

    private static void serviceWithEndpoints(String name) {
        api.create(
                "/api/v1/namespaces/" + SERVICE_NS + "/services",
                json(
                        "{'apiVersion':'v1','kind':'Service','metadata':{'name':'"
                                + name
                                + "'},'spec':{'ports':[{'name':'https','port':443,'targetPort':8443}]}}"));
        api.create(
                "/api/v1/namespaces/" + SERVICE_NS + "/endpoints",
                json(
                        "{'apiVersion':'v1','kind':'Endpoints','metadata':{'name':'"
                                + name
                                + "'},'subsets':[{'addresses':[{'ip':'127.0.0.1'}],"
                                + "'ports':[{'name':'https','port':"
                                + webhooks.getAddress().getPort()
                                + "}]}]}"));
    }

    @Test
    void aServiceReferenceCallsAReadyEndpointVerifyingTheServicesName() {
        api.create(
                "/api/v1/namespaces",
                json(
                        "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                + SERVICE_NS
                                + "'}}"));
        String c = newCase();
        configure(c, false, serviceHook(c, "svc.example.com", SERVICE, "/deny/svc"));
        String post = "Post \"https://webhook.hooks-svc.svc:443/deny/svc?timeout=10s\": ";
        String failed =
                "Internal error occurred: failed calling webhook \"svc.example.com\": failed to"
                        + " call webhook: ";

        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertEquals(
                failed + post + "service \"webhook\" not found", r.json().path("message").asText());

        api.create(
                "/api/v1/namespaces/" + SERVICE_NS + "/services",
                json(
                        "{'apiVersion':'v1','kind':'Service','metadata':{'name':'"
                                + SERVICE
                                + "'},'spec':{'ports':[{'name':'https','port':443,'targetPort':8443}]}}"));
        r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertEquals(
                failed + post + "no endpoints available for service \"webhook\"",
                r.json().path("message").asText());

        api.create(
                "/api/v1/namespaces/" + SERVICE_NS + "/endpoints",
                json(
                        "{'apiVersion':'v1','kind':'Endpoints','metadata':{'name':'"
                                + SERVICE
                                + "'},'subsets':[{'addresses':[{'ip':'127.0.0.1'}],"
                                + "'ports':[{'name':'https','port':"
                                + webhooks.getAddress().getPort()
                                + "}]}]}"));
        r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "admission webhook \"svc.example.com\" denied the request: no configmaps here",
                r.json().path("message").asText());
        assertFalse(received.get("/deny/svc").isEmpty());

        // Another Service to the same endpoint: the certificate does not name it.
        String other = newCase();
        serviceWithEndpoints("other");
        configure(other, false, serviceHook(other, "other.example.com", "other", "/deny/other"));
        r = api.post(configMaps(other), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertTrue(
                r.json()
                        .path("message")
                        .asText()
                        .endsWith(
                                "tls: failed to verify certificate: x509: certificate is valid for"
                                        + " localhost, webhook.hooks-svc.svc, not"
                                        + " other.hooks-svc.svc"),
                r.text());
        assertFalse(received.containsKey("/deny/other"));
    }

    @Test
    void aDeleteCollectionCallsTheWebhooksForEachItem() {
        String c = newCase();
        configure(
                c,
                false,
                hook(
                                c,
                                "deny.example.com",
                                "/deny/" + c,
                                "'objectSelector':{'matchLabels':{'checked':'yes'}}")
                        .replace("'operations':['CREATE']", "'operations':['DELETE']"));
        api.create(configMaps(c), configMap("free", "{}"));
        api.create(configMaps(c), configMap("held", "{'checked':'yes'}"));

        Response r = api.delete(configMaps(c));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "admission webhook \"deny.example.com\" denied the request: no configmaps here",
                r.json().path("message").asText());
        assertEquals(200, api.get(configMaps(c) + "/held").code());
        List<JsonNode> reviews = received.get("/deny/" + c);
        assertEquals(1, reviews.size(), reviews.toString());
        JsonNode request = reviews.get(0).path("request");
        assertEquals("DELETE", request.path("operation").asText());
        // kube's DeleteCollection admits each item with the request's attributes: no name.
        assertEquals("", request.path("name").asText());
        assertEquals(c, request.path("namespace").asText());
        assertEquals("held", request.at("/oldObject/metadata/name").asText());
        assertEquals("DeleteOptions", request.at("/options/kind").asText());
    }

    @Test
    void subresourceCreatesCallTheWebhooksTheirRulesName() {
        String c = newCase();
        configure(
                c,
                false,
                hook(c, "deny.example.com", "/deny/" + c, "")
                        .replace(
                                "'resources':['configmaps']",
                                "'resources':['pods/eviction','pods/binding','bindings',"
                                        + "'serviceaccounts/token']"));
        String pods = "/api/v1/namespaces/" + c + "/pods";
        api.create(
                pods,
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},"
                                + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}"));
        String denied =
                "admission webhook \"deny.example.com\" denied the request: no configmaps here";

        Response r =
                api.post(
                        pods + "/p/eviction",
                        json(
                                "{'apiVersion':'policy/v1','kind':'Eviction',"
                                        + "'metadata':{'name':'p'}}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(denied, r.json().path("message").asText());
        assertEquals(200, api.get(pods + "/p").code());
        JsonNode eviction = received.get("/deny/" + c).get(0).path("request");
        assertEquals("CREATE", eviction.path("operation").asText());
        assertEquals("Eviction", eviction.at("/kind/kind").asText());
        assertEquals("policy", eviction.at("/kind/group").asText());
        assertEquals("pods", eviction.at("/resource/resource").asText());
        assertEquals("eviction", eviction.path("subResource").asText());
        assertEquals("p", eviction.path("name").asText());
        assertEquals("Eviction", eviction.at("/object/kind").asText());

        String binding =
                json(
                        "{'apiVersion':'v1','kind':'Binding','metadata':{'name':'p'},"
                                + "'target':{'apiVersion':'v1','kind':'Node','name':'n1'}}");
        r = api.post(pods + "/p/binding", binding);
        assertEquals(403, r.code(), r.text());
        assertEquals(denied, r.json().path("message").asText());
        r = api.post("/api/v1/namespaces/" + c + "/bindings", binding);
        assertEquals(403, r.code(), r.text());
        assertEquals("", api.get(pods + "/p").json().at("/spec/nodeName").asText());

        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.get("/api/v1/namespaces/" + c + "/serviceaccounts/default")
                                                .code()
                                        == 200);
        r =
                api.post(
                        "/api/v1/namespaces/" + c + "/serviceaccounts/default/token",
                        json("{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest'}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(denied, r.json().path("message").asText());
        List<JsonNode> reviews = received.get("/deny/" + c);
        assertEquals(4, reviews.size());
        assertEquals("binding", reviews.get(1).at("/request/subResource").asText());
        assertEquals("bindings", reviews.get(2).at("/request/resource/resource").asText());
        assertEquals("", reviews.get(2).at("/request/subResource").asText());
        assertEquals("TokenRequest", reviews.get(3).at("/request/kind/kind").asText());
        assertEquals("token", reviews.get(3).at("/request/subResource").asText());
    }

    /**
     * kube refuses a create in a terminating namespace in NamespaceLifecycle, a plugin of its
     * mutating phase ordered before the mutating webhooks: a binding there calls no webhook.
     */
    @Test
    void aBindingTheServerRefusesBeforeTheWebhooksCallsNone() {
        String c = newCase();
        configure(
                c,
                true,
                hook(c, "bind.example.com", "/bind/" + c, "")
                        .replace(
                                "'resources':['configmaps']",
                                "'resources':['pods/binding','bindings']"));
        api.patch(
                        "/api/v1/namespaces/" + c,
                        "application/merge-patch+json",
                        json("{'metadata':{'finalizers':['example.com/keep-ns']}}"))
                .assertCode(200);
        api.delete("/api/v1/namespaces/" + c).assertCode(200);
        String binding =
                json(
                        "{'apiVersion':'v1','kind':'Binding','metadata':{'name':'p'},"
                                + "'target':{'apiVersion':'v1','kind':'Node','name':'n1'}}");

        Response r = api.post("/api/v1/namespaces/" + c + "/pods/p/binding", binding);
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "pods \"p\" is forbidden: unable to create new content in namespace "
                        + c
                        + " because it is being terminated",
                r.json().path("message").asText());
        r = api.post("/api/v1/namespaces/" + c + "/bindings", binding);
        assertEquals(403, r.code(), r.text());
        assertFalse(received.containsKey("/bind/" + c), String.valueOf(received.get("/bind/" + c)));

        api.patch(
                        "/api/v1/namespaces/" + c,
                        "application/merge-patch+json",
                        json("{'metadata':{'finalizers':null}}"))
                .assertCode(200);
    }

    @Test
    void aPatchAWebhookChangedIsMadeAgainWhenTheObjectChangedMeanwhile() {
        String c = newCase();
        configure(
                c,
                true,
                hook(c, "interfere.example.com", "/interfere/" + c, "")
                        .replace("'operations':['CREATE']", "'operations':['UPDATE']"));
        api.create(configMaps(c), configMap("cm", "{'app':'web'}"));

        Response r =
                api.patch(
                        configMaps(c) + "/cm",
                        "application/merge-patch+json",
                        json("{'data':{'k':'patched'}}"));
        assertEquals(200, r.code(), r.text());
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("patched", stored.at("/data/k").asText());
        assertEquals("written", stored.at("/data/meanwhile").asText());
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        // The webhook's own write called it too (the second review); the patch was then asked
        // again on the object that write left.
        List<JsonNode> reviews = received.get("/interfere/" + c);
        assertEquals(3, reviews.size());
        assertEquals("written", reviews.get(2).at("/request/object/data/meanwhile").asText());
        assertEquals("patched", reviews.get(2).at("/request/object/data/k").asText());
    }

    /** A webhook of case {@code c} calling {@code path} on ConfigMap creates and updates. */
    private static String createAndUpdateHook(String c, String name, String path) {
        return hook(c, name, path, "")
                .replace("'operations':['CREATE']", "'operations':['CREATE','UPDATE']");
    }

    private static boolean calledOnUpdate(String path) {
        return received.get(path).stream()
                .anyMatch(r -> r.at("/request/operation").asText().equals("UPDATE"));
    }

    private static JsonNode managedFields(String ns) {
        return api.get(configMaps(ns) + "/cm").json().at("/metadata/managedFields");
    }

    /** An apply of ConfigMap cm with label app=web and data k={@code value}, as "applier". */
    private static Response applyConfigMap(String ns, String value) {
        return api.patch(
                configMaps(ns) + "/cm?fieldManager=applier",
                "application/apply-patch+yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    app: web\n"
                        + "data:\n  k: "
                        + value
                        + "\n");
    }

    /** Whether {@code entries} are the applier's Apply of {@link #applyConfigMap} alone. */
    private static void assertTheAppliersApplyAlone(JsonNode entries) {
        assertEquals(1, entries.size(), entries.toString());
        assertEquals("applier", entries.get(0).path("manager").asText());
        assertEquals("Apply", entries.get(0).path("operation").asText());
        assertEquals(
                json("{'f:data':{'f:k':{}},'f:metadata':{'f:labels':{'f:app':{}}}}"),
                entries.get(0).path("fieldsV1").toString());
    }

    /**
     * kube's field manager records a write before mutating admission: an apply a webhook changed is
     * the applier's Apply, of the fields it applied, with no Update beside it, and the webhook's
     * label is nobody's.
     */
    @Test
    void anApplyAWebhookChangedIsRecordedAsTheAppliersApplyAlone() {
        String c = newCase();
        configure(
                c,
                true,
                hook(c, "label.example.com", "/label/" + c, "")
                        .replace("'operations':['CREATE']", "'operations':['UPDATE']"));
        Response created = applyConfigMap(c, "v");
        assertEquals(201, created.code(), created.text());
        assertTheAppliersApplyAlone(managedFields(c));

        Response updated = applyConfigMap(c, "w");
        assertEquals(200, updated.code(), updated.text());
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("w", stored.at("/data/k").asText());
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        assertTheAppliersApplyAlone(stored.at("/metadata/managedFields"));
        assertEquals(
                stored.at("/metadata/managedFields"), updated.json().at("/metadata/managedFields"));
        assertTrue(calledOnUpdate("/label/" + c), "the webhook saw the apply's update");
    }

    /** An apply that creates an object a webhook changed creates it, recorded as the Apply. */
    @Test
    void anApplyThatCreatesAnObjectAWebhookChangedCreatesItAsTheAppliersApply() {
        String c = newCase();
        configure(c, true, hook(c, "label.example.com", "/label/" + c, ""));
        Response created = applyConfigMap(c, "v");
        assertEquals(201, created.code(), created.text());
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        assertTheAppliersApplyAlone(stored.at("/metadata/managedFields"));
        assertEquals(
                "CREATE",
                received.get("/label/" + c).stream()
                        .filter(r -> r.at("/request/name").asText().equals("cm"))
                        .findFirst()
                        .orElseThrow()
                        .at("/request/operation")
                        .asText());
    }

    /**
     * A create and a merge patch a webhook changed are their managers' Updates, of what the request
     * changed: the webhook's label is nobody's.
     */
    @Test
    void aCreateAndAPatchAWebhookChangedRecordTheirManagersUpdatesAlone() {
        String c = newCase();
        configure(c, true, createAndUpdateHook(c, "label.example.com", "/label/" + c));
        Response r =
                api.post(configMaps(c) + "?fieldManager=creator", configMap("cm", "{'app':'web'}"));
        assertEquals(201, r.code(), r.text());
        assertEquals("yes", r.json().at("/metadata/labels/mutated").asText());
        JsonNode entries = managedFields(c);
        assertEquals(1, entries.size(), entries.toString());
        assertEquals("creator", entries.get(0).path("manager").asText());
        assertEquals("Update", entries.get(0).path("operation").asText());
        JsonNode labels = entries.get(0).at("/fieldsV1/f:metadata/f:labels");
        assertTrue(labels.has("f:app"), entries.toString());
        assertFalse(labels.has("f:mutated"), entries.toString());

        r =
                api.patch(
                        configMaps(c) + "/cm?fieldManager=patcher",
                        "application/merge-patch+json",
                        json("{'data':{'k':'patched'}}"));
        assertEquals(200, r.code(), r.text());
        entries = managedFields(c);
        assertEquals(2, entries.size(), entries.toString());
        assertEquals("creator", entries.get(0).path("manager").asText());
        assertFalse(
                entries.get(0).at("/fieldsV1/f:metadata/f:labels").has("f:mutated"),
                entries.toString());
        assertEquals("patcher", entries.get(1).path("manager").asText());
        assertEquals("Update", entries.get(1).path("operation").asText());
        assertEquals(json("{'f:data':{'f:k':{}}}"), entries.get(1).path("fieldsV1").toString());
        assertTrue(calledOnUpdate("/label/" + c), "the webhook saw the patch");
    }

    /**
     * kube's managedFields check after mutating admission: managedFields a webhook left invalid are
     * reset to those the write recorded, with its warning.
     */
    @Test
    void managedFieldsAWebhookBrokeAreResetWithKubesWarning() {
        String c = newCase();
        configure(c, true, hook(c, "break.example.com", "/breakmanaged/" + c, ""));
        Response r =
                api.post(configMaps(c) + "?fieldManager=creator", configMap("cm", "{'app':'web'}"));
        assertEquals(201, r.code(), r.text());
        assertEquals(
                List.of(
                        "299 - \".metadata.managedFields was in an invalid state after admission;"
                                + " this could be caused by an outdated mutating admission controller;"
                                + " please fix your requests: missing fieldsType in managed fields"
                                + " entry 0\""),
                r.headers().allValues("Warning"));
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        JsonNode entries = stored.at("/metadata/managedFields");
        assertEquals(1, entries.size(), entries.toString());
        assertEquals("creator", entries.get(0).path("manager").asText());
        assertEquals("FieldsV1", entries.get(0).path("fieldsType").asText());
    }

    /** A {@code matchConditions} field of the given conditions (name, expression pairs). */
    private static String conditions(String... nameAndExpression) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nameAndExpression.length; i += 2) {
            out.add(
                    "{'name':'"
                            + nameAndExpression[i]
                            + "','expression':\""
                            // json() turns ' into ", so CEL's strings are written "…", escaped.
                            + nameAndExpression[i + 1].replace("\"", "\\\"")
                            + "\"}");
        }
        return "'matchConditions':[" + String.join(",", out) + "]";
    }

    @Test
    void aFalseMatchConditionSkipsTheWebhookATrueOneCallsIt() {
        String c = newCase();
        configure(
                c,
                false,
                hook(
                        c,
                        "deny.example.com",
                        "/deny/" + c,
                        conditions(
                                "not-free",
                                "object.metadata.name != \"free\"",
                                "admin",
                                "request.userInfo.username == \"kubernetes-admin\""
                                        + " && oldObject == null")));
        int calls = received.getOrDefault("/deny/" + c, List.of()).size();
        assertEquals(201, api.post(configMaps(c), configMap("free", "{}")).code());
        assertEquals(calls, received.getOrDefault("/deny/" + c, List.of()).size());
        Response r = api.post(configMaps(c), configMap("held", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(calls + 1, received.get("/deny/" + c).size());
    }

    @Test
    void aMatchConditionThatFailsToEvaluateFailsTheWriteOnlyWhenThePolicyIsFail() {
        String failing = newCase();
        // The probe's own create must pass (the condition skips the webhook for it): a failed
        // condition stops every validating webhook.
        String broken = "object.metadata.name != \"probe\" && object.data.missing == \"x\"";
        configure(
                failing,
                false,
                hook(
                        failing,
                        "deny.example.com",
                        "/deny/" + failing,
                        conditions("broken", broken)));
        Response r = api.post(configMaps(failing), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals("Forbidden", r.json().path("reason").asText());
        assertEquals(
                "configmaps \"cm\" is forbidden: expression '"
                        + broken
                        + "' resulted in error: key 'missing' is not present in map.",
                r.json().path("message").asText());
        assertFalse(received.containsKey("/deny/" + failing));

        String ignored = newCase();
        configure(
                ignored,
                false,
                hook(
                        ignored,
                        "deny.example.com",
                        "/deny/" + ignored,
                        "'failurePolicy':'Ignore',"
                                + conditions("broken", "object.data.missing == \"x\"")));
        assertEquals(201, api.post(configMaps(ignored), configMap("cm", "{}")).code());
        assertFalse(received.containsKey("/deny/" + ignored));
    }

    /**
     * kube decides which validating webhooks apply before calling any: a condition failing under
     * Fail refuses the write, and the webhooks that did apply are not called.
     */
    @Test
    void aValidatingWebhooksFailedConditionKeepsEveryValidatingWebhookFromBeingCalled() {
        String c = newCase();
        // The probe's own create must pass: the condition skips the webhook for it and fails
        // for the others.
        String broken = "object.metadata.name != \"probe\" && object.data.missing == \"x\"";
        configure(
                c,
                false,
                hook(c, "allow.example.com", "/allow/" + c, ""),
                hook(c, "deny.example.com", "/deny/" + c, conditions("broken", broken)));
        // The probe's creates went through the allowing webhook.
        int allowed = received.getOrDefault("/allow/" + c, List.of()).size();
        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "configmaps \"cm\" is forbidden: expression '"
                        + broken
                        + "' resulted in error: key 'missing' is not present in map.",
                r.json().path("message").asText());
        assertEquals(
                allowed,
                received.get("/allow/" + c).size(),
                "the other validating webhook was called");
        assertFalse(received.containsKey("/deny/" + c));
    }

    /** kube's CEL libraries in a real condition: quantity. */
    @Test
    void aMatchConditionCanUseKubesQuantityLibrary() {
        String c = newCase();
        configure(
                c,
                false,
                hook(
                        c,
                        "deny.example.com",
                        "/deny/" + c,
                        conditions(
                                "big",
                                "has(object.data.size)"
                                        + " && quantity(object.data.size)"
                                        + ".isGreaterThan(quantity(\"1Gi\"))")));
        assertEquals(201, api.post(configMaps(c), sized("small", "512Mi")).code());
        assertFalse(received.containsKey("/deny/" + c));
        Response r = api.post(configMaps(c), sized("large", "2Gi"));
        assertEquals(403, r.code(), r.text());
        assertEquals(1, received.get("/deny/" + c).size());
    }

    private static String sized(String name, String size) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "'},'data':{'size':'"
                        + size
                        + "'}}");
    }

    @Test
    void aMatchConditionThatDoesNotCompileIsInvalid() {
        String c = newCase();
        Response r =
                api.post(
                        "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
                        json(
                                "{'apiVersion':'admissionregistration.k8s.io/v1',"
                                        + "'kind':'ValidatingWebhookConfiguration','metadata':{'name':'"
                                        + c
                                        + "'},'webhooks':["
                                        + hook(
                                                c,
                                                "deny.example.com",
                                                "/deny",
                                                conditions("sum", "1 + 1", "bad", "nope == 1"))
                                        + "]}"));
        assertEquals(422, r.code(), r.text());
        JsonNode causes = r.json().at("/details/causes");
        assertEquals(2, causes.size(), r.text());
        assertEquals(
                "webhooks[0].matchConditions[0].expression", causes.get(0).path("field").asText());
        assertEquals(
                "Invalid value: \"1 + 1\": must evaluate to bool but got int",
                causes.get(0).path("message").asText());
        assertEquals(
                "webhooks[0].matchConditions[1].expression", causes.get(1).path("field").asText());
        assertTrue(
                causes.get(1)
                        .path("message")
                        .asText()
                        .startsWith(
                                "Invalid value: \"nope == 1\": compilation failed: ERROR:"
                                        + " <input>:1:1: undeclared reference to 'nope'"),
                r.text());
    }

    /**
     * kube's compile-time literal checks (cel-go's validators in kube's base environment): a
     * duration or regex literal that would fail and a mixed-type list refuse the configuration with
     * the compiler's errors at the literal.
     */
    @Test
    void aMatchConditionWithABadLiteralIsInvalidAsKubesCompilerSays() {
        String c = newCase();
        String duration = "duration(\"1x\") > duration(\"0s\")";
        String regex = "object.metadata.name.matches(\"[\")";
        String mixed = "request.operation in [\"CREATE\", 1]";
        Response r =
                api.post(
                        "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
                        json(
                                "{'apiVersion':'admissionregistration.k8s.io/v1',"
                                        + "'kind':'ValidatingWebhookConfiguration','metadata':{'name':'"
                                        + c
                                        + "'},'webhooks':["
                                        + hook(
                                                c,
                                                "deny.example.com",
                                                "/deny",
                                                conditions(
                                                        "duration",
                                                        duration,
                                                        "regex",
                                                        regex,
                                                        "mixed",
                                                        mixed))
                                        + "]}"));
        assertEquals(422, r.code(), r.text());
        JsonNode causes = r.json().at("/details/causes");
        assertEquals(3, causes.size(), r.text());
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    "webhooks[0].matchConditions[" + i + "].expression",
                    causes.get(i).path("field").asText());
        }
        assertEquals(
                "Invalid value: \"duration(\\\"1x\\\") > duration(\\\"0s\\\")\":"
                        + " compilation failed: ERROR: <input>:1:10: invalid duration argument\n"
                        + " | duration(\"1x\") > duration(\"0s\")\n"
                        + " | .........^",
                causes.get(0).path("message").asText());
        assertTrue(
                causes.get(1)
                        .path("message")
                        .asText()
                        .endsWith(
                                ": compilation failed: ERROR: <input>:1:30: invalid matches"
                                        + " argument\n | "
                                        + regex
                                        + "\n | "
                                        + ".".repeat(29)
                                        + "^"),
                r.text());
        assertTrue(
                causes.get(2)
                        .path("message")
                        .asText()
                        .endsWith(
                                ": compilation failed: ERROR: <input>:1:33: expected type"
                                        + " 'string' but found 'int'\n | "
                                        + mixed
                                        + "\n | "
                                        + ".".repeat(32)
                                        + "^"),
                r.text());
        assertEquals(
                404,
                api.get(
                                "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/"
                                        + c)
                        .code());
    }

    /**
     * kube's webhook audit annotations: every mutating webhook called says whether it mutated, the
     * patch of the one that did (at level Request), a webhook's own auditAnnotations under its
     * name, a call that failed open under Ignore; at level Metadata the patch is left out.
     */
    @Test
    void theWebhooksLeaveKubesAuditAnnotations() throws Exception {
        for (String c : List.of(newCase(), newCase(METADATA_NS))) {
            // The validating ones first: once the label webhook is on, the probes' creates (no
            // labels to add to) fail before any validating webhook is called.
            configure(
                    c,
                    false,
                    hook(c, "annotate.example.com", "/annotate/" + c, ""),
                    hookAt(
                            c,
                            "down.example.com",
                            "https://127.0.0.1:1/down",
                            "'failurePolicy':'Ignore'"));
            configure(c, true, hook(c, "label.example.com", "/label/" + c, ""));
        }
        String request = "hooks-" + names.get();
        Response created = api.post(configMaps(request), configMap("audited", "{'app':'x'}"));
        assertEquals(201, created.code(), created.text());
        created = api.post(configMaps(METADATA_NS), configMap("audited", "{'app':'x'}"));
        assertEquals(201, created.code(), created.text());

        Map<String, String> atRequest = auditAnnotations(request);
        Map<String, String> mutations = withPrefix(atRequest, "mutation.webhook.admission.k8s.io/");
        assertTrue(
                mutations.containsValue(
                        "{\"configuration\":\""
                                + request
                                + "\",\"webhook\":\"label.example.com\",\"mutated\":true}"),
                atRequest.toString());
        assertTrue(
                mutations.containsValue(
                        "{\"configuration\":\""
                                + request
                                + "\",\"webhook\":\"probe."
                                + request
                                + ".example.com\",\"mutated\":false}"),
                atRequest.toString());
        Map<String, String> patches = withPrefix(atRequest, "patch.webhook.admission.k8s.io/");
        assertEquals(
                List.of(
                        "{\"configuration\":\""
                                + request
                                + "\",\"webhook\":\"label.example.com\",\"patch\":[{\"op\":\"add\","
                                + "\"path\":\"/metadata/labels/mutated\",\"value\":\"yes\"}],"
                                + "\"patchType\":\"JSONPatch\"}"),
                List.copyOf(patches.values()),
                atRequest.toString());
        // The patch's key is the mutation's of the same webhook: round 0, its index.
        String patchKey = patches.keySet().iterator().next();
        assertTrue(
                atRequest
                        .get(
                                "mutation.webhook.admission.k8s.io/"
                                        + patchKey.substring(patchKey.indexOf('/') + 1))
                        .contains("\"mutated\":true"),
                atRequest.toString());
        assertEquals("fine", atRequest.get("annotate.example.com/verdict"), atRequest.toString());
        assertEquals(
                List.of("down.example.com"),
                List.copyOf(
                        withPrefix(atRequest, "failed-open.validating.webhook.admission.k8s.io/")
                                .values()),
                atRequest.toString());
        assertTrue(
                withPrefix(
                                        atRequest,
                                        "failed-open.validating.webhook.admission.k8s.io/round_0_index_")
                                .size()
                        == 1);

        Map<String, String> atMetadata = auditAnnotations(METADATA_NS);
        assertFalse(
                withPrefix(atMetadata, "mutation.webhook.admission.k8s.io/").isEmpty(),
                atMetadata.toString());
        assertTrue(
                withPrefix(atMetadata, "patch.webhook.admission.k8s.io/").isEmpty(),
                atMetadata.toString());
    }

    @Test
    void aDeleteCollectionsItemsAnnotateTheRequestsOneAuditEventAsKube() {
        String c = newCase();
        String deletes = "'operations':['DELETE']";
        configure(
                c,
                true,
                hook(c, "item.example.com", "/item/" + c, "")
                        .replace("'operations':['CREATE']", deletes));
        configure(
                c,
                false,
                hookAt(
                                c,
                                "down.example.com",
                                "https://127.0.0.1:1/down",
                                "'failurePolicy':'Ignore'")
                        .replace("'operations':['CREATE']", deletes));
        api.create(configMaps(c), configMap("one", "{'batch':'yes'}"));
        api.create(configMaps(c), configMap("two", "{'batch':'yes'}"));

        // Not the namespace's kube-root-ca.crt: the two items only.
        Response r = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(200, r.code(), r.text());
        assertEquals(2, received.get("/item/" + c).size());

        Map<String, String> annotations = auditAnnotations(c, "deletecollection", "");
        // Each item calls the same webhooks: their annotations meet under the same keys, and the
        // request's one event keeps each key's first value, as kube's audit context.
        assertEquals(
                List.of(
                        "{\"configuration\":\""
                                + c
                                + "\",\"webhook\":\"item.example.com\",\"mutated\":false}"),
                List.copyOf(withPrefix(annotations, "mutation.webhook.admission.k8s.io/").values()),
                annotations.toString());
        assertEquals(
                Map.of(
                        "failed-open.validating.webhook.admission.k8s.io/round_0_index_0",
                        "down.example.com"),
                withPrefix(annotations, "failed-open."),
                annotations.toString());
        // The items answered "one" and "two": one of them, whichever was first.
        assertTrue(
                List.of("one", "two").contains(annotations.get("item.example.com/item")),
                annotations.toString());
    }

    @Test
    void aDeleteCollectionsItemsWarningsAreItsWarningHeadersOnceEach() {
        String c = newCase();
        configure(
                c,
                false,
                hook(c, "itemwarn.example.com", "/itemwarn/" + c, "")
                        .replace("'operations':['CREATE']", "'operations':['DELETE']"));
        for (String name : List.of("one", "two", "three")) {
            api.create(configMaps(c), configMap(name, "{'batch':'yes'}"));
        }

        Response r = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(200, r.code(), r.text());
        assertEquals(3, received.get("/itemwarn/" + c).size());
        // Each item's webhook warns: kube's recorder adds every item's warnings to the request's
        // response, the same text once (the items go in no order the test may rely on).
        List<String> headers = r.headers().allValues("Warning");
        assertEquals(4, headers.size(), headers.toString());
        assertEquals(
                Set.of(
                        "299 - \"careful now\"",
                        "299 - \"deleting one\"",
                        "299 - \"deleting two\"",
                        "299 - \"deleting three\""),
                Set.copyOf(headers));
    }

    @Test
    void aRefusalCarriesTheWarningsOfTheWebhookThatRefused() {
        String c = newCase();
        configure(
                c,
                false,
                hook(c, "denywarn.example.com", "/denywarn/" + c, "")
                        .replace("'operations':['CREATE']", "'operations':['DELETE']"));
        api.create(configMaps(c), configMap("held", "{'batch':'yes'}"));

        // kube's recorder writes the warnings before the answer, a refusal's too.
        Response one = api.delete(configMaps(c) + "/held");
        assertEquals(403, one.code(), one.text());
        assertEquals(List.of("299 - \"careful now\""), one.headers().allValues("Warning"));
        Response all = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(403, all.code(), all.text());
        assertEquals(List.of("299 - \"careful now\""), all.headers().allValues("Warning"));
    }

    /** A subresource create's refusal carries the refusing webhook's warnings too (eviction). */
    @Test
    void aSubresourceCreatesRefusalCarriesTheWebhooksWarnings() {
        String c = newCase();
        configure(
                c,
                false,
                hook(c, "denywarn.example.com", "/denywarn/" + c, "")
                        .replace("'resources':['configmaps']", "'resources':['pods/eviction']"));
        String pods = "/api/v1/namespaces/" + c + "/pods";
        api.create(
                pods,
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},"
                                + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}"));

        Response r =
                api.post(
                        pods + "/p/eviction",
                        json(
                                "{'apiVersion':'policy/v1','kind':'Eviction',"
                                        + "'metadata':{'name':'p'}}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(List.of("299 - \"careful now\""), r.headers().allValues("Warning"));
        assertEquals(200, api.get(pods + "/p").code());
    }

    @Test
    void warningsPastKubesLimitsAreTruncatedAsKubesRecorder() {
        String c = newCase();
        configure(
                c,
                false,
                hook(c, "bigwarn.example.com", "/bigwarn/" + c, "")
                        .replace("'operations':['CREATE']", "'operations':['CREATE','DELETE']"));
        // A warning of more than kube's 4096 runes: every warning is cut to 256 runes from then.
        Response created = api.post(configMaps(c), configMap("one", "{'batch':'yes'}"));
        assertEquals(201, created.code(), created.text());
        assertEquals(
                List.of("299 - \"one" + "x".repeat(253) + "\"", "299 - \"careful now\""),
                created.headers().allValues("Warning"));
        api.create(configMaps(c), configMap("two", "{'batch':'yes'}"));

        Response r = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(200, r.code(), r.text());
        List<String> headers = r.headers().allValues("Warning");
        assertEquals(3, headers.size(), headers.toString());
        assertEquals(
                Set.of(
                        "299 - \"one" + "x".repeat(253) + "\"",
                        "299 - \"two" + "x".repeat(253) + "\"",
                        "299 - \"careful now\""),
                Set.copyOf(headers));
    }

    /** The user kube-controller-manager's serviceaccounts controller writes as. */
    private static final String SA_CONTROLLER =
            "system:serviceaccount:kube-system:service-account-controller";

    /** A webhook of case {@code c} on ServiceAccount creates. */
    private static String serviceAccountHook(String c, String name, String path) {
        return hook(c, name, path, "")
                .replace("'resources':['configmaps']", "'resources':['serviceaccounts']");
    }

    /**
     * A namespace created once case {@code c}'s configuration is in place, under its label: its
     * {@code default} ServiceAccount is the serviceaccounts controller's create, made then.
     */
    private static String laterNamespace(String c) {
        String ns = c + "-later";
        api.create(
                "/api/v1/namespaces",
                json(
                        "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                + ns
                                + "','labels':{'webhook-case':'"
                                + c
                                + "'}}}"));
        return ns;
    }

    @Test
    void aMutatingWebhookSeesAndChangesWhatAControllerCreatesAsTheControllersUser() {
        String c = newCase();
        configure(c, true, serviceAccountHook(c, "labels.example.com", "/labels/" + c));
        String ns = laterNamespace(c);

        String sa = "/api/v1/namespaces/" + ns + "/serviceaccounts/default";
        Response created = await().atMost(DEADLINE).until(() -> api.get(sa), r -> r.code() == 200);
        assertEquals("yes", created.json().at("/metadata/labels/mutated").asText(), created.text());
        JsonNode review = received.get("/labels/" + c).get(0).path("request");
        assertEquals("CREATE", review.path("operation").asText());
        assertEquals(ns, review.path("namespace").asText());
        assertEquals("default", review.at("/object/metadata/name").asText());
        assertEquals(SA_CONTROLLER, review.at("/userInfo/username").asText());
        assertEquals(
                List.of(
                        "system:serviceaccounts",
                        "system:serviceaccounts:kube-system",
                        "system:authenticated"),
                Json.MAPPER.convertValue(review.at("/userInfo/groups"), List.class));
    }

    @Test
    void aControllersCreateAWebhookRefusesIsRetriedUntilAdmitted() {
        String c = newCase();
        configure(c, false, serviceAccountHook(c, "deny.example.com", "/deny/" + c));
        String ns = laterNamespace(c);

        // Refused at least twice: the controller tries again, as kube's does on any error but
        // "already exists" and the namespace's termination.
        await().atMost(DEADLINE)
                .until(
                        () ->
                                received.getOrDefault("/deny/" + c, List.of()).stream()
                                                .filter(
                                                        r ->
                                                                r.at("/request/namespace")
                                                                        .asText()
                                                                        .equals(ns))
                                                .count()
                                        >= 2);
        JsonNode review = received.get("/deny/" + c).get(0).path("request");
        assertEquals(SA_CONTROLLER, review.at("/userInfo/username").asText());
        String sa = "/api/v1/namespaces/" + ns + "/serviceaccounts/default";
        assertEquals(404, api.get(sa).code());

        assertEquals(
                200,
                api.delete(
                                "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/"
                                        + c)
                        .code());
        await().atMost(DEADLINE).until(() -> api.get(sa).code() == 200);
    }

    /** The annotations of the create of ConfigMap "audited" in {@code ns}, once logged. */
    private static Map<String, String> auditAnnotations(String ns) {
        return auditAnnotations(ns, "create", "audited");
    }

    /** The annotations of the request {@code verb} of {@code name} in {@code ns}, once logged. */
    private static Map<String, String> auditAnnotations(String ns, String verb, String name) {
        return await().atMost(DEADLINE)
                .until(
                        () -> {
                            for (JsonNode e : AuditLogs.events(AUDIT_LOG)) {
                                if (e.path("stage").asText().equals("ResponseComplete")
                                        && e.path("verb").asText().equals(verb)
                                        && e.at("/objectRef/namespace").asText().equals(ns)
                                        && e.at("/objectRef/name").asText().equals(name)) {
                                    Map<String, String> out = new TreeMap<>();
                                    e.path("annotations")
                                            .properties()
                                            .forEach(
                                                    a ->
                                                            out.put(
                                                                    a.getKey(),
                                                                    a.getValue().asText()));
                                    return out;
                                }
                            }
                            return null;
                        },
                        found -> found != null);
    }

    private static Map<String, String> withPrefix(Map<String, String> all, String prefix) {
        Map<String, String> out = new TreeMap<>();
        all.forEach(
                (k, v) -> {
                    if (k.startsWith(prefix)) {
                        out.put(k, v);
                    }
                });
        return out;
    }
}
