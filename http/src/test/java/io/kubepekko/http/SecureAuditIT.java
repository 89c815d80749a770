package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.http.encoding.Encoder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The audit log of the secure port: a create and a refused get leave kube's {@code audit.k8s.io/v1}
 * events, with the user, the verb, the object and the authorization decision, and no credential. In
 * {@value #RECORDED} the policy asks for RequestResponse: events there carry what was sent and what
 * was returned; secrets stay at Metadata everywhere, as kube's documentation advises.
 */
class SecureAuditIT {

    private static final Path LOG = AuditLogs.newFile();

    @RegisterExtension
    static final TestApiServer SERVER =
            TestApiServer.perClass(s -> s.withAudit(AuditLogs.settings(policy(), LOG)));

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The namespace whose requests are recorded with their bodies. */
    private static final String RECORDED = "kube-public";

    private static AuditPolicy policy() {
        return AuditLogs.policy(
                ("apiVersion: audit.k8s.io/v1\n"
                        + "kind: Policy\n"
                        + "rules:\n"
                        + "- level: Metadata\n"
                        + "  resources: [{group: \"\", resources: [secrets]}]\n"
                        + "- level: RequestResponse\n"
                        + "  namespaces: ["
                        + RECORDED
                        + "]\n"
                        + "- level: Metadata\n"));
    }

    private static List<JsonNode> events() throws IOException {
        return AuditLogs.events(LOG);
    }

    @Test
    void aCreateAndARefusedGetAreAuditedWithTheirUserAndDecision() throws Exception {
        TlsClients.Kubeconfig admin = TlsClients.kubeconfig(SERVER.server().kubeconfig());
        HttpClient adminClient =
                TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        HttpResponse<String> created =
                TlsClients.send(
                        adminClient,
                        "POST",
                        admin.server() + "/api/v1/namespaces/default/configmaps",
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"audited\"}}",
                        Map.of("Authorization", "Bearer never-logged"));
        assertEquals(201, created.statusCode(), created.body());
        assertTrue(
                created.headers().firstValue("Audit-Id").isPresent(), created.headers().toString());
        HttpClient anonymous = TlsClients.client(admin.ca(), null, null);
        HttpResponse<String> refused =
                TlsClients.get(anonymous, admin.server() + "/api/v1/namespaces/default/secrets/x");
        assertEquals(403, refused.statusCode());

        JsonNode create = completed(created);
        assertEquals("kubernetes-admin", create.at("/user/username").asText());
        assertEquals("create", create.path("verb").asText());
        assertEquals("audit.k8s.io/v1", create.path("apiVersion").asText());
        assertEquals("Event", create.path("kind").asText());
        assertEquals("Metadata", create.path("level").asText());
        assertEquals("configmaps", create.at("/objectRef/resource").asText());
        assertEquals("default", create.at("/objectRef/namespace").asText());
        // The connection's peer, from the listener's remote-address attribute.
        assertEquals("[\"127.0.0.1\"]", create.path("sourceIPs").toString());
        assertEquals(
                created.headers().firstValue("Audit-Id").orElseThrow(),
                create.path("auditID").asText());
        assertEquals("allow", create.at("/annotations/authorization.k8s.io~1decision").asText());
        JsonNode denied = completed(refused);
        assertEquals("system:anonymous", denied.at("/user/username").asText());
        assertEquals(403, denied.at("/responseStatus/code").asInt());
        assertEquals("secrets", denied.at("/objectRef/resource").asText());
        assertEquals("x", denied.at("/objectRef/name").asText());
        assertEquals("forbid", denied.at("/annotations/authorization.k8s.io~1decision").asText());
        assertFalse(
                Files.readString(LOG).contains("never-logged"),
                "a credential reached the audit log");
    }

    @Test
    void aWatchIsAuditedWhenItStartsAndWhenItEnds() throws Exception {
        TlsClients.Kubeconfig admin = TlsClients.kubeconfig(SERVER.server().kubeconfig());
        HttpClient adminClient =
                TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
        HttpResponse<String> watch =
                TlsClients.get(
                        adminClient,
                        admin.server()
                                + "/api/v1/namespaces/"
                                + RECORDED
                                + "/configmaps?watch=1&timeoutSeconds=1");
        assertEquals(200, watch.statusCode(), watch.body());
        String id = watch.headers().firstValue("Audit-Id").orElseThrow();
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () ->
                                assertEquals(
                                        List.of(
                                                "RequestReceived",
                                                "ResponseStarted",
                                                "ResponseComplete"),
                                        events().stream()
                                                .filter(e -> e.path("auditID").asText().equals(id))
                                                .map(e -> e.path("stage").asText())
                                                .toList(),
                                        id + " in " + events()));
        for (JsonNode e : events(id)) {
            assertEquals("RequestResponse", e.path("level").asText());
            assertFalse(e.has("responseObject"), "a watch's stream is never recorded: " + e);
        }
    }

    @Test
    void aStreamedListIsAuditedWhenReceivedAndWhenCompleteOnly() throws Exception {
        String path = "/api/v1/namespaces/" + RECORDED + "/configmaps";
        String data = "x".repeat(Encoder.STREAM_LISTS_ABOVE / 2);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> created =
                    TlsClients.send(
                            admin(),
                            "POST",
                            url(path),
                            "{\"metadata\":{\"name\":\"big-"
                                    + i
                                    + "\",\"labels\":{\"size\":\"big\"}},"
                                    + "\"data\":{\"k\":\""
                                    + data
                                    + "\"}}",
                            Map.of());
            assertEquals(201, created.statusCode(), created.body());
        }
        HttpResponse<String> listed = TlsClients.get(admin(), url(path + "?labelSelector=size"));
        assertEquals(200, listed.statusCode());
        assertTrue(listed.body().length() > Encoder.STREAM_LISTS_ABOVE, "the list is streamed");
        JsonNode complete = completed(listed);
        String id = listed.headers().firstValue("Audit-Id").orElseThrow();
        assertEquals(
                List.of("RequestReceived", "ResponseComplete"),
                events(id).stream().map(e -> e.path("stage").asText()).toList(),
                "a list is not long-running in kube: no ResponseStarted");
        assertEquals(json(listed.body()), complete.get("responseObject"));
    }

    @Test
    void aPodLogRequestIsLongRunningWhateverItsAnswer() throws Exception {
        HttpResponse<String> log =
                TlsClients.get(admin(), url("/api/v1/namespaces/" + RECORDED + "/pods/none/log"));
        JsonNode complete = completed(log);
        assertEquals(log.statusCode(), complete.at("/responseStatus/code").asInt());
        String id = log.headers().firstValue("Audit-Id").orElseThrow();
        assertEquals(
                List.of("RequestReceived", "ResponseStarted", "ResponseComplete"),
                events(id).stream().map(e -> e.path("stage").asText()).toList(),
                "kube's long-running subresources (log, exec, attach, portforward, proxy)");
    }

    /** The events of one request, in the order written. */
    private static List<JsonNode> events(String auditId) throws IOException {
        return events().stream().filter(e -> e.path("auditID").asText().equals(auditId)).toList();
    }

    /** The ResponseComplete event of the request that got {@code response}, once written. */
    private static JsonNode completed(HttpResponse<String> response) {
        String id = response.headers().firstValue("Audit-Id").orElseThrow();
        return Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () ->
                                events(id).stream()
                                        .filter(
                                                e ->
                                                        e.path("stage")
                                                                .asText()
                                                                .equals("ResponseComplete"))
                                        .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
    }

    private static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }

    private static HttpClient admin() throws Exception {
        TlsClients.Kubeconfig admin = TlsClients.kubeconfig(SERVER.server().kubeconfig());
        return TlsClients.client(admin.ca(), admin.clientCert(), admin.clientKey());
    }

    private static String url(String path) throws Exception {
        return TlsClients.kubeconfig(SERVER.server().kubeconfig()).server() + path;
    }

    @Test
    void aCreateAtRequestResponseRecordsWhatWasSentAndWhatWasReturned() throws Exception {
        String sent =
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                        + "\"metadata\":{\"name\":\"recorded\",\"labels\":{\"a\":\"b\"}},"
                        + "\"data\":{\"key\":\"value\"}}";
        HttpResponse<String> created =
                TlsClients.send(
                        admin(),
                        "POST",
                        url("/api/v1/namespaces/" + RECORDED + "/configmaps"),
                        sent,
                        Map.of());
        assertEquals(201, created.statusCode(), created.body());
        JsonNode event = completed(created);
        assertEquals("RequestResponse", event.path("level").asText());
        assertEquals("recorded", event.at("/objectRef/name").asText());
        // as kube's codec decodes it: Go's encoding of an unset creationTimestamp is null
        JsonNode decoded = json(sent);
        ((ObjectNode) decoded.path("metadata")).putNull("creationTimestamp");
        assertEquals(decoded, event.get("requestObject"));
        assertEquals(json(created.body()), event.get("responseObject"));
        assertEquals(201, event.at("/responseStatus/code").asInt());

        HttpResponse<String> again =
                TlsClients.send(
                        admin(),
                        "POST",
                        url("/api/v1/namespaces/" + RECORDED + "/configmaps"),
                        sent,
                        Map.of());
        assertEquals(409, again.statusCode(), again.body());
        JsonNode conflict = completed(again);
        assertEquals(decoded, conflict.get("requestObject"));
        assertEquals(json(again.body()), conflict.get("responseObject"));
        assertEquals("AlreadyExists", conflict.at("/responseStatus/reason").asText());
        assertEquals("Failure", conflict.at("/responseStatus/status").asText());
    }

    /**
     * kube records a create's object as its codec decoded it, before admission: a Pod sent in
     * protobuf with a bare spec is recorded as JSON with the defaults of its version, its type
     * meta, and no namespace yet.
     */
    @Test
    void aProtobufCreateRecordsTheDecodedObjectWithItsDefaultsAsJson() throws Exception {
        String pod =
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"decoded\"},"
                        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.27\"}]}}";
        byte[] body =
                ProtobufBodies.builtin().encode(json(pod), new GroupVersionKind("", "v1", "Pod"));
        HttpResponse<String> created =
                admin().send(
                                HttpRequest.newBuilder(
                                                URI.create(
                                                        url(
                                                                "/api/v1/namespaces/"
                                                                        + RECORDED
                                                                        + "/pods")))
                                        .timeout(Duration.ofSeconds(30))
                                        .header("Content-Type", ProtobufBodies.MEDIA_TYPE)
                                        .header("Accept", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        JsonNode recorded = completed(created).get("requestObject");
        assertEquals("Pod", recorded.path("kind").asText());
        assertEquals("v1", recorded.path("apiVersion").asText());
        assertEquals("decoded", recorded.at("/metadata/name").asText());
        assertTrue(recorded.at("/metadata/creationTimestamp").isNull(), recorded.toString());
        assertFalse(recorded.path("metadata").has("namespace"), recorded.toString());
        assertEquals("Always", recorded.at("/spec/restartPolicy").asText());
        assertEquals("IfNotPresent", recorded.at("/spec/containers/0/imagePullPolicy").asText());
        assertFalse(recorded.has("status"), "before the initial status is derived");
    }

    @Test
    void aPatchRecordsThePatchAndAListRecordsTheList() throws Exception {
        String path = "/api/v1/namespaces/" + RECORDED + "/configmaps";
        assertEquals(
                201,
                TlsClients.send(
                                admin(),
                                "POST",
                                url(path),
                                "{\"metadata\":{\"name\":\"patched\"}}",
                                Map.of())
                        .statusCode());
        String patch = "[{\"op\":\"add\",\"path\":\"/data\",\"value\":{\"k\":\"v\"}}]";
        HttpResponse<String> patched =
                TlsClients.send(
                        admin(),
                        "PATCH",
                        url(path + "/patched"),
                        patch,
                        Map.of("Content-Type", "application/json-patch+json"));
        assertEquals(200, patched.statusCode(), patched.body());
        JsonNode event = completed(patched);
        assertEquals(json(patch), event.get("requestObject"));
        assertEquals(json(patched.body()), event.get("responseObject"));

        HttpResponse<String> listed = TlsClients.get(admin(), url(path));
        assertEquals(200, listed.statusCode());
        JsonNode list = completed(listed);
        assertFalse(list.has("requestObject"));
        assertEquals(json(listed.body()), list.get("responseObject"));
        assertEquals("ConfigMapList", list.at("/responseObject/kind").asText());
    }

    @Test
    void aRefusedRequestRecordsTheStatusItGot() throws Exception {
        TlsClients.Kubeconfig admin = TlsClients.kubeconfig(SERVER.server().kubeconfig());
        HttpClient anonymous = TlsClients.client(admin.ca(), null, null);
        HttpResponse<String> refused =
                TlsClients.get(anonymous, url("/api/v1/namespaces/" + RECORDED + "/configmaps/x"));
        assertEquals(403, refused.statusCode(), refused.body());
        JsonNode event = completed(refused);
        assertEquals("system:anonymous", event.at("/user/username").asText());
        assertFalse(event.has("requestObject"));
        assertEquals(json(refused.body()), event.get("responseObject"));
        assertEquals("Forbidden", event.at("/responseStatus/reason").asText());
        assertEquals(
                json(refused.body()).path("message").asText(),
                event.at("/responseStatus/message").asText());
    }

    @Test
    void aSecretStaysAtMetadataWithoutItsData() throws Exception {
        String data = "c2VjcmV0LXZhbHVlLW5ldmVyLWxvZ2dlZA==";
        HttpResponse<String> created =
                TlsClients.send(
                        admin(),
                        "POST",
                        url("/api/v1/namespaces/" + RECORDED + "/secrets"),
                        "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"kept\"},"
                                + "\"data\":{\"password\":\""
                                + data
                                + "\"}}",
                        Map.of());
        assertEquals(201, created.statusCode(), created.body());
        JsonNode event = completed(created);
        assertEquals("Metadata", event.path("level").asText());
        assertEquals("kept", event.at("/objectRef/name").asText());
        assertFalse(event.has("requestObject"));
        assertFalse(event.has("responseObject"));
        assertFalse(Files.readString(LOG).contains(data), "a secret's data reached the log");
    }

    @Test
    void refusedCredentialsAreAuditedWithoutThemselves() throws Exception {
        TlsClients.Kubeconfig admin = TlsClients.kubeconfig(SERVER.server().kubeconfig());
        HttpClient noCertificate = TlsClients.client(admin.ca(), null, null);
        HttpResponse<String> refused =
                TlsClients.send(
                        noCertificate,
                        "GET",
                        url("/api/v1/namespaces/" + RECORDED + "/configmaps"),
                        null,
                        Map.of("Authorization", "Bearer refused-token-never-logged"));
        assertEquals(401, refused.statusCode(), refused.body());
        String id = refused.headers().firstValue("Audit-Id").orElseThrow();
        JsonNode started =
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> events(id), e -> !e.isEmpty())
                        .get(0);
        assertEquals("ResponseStarted", started.path("stage").asText());
        assertEquals(
                "Authentication failed, attempted: bearer",
                started.at("/responseStatus/message").asText());
        assertFalse(started.has("responseObject"));
        assertFalse(Files.readString(LOG).contains("refused-token-never-logged"));
    }
}
