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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
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

    @Test
    void writesEveryEventAsOneJsonLineInTheOrderRecorded() {
        Capture out = new Capture();
        AuditLog log =
                new AuditLog(
                        out, AuditLogFormat.JSON, AuditMode.BLOCKING, 4, Duration.ofSeconds(30));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            AuditStage stage =
                    i % 2 == 0 ? AuditStage.REQUEST_RECEIVED : AuditStage.RESPONSE_COMPLETE;
            assertTrue(log.record(event("id-" + (i / 2), stage)));
            expected.add("id-" + (i / 2) + "/" + stage.wireName());
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

    @Test
    void aStalledOutputNeverHoldsABlockingCallerForever() throws Exception {
        Stalled out = new Stalled();
        AuditLog log =
                new AuditLog(
                        out, AuditLogFormat.JSON, AuditMode.BLOCKING, 1, Duration.ofMillis(50));
        assertTrue(log.record(event("first", AuditStage.REQUEST_RECEIVED)));
        assertTrue(out.entered.await(30, TimeUnit.SECONDS), "the writer took the first event");
        assertTrue(log.record(event("second", AuditStage.REQUEST_RECEIVED))); // fills the queue
        boolean taken =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(30),
                        () -> log.record(event("third", AuditStage.REQUEST_RECEIVED)));
        assertFalse(taken, "dropped once the bounded wait is over");
        assertEquals(1, log.dropped());

        out.release.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> out.lines.size() == 2);
        log.close();
        assertTrue(out.lines.get(0).contains("\"first\""));
        assertTrue(out.lines.get(1).contains("\"second\""));
    }

    @Test
    void batchModeDropsAtOnceWhenTheQueueIsFull() throws Exception {
        Stalled out = new Stalled();
        AuditLog log =
                new AuditLog(out, AuditLogFormat.JSON, AuditMode.BATCH, 1, Duration.ofDays(1));
        assertTrue(log.record(event("first", AuditStage.REQUEST_RECEIVED)));
        assertTrue(out.entered.await(30, TimeUnit.SECONDS));
        assertTrue(log.record(event("second", AuditStage.REQUEST_RECEIVED)));
        // a day-long block timeout would hang here if batch mode waited
        assertFalse(
                assertTimeoutPreemptively(
                        Duration.ofSeconds(30),
                        () -> log.record(event("third", AuditStage.REQUEST_RECEIVED))));
        out.release.countDown();
        log.close();
    }

    @Test
    void closeWritesWhatIsQueuedAndRefusesMore() {
        Capture out = new Capture();
        AuditLog log =
                new AuditLog(
                        out, AuditLogFormat.JSON, AuditMode.BLOCKING, 100, Duration.ofSeconds(30));
        for (int i = 0; i < 20; i++) {
            log.record(event("id-" + i, AuditStage.RESPONSE_COMPLETE));
        }
        log.close();
        assertEquals(20, out.lines.size());
        assertFalse(log.record(event("late", AuditStage.RESPONSE_COMPLETE)));
    }
}
