package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DowntimeTest {

    private static final Instant START = Instant.parse("2026-11-28T00:00:00Z");
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private static Instant at(long seconds) {
        return START.plusSeconds(seconds);
    }

    @Test
    void notServingIsOverdueOnlyOnceThePatienceHasPassedSinceItBegan() {
        Downtime d = new Downtime(PATIENCE);
        assertEquals(Optional.empty(), d.overdue(at(100)), "serving");
        d.update(false, at(0));
        d.update(false, at(20)); // still the same downtime
        assertEquals(Optional.empty(), d.overdue(at(29)));
        assertEquals(Optional.of(Duration.ofSeconds(30)), d.overdue(at(30)));
    }

    @Test
    void servingAgainTellsHowLongItDidNotOnce() {
        Downtime d = new Downtime(PATIENCE);
        assertEquals(Optional.empty(), d.update(true, at(0)), "it served all along");
        d.update(false, at(1));
        assertEquals(Optional.of(Duration.ofSeconds(4)), d.update(true, at(5)));
        assertEquals(Optional.empty(), d.update(true, at(6)));
        assertEquals(Optional.empty(), d.overdue(at(100)));
    }
}
