package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;

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
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * The admission webhook ITs' webhook server: real HTTPS on 127.0.0.1, its certificate signed by a
 * CA the configurations give as their caBundle and naming {@code localhost} and the Service {@code
 * webhook.hooks-svc.svc}. What it answers is named by the first segment of the path it is called at
 * ({@code /deny/...}, {@code /label/...}, {@code /hang}…); it records every review it receives by
 * that path.
 */
final class AdmissionWebhookServer {

    /** The Service the serving certificate names: {@code webhook.hooks-svc.svc}. */
    static final String SERVICE = "webhook";

    static final String SERVICE_NS = "hooks-svc";

    private final TestApiServer api;
    private final Map<String, List<JsonNode>> received = new ConcurrentHashMap<>();

    /** Holds the "hang" answers until the server stops. */
    private final CountDownLatch release = new CountDownLatch(1);

    private HttpsServer webhooks;
    private ExecutorService executor;
    private String base;
    private String caBundle;

    /** A server whose "interfere" answer writes through {@code api}. */
    AdmissionWebhookServer(TestApiServer api) {
        this.api = api;
    }

    /** Starts on a free port with a certificate of a new CA. */
    void start() throws Exception {
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

    /** Lets the hanging answers go and stops. */
    void stop() {
        release.countDown();
        webhooks.stop(0);
        executor.shutdownNow();
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

    /** The CA of the server's certificate, base64-encoded PEM as a caBundle. */
    String caBundle() {
        return caBundle;
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
                            "/api/v1/namespaces/" + ns + "/configmaps/" + target,
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
}
