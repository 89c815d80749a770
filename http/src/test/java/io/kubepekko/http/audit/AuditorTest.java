package io.kubepekko.http.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.audit.AuditEvent;
import io.kubepekko.api.audit.AuditLevel;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.api.audit.AuditRule;
import io.kubepekko.api.auth.Credentials;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entry point the request path calls: policy → handle → log lines. */
class AuditorTest {

    private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.secret-token-body";
    private static final InstantSource CLOCK =
            InstantSource.fixed(Instant.parse("2026-01-02T03:04:05.000001Z"));

    @TempDir Path dir;

    private static AuditPolicy policy(String rules) {
        String text = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n" + rules;
        return ((AuditPolicyReader.Result.Loaded)
                        AuditPolicyReader.read(text.getBytes(StandardCharsets.UTF_8)))
                .policy();
    }

    private static JsonNode parse(String line) {
        return Json.parseTrusted(line.getBytes(StandardCharsets.UTF_8));
    }

    private Auditor auditor(AuditPolicy policy, AuditLogTest.Capture out) {
        AuditLog log = AuditLogTest.log(out, AuditMode.BLOCKING, 16);
        return new Auditor(Optional.of(policy), log, AuditMode.BLOCKING, CLOCK, () -> "id-1");
    }

    @Test
    void aCreateAndADeniedGetLeaveKubesEventsInOrder() {
        AuditLogTest.Capture out = new AuditLogTest.Capture();
        UserInfo alice = UserInfo.of("alice", List.of("system:authenticated"));
        try (Auditor auditor =
                auditor(
                        policy("- level: None\n  nonResourceURLs: [/healthz*]\n- level: Request\n"),
                        out)) {
            AuditHandle create =
                    auditor.begin(
                            AuthorizationAttributes.resource(
                                    alice, "create", "ns", "", "v1", "configmaps", "", ""),
                            "/api/v1/namespaces/ns/configmaps",
                            List.of("127.0.0.1"),
                            "kubectl/v1.35.0",
                            Optional.empty(),
                            false);
            assertEquals("id-1", create.auditID());
            create.authorized(Decision.allow(""));
            create.requestObject(
                    Json.parseTrusted(
                            "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}"
                                    .getBytes(StandardCharsets.UTF_8)));
            create.responseComplete(201, null);

            AuditHandle get =
                    auditor.begin(
                            AuthorizationAttributes.resource(
                                    alice, "get", "other", "", "v1", "secrets", "", "s"),
                            "/api/v1/namespaces/other/secrets/s",
                            List.of("127.0.0.1"),
                            "kubectl/v1.35.0",
                            Optional.of("from-header"),
                            false);
            assertEquals("from-header", get.auditID());
            get.authorized(Decision.noOpinion(""));
            get.responseComplete(
                    403,
                    Json.parseTrusted(
                            ("{\"kind\":\"Status\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
                                            + "\"message\":\"secrets \\\"s\\\" is forbidden\",\"code\":403}")
                                    .getBytes(StandardCharsets.UTF_8)));

            AuditHandle health =
                    auditor.begin(
                            AuthorizationAttributes.nonResource(alice, "get", "/healthz"),
                            "/healthz",
                            List.of("127.0.0.1"),
                            "",
                            Optional.empty(),
                            false);
            health.responseComplete(200, null);
        }
        List<JsonNode> events = out.lines.stream().map(AuditorTest::parse).toList();
        assertEquals(
                List.of(
                        "id-1 RequestReceived create",
                        "id-1 ResponseComplete create",
                        "from-header RequestReceived get",
                        "from-header ResponseComplete get"),
                events.stream()
                        .map(
                                e ->
                                        e.get("auditID").asText()
                                                + " "
                                                + e.get("stage").asText()
                                                + " "
                                                + e.get("verb").asText())
                        .toList());
        JsonNode created = events.get(1);
        assertEquals("c", created.at("/objectRef/name").asText());
        assertEquals("allow", created.at("/annotations/authorization.k8s.io~1decision").asText());
        assertEquals(201, created.at("/responseStatus/code").asInt());
        JsonNode denied = events.get(3);
        assertEquals("forbid", denied.at("/annotations/authorization.k8s.io~1decision").asText());
        assertEquals("Forbidden", denied.at("/responseStatus/reason").asText());
        assertEquals(403, denied.at("/responseStatus/code").asInt());
    }

    @Test
    void noCredentialReachesTheLog() {
        AuditLogTest.Capture out = new AuditLogTest.Capture();
        try (Auditor auditor = auditor(policy("- level: RequestResponse\n"), out)) {
            AuthorizationAttributes list =
                    AuthorizationAttributes.resource(
                            UserInfo.anonymous(), "list", "", "", "v1", "pods", "", "");
            auditor.authenticationFailed(
                    list,
                    "/api/v1/pods",
                    List.of("127.0.0.1"),
                    "curl/8",
                    Optional.empty(),
                    new Credentials(List.of(), Optional.of(TOKEN), false),
                    401);
            AuditHandle review =
                    auditor.begin(
                            AuthorizationAttributes.resource(
                                    UserInfo.of("admin", List.of("system:masters")),
                                    "create",
                                    "",
                                    "authentication.k8s.io",
                                    "v1",
                                    "tokenreviews",
                                    "",
                                    ""),
                            "/apis/authentication.k8s.io/v1/tokenreviews",
                            List.of("127.0.0.1"),
                            "kubectl",
                            Optional.empty(),
                            false);
            review.requestObject(
                    Json.parseTrusted(
                            ("{\"kind\":\"TokenReview\",\"apiVersion\":\"authentication.k8s.io/v1\","
                                            + "\"spec\":{\"token\":\""
                                            + TOKEN
                                            + "\"}}")
                                    .getBytes(StandardCharsets.UTF_8)));
            review.responseComplete(201, null);
        }
        assertEquals(3, out.lines.size());
        assertEquals(
                "Authentication failed, attempted: bearer",
                parse(out.lines.get(0)).at("/responseStatus/message").asText());
        for (String line : out.lines) {
            assertFalse(line.contains(TOKEN), line);
            assertFalse(line.toLowerCase().contains("authorization\":"), line);
        }
    }

    @Test
    void aDisabledAuditorRecordsNothingAndStillHandsOutAnAuditId() {
        Auditor auditor = Auditor.disabled();
        assertFalse(auditor.enabled());
        AuditHandle h =
                auditor.begin(
                        AuthorizationAttributes.nonResource(
                                UserInfo.anonymous(), "get", "/version"),
                        "/version",
                        List.of(),
                        "",
                        Optional.empty(),
                        false);
        assertTrue(h.ready().toCompletableFuture().join());
        assertEquals(36, h.auditID().length());
        h.responseComplete(200, null);
        auditor.close();
    }

    @Test
    void theUriAndAddressesAreWorkedOutOnlyForARequestThePolicyAudits() {
        AuditLogTest.Capture out = new AuditLogTest.Capture();
        UserInfo alice = UserInfo.of("alice", List.of("system:authenticated"));
        AtomicInteger asked = new AtomicInteger();
        Supplier<String> uri =
                () -> {
                    asked.incrementAndGet();
                    return "/version?x=1";
                };
        Supplier<List<String>> ips =
                () -> {
                    asked.incrementAndGet();
                    return List.of("10.0.0.9");
                };
        try (Auditor auditor =
                auditor(
                        policy("- level: None\n  nonResourceURLs: [/healthz]\n- level: Metadata\n"),
                        out)) {
            AuditHandle health =
                    auditor.begin(
                            AuthorizationAttributes.nonResource(alice, "get", "/healthz"),
                            uri,
                            ips,
                            "",
                            Optional.of("from-header"),
                            false);
            assertEquals(0, asked.get(), "level None: neither is built");
            assertEquals("from-header", health.auditID());
            assertTrue(health.ready().toCompletableFuture().join());
            health.authorized(Decision.allow(""));
            health.responseComplete(200, null);
            assertFalse(health.recordsResponseBody());

            auditor.begin(
                            AuthorizationAttributes.nonResource(alice, "get", "/version"),
                            uri,
                            ips,
                            "",
                            Optional.empty(),
                            false)
                    .responseComplete(200, null);
            assertEquals(2, asked.get(), "an audited request: each once");
        }
        assertEquals(2, out.lines.size(), "the audited request's two events only");
        JsonNode received = parse(out.lines.get(0));
        assertEquals("/version?x=1", received.get("requestURI").asText());
        assertEquals("10.0.0.9", received.at("/sourceIPs/0").asText());
    }

    @Test
    void strictModeReportsARequestReceivedThatCouldNotBeStored() {
        AuditSink refusing =
                new AuditSink() {
                    @Override
                    public CompletionStage<Boolean> record(AuditEvent event) {
                        return CompletableFuture.completedFuture(false);
                    }

                    @Override
                    public void close() {}
                };
        AuditPolicy all =
                new AuditPolicy(List.of(AuditRule.catchAll(AuditLevel.METADATA)), Set.of(), false);
        AuthorizationAttributes attrs =
                AuthorizationAttributes.nonResource(UserInfo.anonymous(), "get", "/version");
        assertFalse(
                new Auditor(Optional.of(all), refusing, AuditMode.BLOCKING_STRICT, CLOCK, () -> "x")
                        .begin(attrs, "/version", List.of(), "", Optional.empty(), false)
                        .ready()
                        .toCompletableFuture()
                        .join());
        assertTrue(
                new Auditor(Optional.of(all), refusing, AuditMode.BLOCKING, CLOCK, () -> "x")
                        .begin(attrs, "/version", List.of(), "", Optional.empty(), false)
                        .ready()
                        .toCompletableFuture()
                        .join());
    }

    @Test
    void openWritesJsonLinesToTheRotatingFile() throws IOException {
        Path path = dir.resolve("logs/audit.log");
        AuditSettings settings =
                new AuditSettings(
                        Optional.of(policy("- level: Metadata\n")),
                        path.toString(),
                        0,
                        0,
                        0,
                        AuditLogFormat.JSON,
                        AuditMode.BLOCKING,
                        100);
        try (Auditor auditor = Auditor.open(settings, AuditLogTest.COMPLETIONS)) {
            assertTrue(Files.exists(path), "created at start");
            auditor.begin(
                            AuthorizationAttributes.nonResource(
                                    UserInfo.anonymous(), "get", "/version"),
                            "/version",
                            List.of("127.0.0.1"),
                            "",
                            Optional.empty(),
                            false)
                    .responseComplete(200, null);
        }
        List<String> lines = Files.readAllLines(path);
        assertEquals(2, lines.size());
        assertEquals("RequestReceived", parse(lines.get(0)).get("stage").asText());
        assertEquals("ResponseComplete", parse(lines.get(1)).get("stage").asText());
        assertEquals("Event", parse(lines.get(1)).get("kind").asText());
    }
}
