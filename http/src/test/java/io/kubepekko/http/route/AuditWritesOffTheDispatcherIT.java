package io.kubepekko.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.http.audit.AuditLog;
import io.kubepekko.http.audit.AuditLogFormat;
import io.kubepekko.http.audit.AuditMode;
import io.kubepekko.http.audit.Auditor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.stream.Materializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code --audit-log-mode=blocking} holds a request until its event is written, as kube's blocking
 * backend does, without holding a thread: the handler runs on a dispatcher of ONE thread, the log's
 * output is held by a latch the test controls, and while one request waits for its write another
 * one is served. A handler that waited for the write on the dispatcher would leave no thread to
 * serve the second request.
 */
class AuditWritesOffTheDispatcherIT {

    /** An output whose writes wait for the test's latch: a disk that has stalled. */
    static final class HeldOutput implements AuditLog.LineWriter {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void write(byte[] line) throws IOException {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            lines.add(new String(line, StandardCharsets.UTF_8));
        }

        @Override
        public void close() {
            release.countDown();
        }
    }

    private static final HeldOutput OUT = new HeldOutput();
    private static ActorSystem<Void> system;
    private static ServerBinding binding;
    private static Auditor auditor;
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static AuditPolicy policy() {
        String text =
                "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n"
                        + "- level: None\n  nonResourceURLs: [/healthz]\n"
                        + "- level: Metadata\n";
        return ((AuditPolicyReader.Result.Loaded)
                        AuditPolicyReader.read(text.getBytes(StandardCharsets.UTF_8)))
                .policy();
    }

    @BeforeAll
    static void serve() throws Exception {
        system =
                ActorSystem.create(
                        Behaviors.empty(),
                        "audit-off-the-dispatcher",
                        ConfigFactory.parseString(
                                        "pekko.actor.default-dispatcher {\n"
                                                + "  executor = thread-pool-executor\n"
                                                + "  thread-pool-executor.fixed-pool-size = 1\n"
                                                + "}")
                                .withFallback(ConfigFactory.load()));
        auditor =
                new Auditor(
                        Optional.of(policy()),
                        new AuditLog(
                                OUT,
                                AuditLogFormat.JSON,
                                AuditMode.BLOCKING,
                                16,
                                Duration.ofSeconds(5),
                                system.executionContext()),
                        AuditMode.BLOCKING,
                        InstantSource.system(),
                        () -> "held-" + System.nanoTime());
        Map<String, Supplier<Optional<String>>> checks = Map.of("ping", Optional::empty);
        HealthChecks health = new HealthChecks(checks, Set.of(), Clock.systemUTC(), Duration.ZERO);
        Gate gate =
                new CheckingGate(
                        credentials ->
                                new Authentication.Authenticated(
                                        UserInfo.of("alice", List.of("system:authenticated")),
                                        List.of()),
                        attributes -> Decision.allow(""),
                        auditor,
                        WriteAdmission.NONE);
        ApiHandler handler =
                new ApiHandler(
                        Materializer.matFromSystem(system),
                        null, // only health endpoints are asked
                        new DocumentHandler(Registry.builtin()),
                        health,
                        health,
                        gate);
        binding =
                Http.get(system)
                        .newServerAt("127.0.0.1", 0)
                        .bind(handler::apply)
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        OUT.release.countDown();
        if (binding != null) {
            binding.terminate(Duration.ofSeconds(5))
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        }
        if (auditor != null) {
            auditor.close();
        }
        if (system != null) {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private static HttpRequest get(String path) {
        return HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + binding.localAddress().getPort() + path))
                .timeout(Duration.ofSeconds(30))
                .build();
    }

    @Test
    void aRequestWaitsForItsEventWhileAnotherIsServedOnTheOnlyDispatcherThread() throws Exception {
        CompletableFuture<HttpResponse<String>> held =
                CLIENT.sendAsync(get("/livez"), HttpResponse.BodyHandlers.ofString());
        assertTrue(OUT.entered.await(30, TimeUnit.SECONDS), "the writer holds /livez's event");

        // /healthz is not audited: nothing of it waits for the held write.
        HttpResponse<String> served =
                CLIENT.send(get("/healthz"), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, served.statusCode());
        assertEquals("ok", served.body());
        assertFalse(held.isDone(), "answered before its RequestReceived event was written");

        OUT.release.countDown();
        HttpResponse<String> answered = held.get(30, TimeUnit.SECONDS);
        assertEquals(200, answered.statusCode());
        String id = answered.headers().firstValue("Audit-Id").orElseThrow();
        // The response left once its ResponseComplete event was written.
        List<String> stages =
                OUT.lines.stream()
                        .filter(l -> l.contains("\"auditID\":\"" + id + "\""))
                        .map(l -> l.replaceAll(".*\"stage\":\"([^\"]+)\".*\n", "$1"))
                        .toList();
        assertEquals(List.of("RequestReceived", "ResponseComplete"), stages);
    }
}
