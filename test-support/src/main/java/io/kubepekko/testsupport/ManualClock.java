package io.kubepekko.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that moves only when a test advances it, for code that takes a {@link Clock}: "an hour
 * later" happens at once. Safe to read from any thread.
 */
public final class ManualClock extends Clock {
    private final Duration tick;
    private Instant now;

    public ManualClock(Instant start) {
        this(start, Duration.ZERO);
    }

    private ManualClock(Instant start, Duration tick) {
        this.now = start;
        this.tick = tick;
    }

    /**
     * A clock that also moves {@code tick} further after each read, so no two reads see the same
     * instant.
     */
    public static ManualClock ticking(Instant start, Duration tick) {
        return new ManualClock(start, tick);
    }

    public synchronized void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public synchronized Instant instant() {
        Instant read = now;
        now = now.plus(tick);
        return read;
    }
}
