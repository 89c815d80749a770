package io.kubepekko.actors.watch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class RateLimitedWarningTest {

    private static final Logger LOG = LoggerFactory.getLogger(RateLimitedWarningTest.class);
    private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");

    @Test
    void logsTheFirstThenAtMostOncePerInterval() {
        RateLimitedWarning w = new RateLimitedWarning(Duration.ofMinutes(1));
        assertTrue(w.warn(LOG, T0, "storage down: {}", "first"));
        assertFalse(w.warn(LOG, T0.plusSeconds(1), "storage down: {}", "retry"));
        assertFalse(w.warn(LOG, T0.plusSeconds(59), "storage down: {}", "retry"));
        assertTrue(w.warn(LOG, T0.plusSeconds(60), "storage down: {}", "a minute later"));
        assertFalse(w.warn(LOG, T0.plusSeconds(61), "storage down: {}", "retry"));
    }

    @Test
    void onceClearedItSaysWhetherItHadWarnedAndTheNextWarningGoesOutAtOnce() {
        RateLimitedWarning w = new RateLimitedWarning(Duration.ofMinutes(1));
        assertFalse(w.clear(), "nothing was wrong");
        w.warn(LOG, T0, "storage down");
        assertTrue(w.clear(), "the caller says it recovered");
        assertFalse(w.clear());
        assertTrue(w.warn(LOG, T0.plusSeconds(1), "storage down again"));
    }
}
