package io.kubepekko.actors.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kubepekko.actors.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

    private final List<String> scheduled = new ArrayList<>();
    private final WorkQueue queue =
            new WorkQueue(
                    2,
                    new Backoff(Duration.ofMillis(10), Duration.ofMillis(40)),
                    (key, delay) -> scheduled.add(key + "@" + delay.toMillis()));

    @Test
    void aKeyIsQueuedOnceAndWorkedOnByOneWorkerAtATime() {
        queue.add("a");
        queue.add("a");
        queue.add("b");
        queue.add("c");
        assertEquals("a", queue.next());
        assertEquals("b", queue.next());
        assertNull(queue.next(), "two workers busy");
        queue.add("a"); // while a is worked on: again once that work ends
        queue.done("a");
        assertEquals("c", queue.next());
        queue.done("b");
        assertEquals("a", queue.next());
        assertNull(queue.next());
    }

    @Test
    void failuresComeBackAfterADoublingCappedBackoff() {
        for (int i = 0; i < 4; i++) {
            queue.add("x");
            assertEquals("x", queue.next());
            queue.failed("x");
        }
        assertEquals(List.of("x@10", "x@20", "x@40", "x@40"), scheduled);
        queue.add("x");
        queue.next();
        queue.done("x");
        queue.add("x");
        queue.next();
        queue.failed("x");
        assertEquals("x@10", scheduled.get(4), "success resets the back-off");
    }
}
