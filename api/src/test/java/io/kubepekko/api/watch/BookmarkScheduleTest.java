package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BookmarkScheduleTest {

    private static final Instant START = Instant.parse("2026-11-28T00:00:00Z");
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static Instant at(long seconds) {
        return START.plusSeconds(seconds);
    }

    @Test
    void aWatchWithoutDeadlineGetsABookmarkEveryInterval() {
        BookmarkSchedule s = BookmarkSchedule.of(MINUTE, START, null);
        assertFalse(s.due(START, at(59)));
        assertTrue(s.due(START, at(60)));
        assertFalse(s.due(at(60), at(100)));
    }

    @Test
    void aBookmarkGoesOutTwoSecondsBeforeTheDeadline() {
        BookmarkSchedule s = BookmarkSchedule.of(MINUTE, START, Duration.ofSeconds(10));
        assertFalse(s.due(START, at(7)));
        assertTrue(s.due(START, at(8)));
        assertTrue(s.due(START, at(9)), "still due when the tick comes late");
    }

    @Test
    void thePreDeadlineBookmarkIsSentOnce() {
        BookmarkSchedule s = BookmarkSchedule.of(MINUTE, START, Duration.ofSeconds(10));
        assertFalse(s.due(at(8), at(9)), "sent at 8 s");
        assertFalse(
                s.due(Instant.parse("2026-11-28T00:00:08.100Z"), at(9)),
                "an event sent after its time counts");
    }

    @Test
    void anEventJustBeforeThePreDeadlineTimeDoesNotSuppressIt() {
        BookmarkSchedule s = BookmarkSchedule.of(MINUTE, START, Duration.ofSeconds(10));
        assertTrue(s.due(at(7), at(8)));
    }

    @Test
    void theIntervalStillAppliesBeforeALongDeadline() {
        BookmarkSchedule s = BookmarkSchedule.of(MINUTE, START, Duration.ofMinutes(5));
        assertTrue(s.due(START, at(60)));
        assertFalse(s.due(at(60), at(120 - 1)));
        assertTrue(
                s.due(at(240), at(298)),
                "2 s before the 300 s deadline, though the interval has not passed");
    }

    @Test
    void aWatchShorterThanTwoSecondsGetsNoPreDeadlineBookmark() {
        BookmarkSchedule s = BookmarkSchedule.of(MINUTE, START, Duration.ofSeconds(1));
        assertFalse(s.due(START, at(0)));
        assertFalse(s.due(START, Instant.parse("2026-11-28T00:00:00.900Z")));
    }

    @Test
    void aZeroTimeoutMeansNoDeadline() {
        BookmarkSchedule s = BookmarkSchedule.of(MINUTE, START, Duration.ZERO);
        assertFalse(s.due(START, at(59)));
    }
}
