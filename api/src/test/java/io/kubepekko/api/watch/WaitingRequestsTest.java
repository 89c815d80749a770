package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitingRequestsTest {

    private static final Instant START = Instant.parse("2026-11-28T00:00:00Z");

    private static Instant at(long seconds) {
        return START.plusSeconds(seconds);
    }

    @Test
    void aRequestBeyondTheLimitIsRefused() {
        WaitingRequests<String> w = new WaitingRequests<>(2);
        assertTrue(w.park("a", at(1)));
        assertTrue(w.park("b", at(1)));
        assertFalse(w.park("c", at(1)));
        assertEquals(2, w.size());
    }

    @Test
    void retryOffersEveryRequestOldestFirstAndKeepsThoseNotAnswered() {
        WaitingRequests<String> w = new WaitingRequests<>(10);
        w.park("a", at(1));
        w.park("b", at(1));
        w.park("c", at(1));
        List<String> offered = new ArrayList<>();
        w.retry(
                r -> {
                    offered.add(r);
                    return !r.equals("b");
                });
        assertEquals(List.of("a", "b", "c"), offered);
        assertEquals(List.of("b"), w.expire(at(1)));
        assertTrue(w.isEmpty());
    }

    @Test
    void expireReturnsTheRequestsWhoseDeadlineHasComeInArrivalOrder() {
        WaitingRequests<String> w = new WaitingRequests<>(10);
        w.park("late", at(5));
        w.park("first", at(2));
        w.park("second", at(3));
        assertEquals(List.of(), w.expire(at(1)));
        assertEquals(
                List.of("first", "second"), w.expire(at(3)), "a deadline equal to now has come");
        assertEquals(1, w.size());
        assertTrue(w.park("new", at(9)), "an expired request frees its place");
    }
}
