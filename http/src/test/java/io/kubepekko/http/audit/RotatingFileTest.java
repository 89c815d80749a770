package io.kubepekko.http.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Size rotation, backup names and retention as lumberjack (kube's audit log writer) does them. */
class RotatingFileTest {

    @TempDir Path dir;

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        Instant now = Instant.parse("2026-03-04T05:06:07.890Z");

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static byte[] line(String s) {
        return (s + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void rotatesWhenAWriteWouldPassTheMaximumNamingTheBackupByUtcTime() throws IOException {
        TestClock clock = new TestClock();
        Path log = dir.resolve("audit.log");
        try (RotatingFile f = new RotatingFile(log, 10, 0, Duration.ZERO, clock)) {
            f.write(line("aaaa")); // 5 bytes
            f.write(line("bbbb")); // 10: fits exactly
            f.write(line("cccc")); // would be 15: rotate first
        }
        assertEquals(List.of("audit-2026-03-04T05-06-07.890.log", "audit.log"), names());
        assertEquals(
                "aaaa\nbbbb\n", Files.readString(dir.resolve("audit-2026-03-04T05-06-07.890.log")));
        assertEquals("cccc\n", Files.readString(log));
    }

    @Test
    void appendsToAnExistingFileThatHasRoomAndRotatesOneThatHasNone() throws IOException {
        TestClock clock = new TestClock();
        Path log = dir.resolve("audit.log");
        Files.writeString(log, "old\n");
        try (RotatingFile f = new RotatingFile(log, 10, 0, Duration.ZERO, clock)) {
            f.write(line("new"));
        }
        assertEquals("old\nnew\n", Files.readString(log));
        try (RotatingFile f = new RotatingFile(log, 10, 0, Duration.ZERO, clock)) {
            f.write(line("x")); // 8 + 2 reaches the maximum: lumberjack rotates on open
        }
        assertEquals(List.of("audit-2026-03-04T05-06-07.890.log", "audit.log"), names());
        assertEquals("x\n", Files.readString(log));
    }

    @Test
    void keepsOnlyMaxBackupsNewestFirst() throws IOException {
        TestClock clock = new TestClock();
        Path log = dir.resolve("audit.log");
        try (RotatingFile f = new RotatingFile(log, 4, 2, Duration.ZERO, clock)) {
            for (int i = 0; i < 5; i++) {
                f.write(line("l" + i)); // 3 bytes: each write after the first rotates
                clock.now = clock.now.plusSeconds(1);
            }
        }
        assertEquals(
                List.of(
                        "audit-2026-03-04T05-06-10.890.log",
                        "audit-2026-03-04T05-06-11.890.log",
                        "audit.log"),
                names());
        assertEquals("l4\n", Files.readString(log));
        assertEquals("l3\n", Files.readString(dir.resolve("audit-2026-03-04T05-06-11.890.log")));
    }

    @Test
    void removesBackupsOlderThanMaxAgeByTheTimeInTheirName() throws IOException {
        TestClock clock = new TestClock();
        Path log = dir.resolve("audit.log");
        Files.writeString(dir.resolve("audit-2026-02-01T00-00-00.000.log"), "ancient\n");
        Files.writeString(dir.resolve("audit-2026-03-03T12-00-00.000.log"), "recent\n");
        Files.writeString(dir.resolve("audit-notatime.log"), "not ours\n");
        try (RotatingFile f = new RotatingFile(log, 4, 0, Duration.ofDays(1), clock)) {
            f.write(line("a1"));
            f.write(line("a2"));
        }
        assertEquals(
                List.of(
                        "audit-2026-03-03T12-00-00.000.log",
                        "audit-2026-03-04T05-06-07.890.log",
                        "audit-notatime.log",
                        "audit.log"),
                names());
    }

    @Test
    void aFileWithoutExtensionGetsTheTimestampAtItsEnd() throws IOException {
        TestClock clock = new TestClock();
        Path log = dir.resolve("audit");
        try (RotatingFile f = new RotatingFile(log, 4, 0, Duration.ZERO, clock)) {
            f.write(line("a1"));
            f.write(line("a2"));
        }
        assertEquals(List.of("audit", "audit-2026-03-04T05-06-07.890"), names());
    }

    @Test
    void refusesALineLongerThanTheMaximumAsLumberjack() throws IOException {
        try (RotatingFile f =
                new RotatingFile(dir.resolve("a.log"), 4, 0, Duration.ZERO, new TestClock())) {
            IOException e = assertThrows(IOException.class, () -> f.write(line("toolong")));
            assertEquals("write length 8 exceeds maximum file size 4", e.getMessage());
        }
    }

    @Test
    void zeroMaximumMeansLumberjacksHundredMegabytes() {
        assertEquals(100L * 1024 * 1024, RotatingFile.DEFAULT_MAX_BYTES);
    }

    @Test
    void createsTheFileAndItsDirectoryPrivate() throws IOException {
        Path log = dir.resolve("sub/audit.log");
        try (RotatingFile f = new RotatingFile(log, 0, 0, Duration.ZERO, new TestClock())) {
            f.ensureExists();
            f.write(line("x"));
            clockIndependentRotationCheck(f);
        }
        assertEquals(
                "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        assertEquals(
                "rwx------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(log.getParent())));
    }

    private static void clockIndependentRotationCheck(RotatingFile f) throws IOException {
        assertEquals(List.of(), f.backups());
    }
}
