package io.kubepekko.http.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.util.ByteString;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Responses as the audit sees them: a whole body recorded from its own bytes and the response held
 * until its event is written; a list sent in pieces gathered and recorded when it ends; a watch's
 * stream never kept.
 */
class AuditedResponsesTest {

    private static final InstantSource CLOCK =
            InstantSource.fixed(Instant.parse("2026-01-02T03:04:05Z"));
    private static ActorSystem<Void> system;

    @BeforeAll
    static void start() {
        system = ActorSystem.create(Behaviors.empty(), "audited-responses");
    }

    @AfterAll
    static void stop() {
        system.terminate();
    }

    private static AuditPolicy requestResponse() {
        return ((AuditPolicyReader.Result.Loaded)
                        AuditPolicyReader.read(
                                "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n"
                                        .getBytes(StandardCharsets.UTF_8)))
                .policy();
    }

    private static AuditHandle begin(Auditor auditor, String verb, boolean longRunning) {
        return auditor.begin(
                AuthorizationAttributes.resource(
                        UserInfo.of("alice", List.of()),
                        verb,
                        "ns",
                        "",
                        "v1",
                        "configmaps",
                        "",
                        ""),
                "/api/v1/namespaces/ns/configmaps",
                List.of(),
                "",
                Optional.empty(),
                longRunning);
    }

    private static JsonNode line(String text) {
        return Json.parseTrusted(text.strip().getBytes(StandardCharsets.UTF_8));
    }

    private static String drain(HttpResponse response) throws Exception {
        return response.entity()
                .getDataBytes()
                .runWith(
                        Sink.fold(ByteString.emptyByteString(), ByteString::concat),
                        Materializer.matFromSystem(system))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS)
                .utf8String();
    }

    @Test
    void aWholeResponseLeavesOnceItsEventIsWritten() throws Exception {
        AuditLogTest.Stalled out = new AuditLogTest.Stalled();
        try (Auditor auditor =
                new Auditor(
                        Optional.of(requestResponse()),
                        AuditLogTest.log(out, AuditMode.BLOCKING, 8),
                        AuditMode.BLOCKING,
                        CLOCK,
                        () -> "id-1")) {
            AuditHandle audit = begin(auditor, "get", false);
            String body =
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}";
            CompletableFuture<HttpResponse> reported =
                    AuditedResponses.report(
                                    HttpResponse.create()
                                            .withEntity(ContentTypes.APPLICATION_JSON, body),
                                    audit)
                            .toCompletableFuture();
            assertFalse(reported.isDone(), "sent before its events were written");
            out.release.countDown();
            HttpResponse response = reported.get(30, TimeUnit.SECONDS);
            assertEquals("id-1", response.getHeader("Audit-Id").orElseThrow().value());
            JsonNode done = line(out.lines.get(1));
            assertEquals(
                    Json.parseTrusted(body.getBytes(StandardCharsets.UTF_8)),
                    done.get("responseObject"));
        }
    }

    @Test
    void aListSentInPiecesIsRecordedWholeWhenItEnds() throws Exception {
        AuditLogTest.Capture out = new AuditLogTest.Capture();
        try (Auditor auditor =
                new Auditor(
                        Optional.of(requestResponse()),
                        AuditLogTest.log(out, AuditMode.BLOCKING, 8),
                        AuditMode.BLOCKING,
                        CLOCK,
                        () -> "id-1")) {
            List<String> pieces =
                    List.of(
                            "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[",
                            "{\"metadata\":{\"name\":\"a\"}},",
                            "{\"metadata\":{\"name\":\"b\"}}",
                            "]}");
            long length = String.join("", pieces).length();
            HttpResponse streamed =
                    HttpResponse.create()
                            .withEntity(
                                    HttpEntities.create(
                                            ContentTypes.APPLICATION_JSON,
                                            length,
                                            Source.from(pieces).map(ByteString::fromString)));
            HttpResponse response =
                    AuditedResponses.report(streamed, begin(auditor, "list", false))
                            .toCompletableFuture()
                            .get(30, TimeUnit.SECONDS);
            assertEquals(
                    length,
                    response.entity().getContentLengthOption().orElse(-1),
                    "a streamed list keeps its Content-Length");
            String sent = drain(response);
            assertEquals(String.join("", pieces), sent);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> out.lines.size() == 2);
            assertEquals(
                    Json.parseTrusted(sent.getBytes(StandardCharsets.UTF_8)),
                    line(out.lines.get(1)).get("responseObject"));
        }
    }

    @Test
    void aWatchStreamIsNeverKept() throws Exception {
        AuditLogTest.Capture out = new AuditLogTest.Capture();
        try (Auditor auditor =
                new Auditor(
                        Optional.of(requestResponse()),
                        AuditLogTest.log(out, AuditMode.BLOCKING, 8),
                        AuditMode.BLOCKING,
                        CLOCK,
                        () -> "id-1")) {
            HttpResponse streamed =
                    HttpResponse.create()
                            .withEntity(
                                    HttpEntities.createChunked(
                                            ContentTypes.APPLICATION_JSON,
                                            Source.single(
                                                    ByteString.fromString(
                                                            "{\"type\":\"ADDED\",\"object\":{}}\n"))));
            HttpResponse response =
                    AuditedResponses.report(streamed, begin(auditor, "watch", true))
                            .toCompletableFuture()
                            .get(30, TimeUnit.SECONDS);
            drain(response);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> out.lines.size() == 3);
            List<String> stages =
                    out.lines.stream().map(l -> line(l).get("stage").asText()).toList();
            assertEquals(List.of("RequestReceived", "ResponseStarted", "ResponseComplete"), stages);
            for (String l : out.lines) {
                assertFalse(line(l).has("responseObject"), l);
            }
            assertTrue(line(out.lines.get(2)).has("responseStatus"));
        }
    }

    @Test
    void aRequestReceivedNotStoredIsKubesPlainInternalError() throws Exception {
        AuditHandle audit = begin(Auditor.disabled(), "list", false);
        HttpResponse response =
                AuditedResponses.notStored(
                        HttpRequest.GET("/api/v1/namespaces/ns/configmaps?limit=1&labelSelector=a"),
                        audit);
        assertEquals(500, response.status().intValue());
        assertEquals(
                "Internal Server Error: \"/api/v1/namespaces/ns/configmaps?limit=1&amp;labelSelector=a\":"
                        + " failed to store audit event\n",
                drain(response));
        assertEquals("nosniff", response.getHeader("X-Content-Type-Options").orElseThrow().value());
        assertEquals(audit.auditID(), response.getHeader("Audit-Id").orElseThrow().value());
    }
}
