package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.api.definition.RuntimeConfig;
import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.ClientTls;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.http.audit.AuditLogFormat;
import io.kubepekko.http.audit.AuditMode;
import io.kubepekko.http.audit.AuditSettings;
import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The audit log as the real kubectl leaves it over the server's TLS: the admin's create and a
 * second user's refused get are each recorded as kube records them (one server with its own log,
 * whatever the e2e target: the log is a server's own). The server also serves the deprecated
 * networking.k8s.io/v1beta1 ({@code --runtime-config}): kubectl prints its warning, and the log
 * marks the request deprecated.
 */
class KubectlAuditE2E {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path scratch;
    private static Path log;
    private static ApiServer server;

    @BeforeAll
    static void start() throws Exception {
        scratch = Files.createTempDirectory("kubepekko-e2e-audit-");
        log = scratch.resolve("audit.log");
        AuditPolicyReader.Result policy =
                AuditPolicyReader.read(
                        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"
                                .getBytes(StandardCharsets.UTF_8));
        server =
                ApiServer.start(
                        ApiServerSettings.defaults()
                                .withDataDir(scratch.resolve("data"))
                                .withBindAddress("127.0.0.1")
                                .withPort(0)
                                .withRuntimeConfig(
                                        RuntimeConfig.parse("networking.k8s.io/v1beta1=true"))
                                .withAudit(
                                        new AuditSettings(
                                                Optional.of(
                                                        ((AuditPolicyReader.Result.Loaded) policy)
                                                                .policy()),
                                                log.toString(),
                                                0,
                                                0,
                                                0,
                                                AuditLogFormat.JSON,
                                                AuditMode.BLOCKING,
                                                AuditSettings.DEFAULT_BUFFER_SIZE)));
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        if (scratch != null) {
            try (Stream<Path> files = Files.walk(scratch)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Kubectl kubectl(Path kubeconfig, String who) throws IOException {
        return new Kubectl(
                ClientBinaries.require().kubectl(),
                kubeconfig,
                Files.createDirectories(scratch.resolve("home-" + who)),
                scratch);
    }

    private static List<JsonNode> events() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    /** The ResponseComplete event of {@code verb} on {@code resource} named {@code name}. */
    private static JsonNode completed(String user, String verb, String resource, String name)
            throws IOException {
        return events().stream()
                .filter(e -> e.path("stage").asText().equals("ResponseComplete"))
                .filter(e -> e.path("user").path("username").asText().equals(user))
                .filter(e -> e.path("verb").asText().equals(verb))
                .filter(e -> e.path("objectRef").path("resource").asText().equals(resource))
                .filter(e -> e.path("objectRef").path("name").asText().equals(name))
                .findFirst()
                .orElseThrow(
                        () ->
                                new AssertionError(
                                        "no ResponseComplete of "
                                                + user
                                                + " "
                                                + verb
                                                + " "
                                                + resource
                                                + "/"
                                                + name
                                                + " in\n"
                                                + String.join("\n", linesOf())));
    }

    private static List<String> linesOf() {
        try {
            return Files.readAllLines(log);
        } catch (IOException e) {
            return List.of(e.toString());
        }
    }

    @Test
    void kubectlPrintsTheDeprecationWarningAndTheLogMarksTheRequest() throws Exception {
        Kubectl admin = kubectl(server.kubeconfig(), "admin");
        ProcessResult versions = admin.run("api-versions");
        assertEquals(0, versions.exitCode(), versions.describe());
        assertTrue(
                versions.stdoutText().lines().anyMatch("networking.k8s.io/v1beta1"::equals),
                versions.describe());

        ProcessResult listed = admin.run("get", "ipaddresses.v1beta1.networking.k8s.io");
        assertEquals(0, listed.exitCode(), listed.describe());
        assertTrue(
                listed.stderr()
                        .contains(
                                "Warning: networking.k8s.io/v1beta1 IPAddress is deprecated in"
                                        + " v1.34+, unavailable in v1.37+"),
                listed.describe());
        ProcessResult ga = admin.run("get", "ipaddresses.v1.networking.k8s.io");
        assertEquals(0, ga.exitCode(), ga.describe());
        assertFalse(ga.stderr().contains("deprecated"), ga.describe());

        JsonNode list =
                events().stream()
                        .filter(e -> e.path("stage").asText().equals("ResponseComplete"))
                        .filter(e -> e.path("verb").asText().equals("list"))
                        .filter(
                                e ->
                                        e.path("objectRef")
                                                .path("apiVersion")
                                                .asText()
                                                .equals("v1beta1"))
                        .filter(
                                e ->
                                        e.path("objectRef")
                                                .path("resource")
                                                .asText()
                                                .equals("ipaddresses"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(String.join("\n", linesOf())));
        assertEquals("true", list.path("annotations").path("k8s.io/deprecated").asText());
        assertEquals("1.37", list.path("annotations").path("k8s.io/removed-release").asText());
    }

    @Test
    void theAdminsCreateAndAnotherUsersRefusedGetAreInTheLog() throws Exception {
        Kubectl admin = kubectl(server.kubeconfig(), "admin");
        ProcessResult created =
                admin.run("create", "configmap", "audited", "-n", "default", "--from-literal=k=v");
        assertEquals(0, created.exitCode(), created.describe());

        Path janeConfig =
                ClientTls.fromKubeconfig(server.kubeconfig())
                        .as(
                                ClientTls.userCertificate(
                                        server.settings().dataDir(), "jane", List.of()))
                        .writeKubeconfig(
                                scratch.resolve("jane.kubeconfig"),
                                ClientTls.serverOf(server.kubeconfig()),
                                Optional.empty());
        ProcessResult refused =
                kubectl(janeConfig, "jane").run("get", "configmap", "audited", "-n", "default");
        assertEquals(1, refused.exitCode(), refused.describe());
        assertTrue(
                refused.stderr()
                        .contains(
                                "configmaps \"audited\" is forbidden: User \"jane\" cannot get"
                                        + " resource \"configmaps\" in API group \"\" in the"
                                        + " namespace \"default\""),
                refused.describe());

        // Blocking mode: each event is written before its response is sent.
        JsonNode create = completed("kubernetes-admin", "create", "configmaps", "audited");
        assertEquals("audit.k8s.io/v1", create.path("apiVersion").asText());
        assertEquals("Event", create.path("kind").asText());
        assertEquals("Metadata", create.path("level").asText());
        assertEquals(201, create.path("responseStatus").path("code").asInt());
        assertEquals("default", create.path("objectRef").path("namespace").asText());
        assertEquals(
                "allow", create.path("annotations").path("authorization.k8s.io/decision").asText());
        assertTrue(create.path("user").toString().contains("system:masters"), create.toString());
        assertTrue(create.path("userAgent").asText().startsWith("kubectl"), create.toString());
        assertFalse(create.path("auditID").asText().isEmpty(), create.toString());

        JsonNode get = completed("jane", "get", "configmaps", "audited");
        assertEquals(403, get.path("responseStatus").path("code").asInt());
        assertEquals("Forbidden", get.path("responseStatus").path("reason").asText());
        assertEquals(
                "forbid", get.path("annotations").path("authorization.k8s.io/decision").asText());
        assertFalse(get.has("requestObject") || get.has("responseObject"), get.toString());
    }
}
