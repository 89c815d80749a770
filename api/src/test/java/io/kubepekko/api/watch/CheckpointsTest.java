package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CheckpointsTest {

    private static final Instant START = Instant.parse("2026-11-28T00:00:00Z");
    private static final Duration INTERVAL = Duration.ofSeconds(10);
    private static final Duration MARGIN = Duration.ofSeconds(5);
    private static final Duration RETENTION = Duration.ofSeconds(100);

    private static Instant at(long seconds) {
        return START.plusSeconds(seconds);
    }

    private static List<Long> versions(Checkpoints<String> c) {
        return c.all().stream().map(Checkpoints.Checkpoint::version).toList();
    }

    @Test
    void aPositionIsAskedForOncePerIntervalWhileNoneWaits() {
        Checkpoints<String> c = new Checkpoints<>(INTERVAL, MARGIN, RETENTION);
        assertTrue(c.tick(at(0), 1), "the first tick asks");
        assertFalse(c.tick(at(9), 1), "not again within the interval");
        assertTrue(
                c.tick(at(10), 1),
                "again once the interval has passed (the first read may have failed)");
    }

    @Test
    void noPositionIsAskedForWhileOneWaitsForItsMargin() {
        Checkpoints<String> c = new Checkpoints<>(INTERVAL, Duration.ofSeconds(50), RETENTION);
        assertTrue(c.tick(at(0), 1));
        c.positionRead(at(0), "p0");
        assertFalse(c.tick(at(10), 1), "the interval has passed, but a position waits");
        assertTrue(c.tick(at(50), 2), "paired, so the next is asked for");
        assertEquals(List.of(2L), versions(c));
    }

    @Test
    void aPositionIsPairedWithTheVersionReachedOnceItsMarginHasPassed() {
        Checkpoints<String> c = new Checkpoints<>(INTERVAL, MARGIN, RETENTION);
        c.tick(at(0), 1);
        c.positionRead(at(0), "p0");
        c.tick(at(4), 7);
        assertEquals(List.of(), versions(c), "the margin has not passed");
        c.tick(at(5), 9);
        assertEquals(List.of(9L), versions(c));
        assertEquals("p0", c.all().iterator().next().position());
        assertEquals(at(5), c.all().iterator().next().at());
    }

    @Test
    void aFailedPositionReadIsNotPaired() {
        Checkpoints<String> c = new Checkpoints<>(INTERVAL, MARGIN, RETENTION);
        c.tick(at(0), 1);
        c.positionRead(at(0), null);
        c.tick(at(6), 3);
        assertEquals(List.of(), versions(c));
    }

    @Test
    void aResumeReadsFromTheNewestCheckpointAtOrBelowItsVersion() {
        Checkpoints<String> c = checkpointsAt(10, 20);
        assertEquals(
                Optional.empty(),
                c.readFrom(5),
                "below every checkpoint: from the journal's beginning");
        assertEquals(Optional.of("p10"), c.readFrom(10));
        assertEquals(Optional.of("p10"), c.readFrom(19));
        assertEquals(Optional.of("p20"), c.readFrom(25));
    }

    @Test
    void aVersionBelowACheckpointOlderThanTheHorizonHasExpired() {
        Checkpoints<String> c = checkpointsAt(10, 20); // paired at 5 s and 15 s
        assertFalse(c.expired(5, at(5)), "the first checkpoint is not older than the horizon");
        assertTrue(c.expired(5, at(6)));
        assertFalse(
                c.expired(10, at(100)),
                "a checkpoint at or below the version: the journal can tell");
        assertFalse(
                new Checkpoints<String>(INTERVAL, MARGIN, RETENTION).expired(5, at(100)),
                "without checkpoints nothing is known to be too old");
    }

    @Test
    void checkpointsPastTheRetentionAreDroppedButTheNewestOfThem() {
        Checkpoints<String> c = checkpointsAt(10, 20, 30); // paired at 5, 15 and 25 s
        c.tick(
                at(115),
                30); // horizon 15 s: the one at 15 s is not older, so the one at 5 s is still
        // needed
        assertEquals(List.of(10L, 20L, 30L), versions(c));
        c.tick(
                at(116),
                30); // horizon 16 s: the one at 5 s goes, the one at 15 s proves older versions
        // expired
        assertEquals(List.of(20L, 30L), versions(c));
        c.tick(at(1000), 30);
        assertEquals(List.of(30L), versions(c), "the newest one always stays");
    }

    /** A checkpoint at each version, paired 5 s, 15 s, ... after the start. */
    private static Checkpoints<String> checkpointsAt(long... versions) {
        Checkpoints<String> c = new Checkpoints<>(INTERVAL, MARGIN, RETENTION);
        long t = 0;
        for (long v : versions) {
            assertTrue(c.tick(at(t), v));
            c.positionRead(at(t), "p" + v);
            c.tick(at(t + 5), v);
            t += 10;
        }
        assertEquals(versions.length, c.all().size());
        return c;
    }
}
