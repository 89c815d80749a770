package io.kubepekko.agent.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void doublesFromTheFirstDelayUpToTheMaximum() {
        Backoff b = Backoff.kubelet();
        assertEquals(Duration.ZERO, b.delay());
        b = b.failed();
        assertEquals(Duration.ofMillis(100), b.delay());
        b = b.failed();
        assertEquals(Duration.ofMillis(200), b.delay());
        for (int i = 0; i < 40; i++) {
            b = b.failed();
        }
        assertEquals(Duration.ofSeconds(7), b.delay());
    }

    @Test
    void onlyTheFirstFailureOfAStreakIsLoggedAndSuccessStartsANewStreak() {
        Backoff b = Backoff.kubelet().failed();
        assertTrue(b.firstOfStreak());
        b = b.failed();
        assertFalse(b.firstOfStreak());
        b = b.succeeded().failed();
        assertTrue(b.firstOfStreak());
        assertEquals(Duration.ofMillis(100), b.delay());
    }
}
