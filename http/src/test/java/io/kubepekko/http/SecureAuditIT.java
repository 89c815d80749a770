package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.http.audit.AuditLogFormat;
import io.kubepekko.http.audit.AuditMode;
import io.kubepekko.http.audit.AuditSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The audit log of the secure port: a create and a refused get leave kube's {@code audit.k8s.io/v1}
 * events, with the user, the verb, the object and the authorization decision, and no credential.
 */
class SecureAuditIT {

    private static final Path LOG = logFile();

    @RegisterExtension
    static final TestApiServer SERVER =
            TestApiServer.perClass(
                    s ->
                            s.withAudit(
                                    new AuditSettings(
                                            Optional.of(metadataForEverything()),
                                            LOG.toString(),
                                            0,
                                            0,
                                            0,
                                            AuditLogFormat.JSON,
                                            AuditMode.BLOCKING,
                                            AuditSettings.DEFAULT_BUFFER_SIZE)));

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path logFile() {
        try {
            Path dir = Files.createTempDirectory("kubepekko-audit-");
            dir.toFile().deleteOnExit();
            return dir.resolve("audit.log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static AuditPolicy metadataForEverything() {
        AuditPolicyReader.Result read =
                AuditPolicyReader.read(
                        ("apiVersion: audit.k8s.io/v1\n"
                                        + "kind: Policy\n"
                                        + "rules:\n"
                                        + "- level: Metadata\n")
                                .getBytes(StandardCharsets.UTF_8));
        return ((AuditPolicyReader.Result.Loaded) read).policy();
    }

    private static List<JsonNode> events() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(LOG)) {
            return out;
        }
        for (String line : Files.readAllLines(LOG)) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    private static Optional<JsonNode> completed(String verb, String user, int code)
            throws IOException {
        return events().stream()
                .filter(e -> e.path("stage").asText().equals("ResponseComplete"))
                .filter(e -> e.path("verb").asText().equals(verb))
                .filter(e -> e.at("/user/username").asText().equals(user))
                .filter(e -> e.at("/responseStatus/code").asInt() == code)
                .findFirst();
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
        assertEquals(
                403,
                TlsClients.get(anonymous, admin.server() + "/api/v1/namespaces/default/secrets/x")
                        .statusCode());

        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () ->
                                completed("create", "kubernetes-admin", 201).isPresent()
                                        && completed("get", "system:anonymous", 403).isPresent());
        JsonNode create = completed("create", "kubernetes-admin", 201).orElseThrow();
        assertEquals("audit.k8s.io/v1", create.path("apiVersion").asText());
        assertEquals("Event", create.path("kind").asText());
        assertEquals("Metadata", create.path("level").asText());
        assertEquals("configmaps", create.at("/objectRef/resource").asText());
        assertEquals("default", create.at("/objectRef/namespace").asText());
        assertEquals(
                created.headers().firstValue("Audit-Id").orElseThrow(),
                create.path("auditID").asText());
        assertEquals("allow", create.at("/annotations/authorization.k8s.io~1decision").asText());
        JsonNode denied = completed("get", "system:anonymous", 403).orElseThrow();
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
                                + "/api/v1/namespaces/kube-system/configmaps?watch=1&timeoutSeconds=1");
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
    }
}
