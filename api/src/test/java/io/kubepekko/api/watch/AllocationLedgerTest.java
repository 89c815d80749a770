package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AllocationLedger}: holders, commit reports in parts, and what cannot be published. */
class AllocationLedgerTest {

    @Test
    void anAllocationIsHeldUntilForgottenOnce() {
        AllocationLedger<String> ledger = new AllocationLedger<>(8);
        ledger.allocated(10, "team-a", 7);
        assertEquals(new AllocationLedger.Holder("team-a", 7), ledger.holder(10));
        assertEquals(new AllocationLedger.Holder("team-a", 7), ledger.forget(10));
        assertNull(ledger.forget(10), "resolved already");
        assertNull(ledger.holder(10));
    }

    @Test
    void aReportInPartsIsWholeWhenItsLastPartArrives() {
        AllocationLedger<String> ledger = new AllocationLedger<>(8);
        assertNull(ledger.reported(10, List.of("a", "b"), true));
        assertNull(ledger.reported(10, List.of("c"), true));
        assertEquals(List.of("a", "b", "c", "d"), ledger.reported(10, List.of("d"), false));
        assertEquals(List.of("e"), ledger.reported(10, List.of("e"), false), "parts are not kept");
        assertEquals(List.of("x"), ledger.reported(20, List.of("x"), false), "in one message");
    }

    @Test
    void forgettingAnAllocationDropsTheReportPartsWhoseLastNeverCame() {
        AllocationLedger<String> ledger = new AllocationLedger<>(8);
        ledger.reported(10, List.of("a"), true);
        ledger.forget(10);
        assertEquals(List.of("b"), ledger.reported(10, List.of("b"), false));
    }

    @Test
    void aCommitOfAVersionAnEarlierIncarnationHandedOutCannotBePublishedInOrder() {
        AllocationLedger<String> ledger = new AllocationLedger<>(8);
        ledger.allocated(3, "team-a", 1);
        ledger.restart(1000);
        assertNull(ledger.holder(3), "the earlier life's allocations are gone");
        assertEquals(
                "resourceVersion 1000 of an earlier incarnation committed late",
                ledger.outOfOrder(1000, false));
        assertNull(ledger.outOfOrder(1000, true), "a commit that persisted nothing");
        assertNull(ledger.outOfOrder(1001, false));
    }

    @Test
    void aCommitOfAnAllocationGivenUpCannotBePublishedInOrderOnce() {
        AllocationLedger<String> ledger = new AllocationLedger<>(8);
        ledger.allocated(10, "team-a", 1);
        ledger.reported(10, List.of("a"), true);
        ledger.giveUp(10);
        assertNull(ledger.holder(10));
        assertEquals(List.of("b"), ledger.reported(10, List.of("b"), false), "parts dropped");
        assertEquals(
                "resourceVersion 10 committed after it was given up", ledger.outOfOrder(10, false));
        assertNull(ledger.outOfOrder(10, false), "forgotten once reported");
    }

    @Test
    void anEmptyCommitOfAnAllocationGivenUpStillForgetsIt() {
        AllocationLedger<String> ledger = new AllocationLedger<>(8);
        ledger.giveUp(10);
        assertNull(ledger.outOfOrder(10, true));
        assertNull(ledger.outOfOrder(10, false));
    }

    @Test
    void onlyTheNewestGivenUpAllocationsAreRemembered() {
        AllocationLedger<String> ledger = new AllocationLedger<>(2);
        ledger.giveUp(10);
        ledger.giveUp(20);
        ledger.giveUp(30);
        assertNull(ledger.outOfOrder(10, false), "the oldest was dropped");
        assertEquals(
                "resourceVersion 20 committed after it was given up", ledger.outOfOrder(20, false));
        assertEquals(
                "resourceVersion 30 committed after it was given up", ledger.outOfOrder(30, false));
    }

    @Test
    void whatWasGivenUpOutlivesARestart() {
        AllocationLedger<String> ledger = new AllocationLedger<>(8);
        ledger.giveUp(2000);
        ledger.restart(1000);
        assertEquals(
                "resourceVersion 2000 committed after it was given up",
                ledger.outOfOrder(2000, false));
    }
}
