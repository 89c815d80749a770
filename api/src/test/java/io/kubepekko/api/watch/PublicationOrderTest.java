package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PublicationOrderTest {

    private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");

    @Test
    void releasesAHigherCommitOnlyAfterTheLowerOneResolves() {
        PublicationOrder<String> order = new PublicationOrder<>(0);
        order.allocated(1, 2, T0);
        order.allocated(3, 3, T0);
        assertEquals(List.of(), order.committed(3, List.of("c3")));
        assertEquals(0, order.publishedUpTo());
        assertEquals(List.of("a1", "a2", "c3"), order.committed(1, List.of("a1", "a2")));
        assertEquals(3, order.publishedUpTo());
        assertEquals(0, order.pendingCount());
    }

    @Test
    void anAbandonedRangeUnblocksTheOnesAfterIt() {
        PublicationOrder<String> order = new PublicationOrder<>(10);
        order.allocated(11, 12, T0);
        order.allocated(13, 13, T0);
        order.committed(13, List.of("c13"));
        assertEquals(List.of("c13"), order.abandoned(11));
        assertEquals(13, order.publishedUpTo());
    }

    @Test
    void duplicateOrUnknownReportsChangeNothing() {
        PublicationOrder<String> order = new PublicationOrder<>(0);
        order.allocated(1, 1, T0);
        assertEquals(List.of("x"), order.committed(1, List.of("x")));
        assertEquals(List.of(), order.committed(1, List.of("x")));
        assertEquals(List.of(), order.abandoned(99));
        assertEquals(1, order.publishedUpTo());
    }

    @Test
    void gapsBetweenAllocationsAreSkipped() {
        PublicationOrder<String> order = new PublicationOrder<>(0);
        order.allocated(1001, 1001, T0);
        assertEquals(List.of("v"), order.committed(1001, List.of("v")));
        assertEquals(1001, order.publishedUpTo());
    }

    @Test
    void refusesAllocationsThatDoNotIncrease() {
        PublicationOrder<String> order = new PublicationOrder<>(5);
        assertThrows(IllegalStateException.class, () -> order.allocated(5, 6, T0));
        order.allocated(6, 7, T0);
        assertThrows(IllegalStateException.class, () -> order.allocated(7, 8, T0));
    }

    @Test
    void reportsUnresolvedAllocationsPastTheirDeadline() {
        PublicationOrder<String> order = new PublicationOrder<>(0);
        order.allocated(1, 1, T0);
        order.allocated(2, 2, T0.plusSeconds(20));
        order.committed(2, List.of("b"));
        List<PublicationOrder.Range> late =
                order.overdue(T0.plusSeconds(31), Duration.ofSeconds(30));
        assertEquals(1, late.size());
        assertEquals(1, late.get(0).first());
        assertTrue(order.overdue(T0.plusSeconds(29), Duration.ofSeconds(30)).isEmpty());
    }
}
