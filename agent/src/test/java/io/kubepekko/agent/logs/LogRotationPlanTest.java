package io.kubepekko.agent.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LogRotationPlanTest {

    private static final LocalDateTime NOW = LocalDateTime.of(2026, 11, 28, 19, 5, 7);
    private static final LogRotationPolicy TEN_BYTES_FIVE_FILES = new LogRotationPolicy(10, 5);

    private static LogRotationPlan.Action plan(
            long size, List<String> siblings, LogRotationPolicy policy) {
        return LogRotationPlan.plan("0.log", OptionalLong.of(size), siblings, policy, NOW);
    }

    @Test
    void aLogBelowTheLimitIsKept() {
        assertInstanceOf(
                LogRotationPlan.Keep.class, plan(9, List.of("0.log"), TEN_BYTES_FIVE_FILES));
    }

    @Test
    void aLogAtExactlyTheLimitIsRotatedAsKubeDoes() {
        // container_log_manager.go keeps a file only while size < MaxSize
        assertInstanceOf(
                LogRotationPlan.Rotate.class, plan(10, List.of("0.log"), TEN_BYTES_FIVE_FILES));
    }

    @Test
    void aLogOneByteOverTheLimitIsRotatedToItsTimestampedName() {
        var rotate =
                assertInstanceOf(
                        LogRotationPlan.Rotate.class,
                        plan(11, List.of("0.log"), TEN_BYTES_FIVE_FILES));
        assertEquals("0.log.20261128-190507", rotate.rotatedName());
        assertEquals(List.of(), rotate.remove());
        assertEquals(List.of(), rotate.compress());
    }

    @Test
    void aMissingLiveLogIsReopened() {
        assertInstanceOf(
                LogRotationPlan.Reopen.class,
                LogRotationPlan.plan(
                        "0.log", OptionalLong.empty(), List.of(), TEN_BYTES_FIVE_FILES, NOW));
    }

    @Test
    void olderRotatedFilesAreCompressedAndTheNewestStaysPlainUntilTheNextRotation() {
        var rotate =
                assertInstanceOf(
                        LogRotationPlan.Rotate.class,
                        plan(
                                11,
                                List.of(
                                        "0.log",
                                        "0.log.20261128-180000.gz",
                                        "0.log.20261128-190000"),
                                TEN_BYTES_FIVE_FILES));
        assertEquals(List.of(), rotate.remove());
        assertEquals(List.of("0.log.20261128-190000"), rotate.compress());
    }

    @Test
    void maxFilesTwoKeepsOnlyTheLiveLogAndTheOneJustRotated() {
        var rotate =
                assertInstanceOf(
                        LogRotationPlan.Rotate.class,
                        plan(
                                11,
                                List.of(
                                        "0.log",
                                        "0.log.20261128-180000.gz",
                                        "0.log.20261128-190000"),
                                new LogRotationPolicy(10, 2)));
        assertEquals(List.of("0.log.20261128-180000.gz", "0.log.20261128-190000"), rotate.remove());
        assertEquals(List.of(), rotate.compress());
    }

    @Test
    void theOldestRotatedFilesGoSoThatAtMostMaxFilesRemain() {
        List<String> dir =
                List.of(
                        "0.log",
                        "0.log.20261128-150000.gz",
                        "0.log.20261128-160000.gz",
                        "0.log.20261128-170000.gz",
                        "0.log.20261128-180000.gz",
                        "0.log.20261128-190000");
        var rotate =
                assertInstanceOf(LogRotationPlan.Rotate.class, plan(11, dir, TEN_BYTES_FIVE_FILES));
        // 5 files: the live one, the one rotated now, and the 3 newest older ones
        assertEquals(
                List.of("0.log.20261128-150000.gz", "0.log.20261128-160000.gz"), rotate.remove());
        assertEquals(List.of("0.log.20261128-190000"), rotate.compress());
    }

    @Test
    void leftoversOfAnInterruptedCompressionAreRemovedFirst() {
        List<String> dir =
                List.of(
                        "0.log",
                        "0.log.20261128-170000",
                        "0.log.20261128-170000.gz",
                        "0.log.20261128-180000.tmp",
                        "0.log.20261128-180000");
        var rotate =
                assertInstanceOf(LogRotationPlan.Rotate.class, plan(11, dir, TEN_BYTES_FIVE_FILES));
        assertEquals(
                List.of("0.log.20261128-170000", "0.log.20261128-180000.tmp"), rotate.remove());
        assertEquals(List.of("0.log.20261128-180000"), rotate.compress());
    }

    @Test
    void logsOfOtherRestartsInTheDirectoryAreLeftAlone() {
        List<String> dir =
                List.of("0.log", "1.log", "10.log.20261128-180000", "1.log.20261128-180000");
        var rotate =
                assertInstanceOf(
                        LogRotationPlan.Rotate.class,
                        LogRotationPlan.plan(
                                "1.log",
                                OptionalLong.of(11),
                                dir,
                                new LogRotationPolicy(10, 2),
                                NOW));
        assertEquals(List.of("1.log.20261128-180000"), rotate.remove());
        assertTrue(rotate.compress().isEmpty());
    }

    @Test
    void rotationIsOffAtSizeZeroAndFewerThanTwoFilesIsRefused() {
        assertEquals(false, new LogRotationPolicy(0, 5).enabled());
        assertThrows(IllegalArgumentException.class, () -> new LogRotationPolicy(10, 1));
    }
}
