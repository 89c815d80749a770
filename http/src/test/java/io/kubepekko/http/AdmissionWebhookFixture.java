package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The admission webhook ITs' set-up, one per test class as a JUnit extension in a static field
 * ({@code @RegisterExtension}): the class's {@link TestApiServer}, started first and stopped last,
 * a real HTTPS webhook server (its certificate signed by a CA given as the configurations'
 * caBundle, naming {@code localhost} and the Service {@code webhook.hooks-svc.svc}) whose answer is
 * named by the first segment of the path it is called at, and the cases' configurations. Every
 * configuration is limited to its own namespace by a namespace selector, so the cases do not meet;
 * {@link #configure} waits until its configuration reached the server's informer by the request its
 * "probe" webhook records.
 */
final class AdmissionWebhookFixture implements BeforeAllCallback, AfterAllCallback {

    static final Duration DEADLINE = Duration.ofSeconds(30);

    /** The Service the serving certificate names: {@code webhook.hooks-svc.svc}. */
    static final String SERVICE = "webhook";

    static final String SERVICE_NS = "hooks-svc";

    private final TestApiServer api;
    private final AtomicInteger names = new AtomicInteger();
    private final Map<String, List<JsonNode>> received = new ConcurrentHashMap<>();

    /** Holds the "hang" answers until the class is done. */
    private final CountDownLatch release = new CountDownLatch(1);

    private HttpsServer webhooks;
    private ExecutorService executor;
    private String base;
    private String caBundle;

    /**
     * A fixture around {@code api}, a {@link TestApiServer#perClass} server it starts and stops.
     */
    AdmissionWebhookFixture(TestApiServer api) {
        this.api = api;
    }

    /** The API server the cases write through. */
    TestApiServer api() {
        return api;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        api.beforeAll(context);
        startWebhookServer();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        // The webhook server first, as the API server may call it until it stops.
        release.countDown();
        webhooks.stop(0);
        executor.shutdownNow();
        api.afterAll(context);
    }

    private void startWebhookServer() throws Exception {
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
        webhooks.createContext("/", this::handle);
        webhooks.start();
        base = "https://127.0.0.1:" + webhooks.getAddress().getPort();
        caBundle =
                Base64.getEncoder()
                        .encodeToString(
                                Pem.encode(ca.certificate()).getBytes(StandardCharsets.US_ASCII));
    }

    /** The reviews the webhook server received, by the path it was called at. */
    Map<String, List<JsonNode>> received() {
        return received;
    }

    /** The webhook server's port on 127.0.0.1. */
    int port() {
        return webhooks.getAddress().getPort();
    }

    /** The webhook server's URL of {@code path}. */
    String url(String path) {
        return base + path;
    }

    /** The webhook server: what it answers is named by the first segment of the path. */
    private void handle(HttpExchange exchange) throws IOException {
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
        return patched(uid, "[{'op':'add','path':'/metadata/labels/mutated','value':'yes'}]");
    }

    /** Allowed, with a JSON patch setting the labels to mutated=yes (for objects without any). */
    private static String labelsPatch(String uid) {
        return patched(uid, "[{'op':'add','path':'/metadata/labels','value':{'mutated':'yes'}}]");
    }

    /**
     * Allowed, with a JSON patch adding the label mutated=yes and leaving managedFields without a
     * fieldsType, which kube's field manager cannot decode.
     */
    private static String breakManagedFields(String uid) {
        return patched(
                uid,
                "[{'op':'add','path':'/metadata/labels/mutated','value':'yes'},"
                        + "{'op':'add','path':'/metadata/managedFields','value':"
                        + "[{'manager':'hook','operation':'Update','apiVersion':'v1'}]}]");
    }

    /** Allowed, with the JSON patch {@code patch} (single-quoted JSON). */
    private static String patched(String uid, String patch) {
        return answer(
                uid,
                "'allowed':true,'patchType':'JSONPatch','patch':'"
                        + Base64.getEncoder()
                                .encodeToString(json(patch).getBytes(StandardCharsets.UTF_8))
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
    String newCase() {
        return newCase("hooks-" + names.incrementAndGet());
    }

    /** The namespace {@code c}, labelled as a case of its own. */
    String newCase(String c) {
        return labelledNamespace(c, c);
    }

    /**
     * A namespace {@code ns} labelled as case {@code c}'s, so that case {@code c}'s configurations
     * apply there too.
     */
    String labelledNamespace(String ns, String c) {
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

    /**
     * A webhook of case {@code c} calling {@code path} on ConfigMap creates; {@code extra} adds
     * fields (failurePolicy, objectSelector…).
     */
    String hook(String c, String name, String path, String extra) {
        return hookAt(c, name, base + path, extra);
    }

    /** As {@link #hook}, calling {@code url} wherever it is. */
    String hookAt(String c, String name, String url, String extra) {
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
    void configure(String c, boolean mutating, String... hooks) {
        List<String> all = new ArrayList<>();
        // A probe of each kind: a case may configure both, and waits for each.
        String probe = "/probe/" + c + "/" + (mutating ? "mutating" : "validating");
        all.add(hook(c, "probe." + c + ".example.com", probe, ""));
        all.addAll(List.of(hooks));
        api.create(
                configurations(mutating), configuration(mutating, c, all.toArray(String[]::new)));
        await().atMost(DEADLINE)
                .until(
                        () -> {
                            api.post(configMaps(c) + "?dryRun=All", configMap("probe", "{}"));
                            return received.containsKey(probe);
                        });
    }

    /** The path of the mutating or validating webhook configurations. */
    static String configurations(boolean mutating) {
        return "/apis/admissionregistration.k8s.io/v1/"
                + (mutating ? "mutating" : "validating")
                + "webhookconfigurations";
    }

    /** A mutating or validating webhook configuration {@code name} of {@code hooks}. */
    static String configuration(boolean mutating, String name, String... hooks) {
        return json(
                "{'apiVersion':'admissionregistration.k8s.io/v1','kind':'"
                        + (mutating ? "Mutating" : "Validating")
                        + "WebhookConfiguration','metadata':{'name':'"
                        + name
                        + "'},'webhooks':["
                        + String.join(",", hooks)
                        + "]}");
    }

    /** {@code hook} called on {@code operations} ({@code DELETE}…) instead of creates. */
    static String onOperations(String hook, String... operations) {
        return hook.replace("'operations':['CREATE']", "'operations':[" + quoted(operations) + "]");
    }

    /** {@code hook} called on {@code resources} ({@code pods/eviction}…) instead of ConfigMaps. */
    static String onResources(String hook, String... resources) {
        return hook.replace(
                "'resources':['configmaps']", "'resources':[" + quoted(resources) + "]");
    }

    private static String quoted(String... values) {
        return "'" + String.join("','", values) + "'";
    }

    /** Creates Pod {@code p} in {@code ns}; answers the path of the namespace's pods. */
    String createPod(String ns) {
        String pods = "/api/v1/namespaces/" + ns + "/pods";
        api.create(
                pods,
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},"
                                + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}"));
        return pods;
    }

    /** The answer to an eviction of Pod {@code p} of {@code pods}. */
    Response evict(String pods) {
        return api.post(
                pods + "/p/eviction",
                json("{'apiVersion':'policy/v1','kind':'Eviction','metadata':{'name':'p'}}"));
    }

    static String configMaps(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    static String configMap(String name, String labels) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "','labels':"
                        + labels
                        + "},'data':{'k':'v'}}");
    }
}
