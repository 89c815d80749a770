package io.kubepekko.http.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.audit.AuditEvent;
import io.kubepekko.api.audit.AuditLevel;
import io.kubepekko.api.audit.AuditObjectRef;
import io.kubepekko.api.audit.AuditResponseStatus;
import io.kubepekko.api.audit.AuditStage;
import io.kubepekko.api.auth.UserInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The log backend: order kept, writes off the caller's thread, a stalled output never holds one.
 */
class AuditLogTest {

    private static final Instant AT = Instant.parse("2026-01-02T03:04:05.123456Z");

    static AuditEvent event(String id, AuditStage stage) {
        return new AuditEvent(
                AuditLevel.METADATA,
                id,
                stage,
                "/api/v1/namespaces/ns/pods",
                "list",
                UserInfo.of("alice", List.of("devs", "system:authenticated")),
                null,
                List.of("10.0.0.1"),
                "kubectl/v1.35.0",
                new AuditObjectRef("pods", "ns", "", "", "", "v1", "", ""),
                stage == AuditStage.REQUEST_RECEIVED ? null : AuditResponseStatus.ofCode(200),
                null,
                null,
                AT,
                AT,
                Map.of());
    }

    /** Collects lines. */
    static final class Capture implements AuditLog.LineWriter {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void write(byte[] line) {
            lines.add(new String(line, StandardCharsets.UTF_8));
        }

        @Override
        public void close() {}
    }

    /** Where the tests' answers complete: a thread of its own, named, never the writer. */
    static final ExecutorService COMPLETIONS =
            Executors.newCachedThreadPool(
                    r -> {
                        Thread t = new Thread(r, "completions");
                        t.setDaemon(true);
                        return t;
                    });

    static AuditLog log(AuditLog.LineWriter out, AuditMode mode, int capacity) {
        return new AuditLog(
                out, AuditLogFormat.JSON, mode, capacity, Duration.ofSeconds(30), COMPLETIONS);
    }

    private static boolean answer(CompletionStage<Boolean> stage) throws Exception {
        return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void writesEveryEventAsOneJsonLineInTheOrderRecorded() throws Exception {
        Capture out = new Capture();
        AuditLog log = log(out, AuditMode.BLOCKING, 64);
        List<String> expected = new ArrayList<>();
        List<CompletionStage<Boolean>> answers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            AuditStage stage =
                    i % 2 == 0 ? AuditStage.REQUEST_RECEIVED : AuditStage.RESPONSE_COMPLETE;
            answers.add(log.record(event("id-" + (i / 2), stage)));
            expected.add("id-" + (i / 2) + "/" + stage.wireName());
        }
        for (CompletionStage<Boolean> a : answers) {
            assertTrue(answer(a));
        }
        log.close();
        assertEquals(50, out.lines.size());
        List<String> seen = new ArrayList<>();
        for (String line : out.lines) {
            assertTrue(line.endsWith("}\n"), line);
            assertEquals(1, line.split("\n", -1).length - 1, "one line per event");
            String id = line.replaceAll(".*\"auditID\":\"([^\"]+)\".*\n", "$1");
            String stage = line.replaceAll(".*\"stage\":\"([^\"]+)\".*\n", "$1");
            seen.add(id + "/" + stage);
        }
        assertEquals(expected, seen);
    }

    @Test
    void legacyFormatIsKubesOneLineText() {
        assertEquals(
                "2026-01-02T03:04:05.123456Z AUDIT: id=\"id-1\" stage=\"ResponseComplete\""
                        + " ip=\"10.0.0.1\" method=\"list\" user=\"alice\""
                        + " groups=\"\\\"devs\\\",\\\"system:authenticated\\\"\" as=\"<self>\""
                        + " asgroups=\"<lookup>\" user-agent=\"kubectl/v1.35.0\" namespace=\"ns\""
                        + " uri=\"/api/v1/namespaces/ns/pods\" response=\"200\"",
                AuditLogFormat.legacyText(event("id-1", AuditStage.RESPONSE_COMPLETE)));
        assertEquals(
                "<deferred>",
                AuditLogFormat.legacyText(event("id-1", AuditStage.REQUEST_RECEIVED))
                        .replaceAll(".*response=\"([^\"]*)\"", "$1"));
    }

    /** An output that blocks until released: a stalled disk. */
    static final class Stalled implements AuditLog.LineWriter {
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
        public void close() {}
    }

    /**
     * kube's blocking mode without a blocked thread: the answer completes once the event is
     * written, and the caller is never held, not even by a full queue (it drops instead). A caller
     * that waited would hang the test until the preemptive timeout fails it.
     */
    @Test
    void blockingModeAnswersOnceWrittenAndNeverHoldsTheCaller() throws Exception {
        Stalled out = new Stalled();
        AuditLog log = log(out, AuditMode.BLOCKING, 2);
        CompletableFuture<Boolean> first =
                log.record(event("first", AuditStage.REQUEST_RECEIVED)).toCompletableFuture();
        assertTrue(out.entered.await(30, TimeUnit.SECONDS), "the writer took the first event");
        List<CompletableFuture<Boolean>> queued =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(30),
                        () ->
                                List.of(
                                        log.record(event("second", AuditStage.REQUEST_RECEIVED))
                                                .toCompletableFuture(),
                                        log.record(event("third", AuditStage.REQUEST_RECEIVED))
                                                .toCompletableFuture(),
                                        log.record(event("fourth", AuditStage.REQUEST_RECEIVED))
                                                .toCompletableFuture()));
        assertFalse(first.isDone(), "answered before it was written");
        assertFalse(queued.get(0).isDone());
        assertFalse(queued.get(1).isDone());
        assertFalse(answer(queued.get(2)), "the full queue drops at once");
        assertEquals(1, log.dropped());

        out.release.countDown();
        assertTrue(answer(first));
        assertTrue(answer(queued.get(0)));
        assertTrue(answer(queued.get(1)));
        log.close();
        assertEquals(3, out.lines.size());
        assertTrue(out.lines.get(0).contains("\"first\""));
        assertTrue(out.lines.get(2).contains("\"third\""));
    }

    @Test
    void answersCompleteOnTheCompletionsExecutorNeverOnTheWriter() throws Exception {
        Stalled out = new Stalled();
        AuditLog log = log(out, AuditMode.BLOCKING, 4);
        CompletionStage<Boolean> written = log.record(event("a", AuditStage.REQUEST_RECEIVED));
        assertTrue(out.entered.await(30, TimeUnit.SECONDS));
        // Chained while the write is held, so it runs on the thread that completes the answer.
        CompletableFuture<String> ranOn =
                written.thenApply(w -> Thread.currentThread().getName()).toCompletableFuture();
        out.release.countDown();
        assertEquals("completions", ranOn.get(30, TimeUnit.SECONDS));
        log.close();
    }

    @Test
    void aFailingOutputAnswersFalseInTheBlockingModes() throws Exception {
        AuditLog.LineWriter failing =
                new AuditLog.LineWriter() {
                    @Override
                    public void write(byte[] line) throws IOException {
                        throw new IOException("disk full");
                    }

                    @Override
                    public void close() {}
                };
        AuditLog log = log(failing, AuditMode.BLOCKING_STRICT, 4);
        assertFalse(answer(log.record(event("a", AuditStage.REQUEST_RECEIVED))));
        log.close();
    }

    @Test
    void batchModeAnswersAtOnceAndDropsWhenTheQueueIsFull() throws Exception {
        Stalled out = new Stalled();
        AuditLog log = log(out, AuditMode.BATCH, 1);
        assertTrue(answer(log.record(event("first", AuditStage.REQUEST_RECEIVED))));
        assertTrue(out.entered.await(30, TimeUnit.SECONDS));
        CompletionStage<Boolean> second = log.record(event("second", AuditStage.REQUEST_RECEIVED));
        assertTrue(second.toCompletableFuture().isDone(), "batch answers once queued");
        assertTrue(answer(second));
        assertFalse(answer(log.record(event("third", AuditStage.REQUEST_RECEIVED))));
        out.release.countDown();
        log.close();
        assertEquals(2, out.lines.size());
    }

    @Test
    void closeWritesWhatIsQueuedAndRefusesMore() throws Exception {
        Capture out = new Capture();
        AuditLog log = log(out, AuditMode.BLOCKING, 100);
        for (int i = 0; i < 20; i++) {
            log.record(event("id-" + i, AuditStage.RESPONSE_COMPLETE));
        }
        log.close();
        assertEquals(20, out.lines.size());
        assertFalse(answer(log.record(event("late", AuditStage.RESPONSE_COMPLETE))));
    }
}
