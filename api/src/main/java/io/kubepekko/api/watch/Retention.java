package io.kubepekko.api.watch;

import java.time.Duration;
import java.util.Objects;

/**
 * How much history a watch cache keeps: events younger than {@code maxAge}, at most {@code
 * maxEvents} of them, keeping at most {@code maxBytes} of objects alive that the live state no
 * longer holds (the versions its events superseded and the objects they deleted; the newest event
 * is always kept). Overflow drops the oldest. Older versions answer 410 Expired.
 */
public record Retention(Duration maxAge, int maxEvents, long maxBytes) {

    public Retention {
        Objects.requireNonNull(maxAge, "maxAge");
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxAge must be positive: " + maxAge);
        }
        if (maxEvents < 1) {
            throw new IllegalArgumentException("maxEvents must be at least 1: " + maxEvents);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be at least 1: " + maxBytes);
        }
    }

    /** No bound on the bytes kept. */
    public Retention(Duration maxAge, int maxEvents) {
        this(maxAge, maxEvents, Long.MAX_VALUE);
    }
}
