package io.kubepekko.agent.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void theKubeletsDefaultsABurstOfAHundredGoesAtOnceThenFiftyPerSecond() {
        TokenBucket b = TokenBucket.agentDefaults(0);
        for (int i = 0; i < 100; i++) {
            assertEquals(0, b.reserve(0), "request " + i + " of the burst");
        }
        assertEquals(SECOND / 50, b.reserve(0));
        assertEquals(2 * SECOND / 50, b.reserve(0), "callers queue behind each other");
    }

    @Test
    void tokensRefillWithTimeUpToTheBurst() {
        TokenBucket b = new TokenBucket(5, 10, 0);
        for (int i = 0; i < 10; i++) {
            b.reserve(0);
        }
        assertEquals(0, b.reserve(SECOND / 5), "one token back after 200 ms");
        assertEquals(SECOND / 5, b.reserve(SECOND / 5));
        TokenBucket idle = new TokenBucket(5, 10, 0);
        for (int i = 0; i < 10; i++) {
            assertEquals(0, idle.reserve(100 * SECOND), "an idle bucket holds at most the burst");
        }
        assertEquals(SECOND / 5, idle.reserve(100 * SECOND));
    }

    @Test
    void rejectsMeaninglessRates() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(5, 0, 0));
    }
}
