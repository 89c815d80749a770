package io.kubepekko.api.store.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.store.batch.BatchAction.AbandonClaim;
import io.kubepekko.api.store.batch.BatchAction.AskVersions;
import io.kubepekko.api.store.batch.BatchAction.ClaimValues;
import io.kubepekko.api.store.batch.BatchAction.Fail;
import io.kubepekko.api.store.batch.BatchAction.Finish;
import io.kubepekko.api.store.batch.BatchAction.GiveBack;
import io.kubepekko.api.store.batch.BatchAction.Next;
import io.kubepekko.api.store.batch.BatchAction.Nothing;
import io.kubepekko.api.store.batch.BatchAction.Persist;
import io.kubepekko.api.store.batch.BatchPhase.Allocating;
import io.kubepekko.api.store.batch.BatchPhase.Claiming;
import io.kubepekko.api.store.batch.BatchPhase.Idle;
import io.kubepekko.api.store.batch.BatchPhase.Persisting;
import io.kubepekko.api.store.batch.WriteBatch.Step;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteBatchTest {

    private final WriteBatch<String, String> idle = WriteBatch.idle(41);

    private static WriteBatch<String, String> allocating(
            WriteBatch<String, String> from, boolean direct) {
        return from.start(List.of("a", "b"), null, direct).batch();
    }

    @Test
    void startingWithoutClaimAsksForVersionsUnderTheNextBatchId() {
        Step<String, String> step = idle.start(List.of("a", "b"), null, true);
        assertEquals(new Allocating<>(42, List.of("a", "b"), null, true), step.batch().phase());
        assertEquals(new AskVersions<>(42, 2, true, true, true), step.action());
        assertEquals(42, step.batch().lastBatchId());
        assertTrue(step.batch().inFlight());
    }

    @Test
    void startingWithNoWritesStaysIdle() {
        Step<String, String> step = idle.start(List.of(), "claim", false);
        assertSame(idle, step.batch());
        assertInstanceOf(Nothing.class, step.action());
    }

    @Test
    void startingWhileABatchIsInFlightIsAProgrammingError() {
        assertThrows(
                IllegalStateException.class,
                () -> allocating(idle, false).start(List.of("c"), null, false));
    }

    @Test
    void aBatchWithPlannedValuesClaimsThemFirst() {
        Step<String, String> step = idle.start(List.of("a"), "c1", true);
        assertEquals(new Claiming<>(42, List.of("a"), "c1"), step.batch().phase());
        assertEquals(new ClaimValues<>("c1", List.of("a")), step.action());
        assertEquals("c1", step.batch().claimInFlight());
        assertTrue(step.batch().awaitsClaim("c1"));
        assertFalse(step.batch().awaitsClaim("c0"));
    }

    @Test
    void grantedWritesAskForVersionsAndKeepTheClaimUntilSettled() {
        WriteBatch<String, String> claiming = idle.start(List.of("a", "b"), "c1", true).batch();
        Step<String, String> step = claiming.granted(List.of("b"), false);
        assertEquals(new Allocating<>(42, List.of("b"), "c1", false), step.batch().phase());
        assertEquals(new AskVersions<>(42, 1, false, true, true), step.action());
        assertEquals("c1", step.batch().claimInFlight());
    }

    @Test
    void aClaimThatGrantedNothingEndsTheBatchAndHoldsNothing() {
        Step<String, String> step =
                idle.start(List.of("a"), "c1", true).batch().granted(List.of(), true);
        assertEquals(new Idle<>(), step.batch().phase());
        assertInstanceOf(Next.class, step.action());
        assertNull(step.batch().claimInFlight());
    }

    @Test
    void aLateClaimAnswerIsAbandoned() {
        assertEquals(new AbandonClaim<>("c9"), idle.lateClaim("c9").action());
    }

    @Test
    void aFailedClaimFailsOnlyTheBatchAndStartsTheNext() {
        WriteBatch<String, String> claiming =
                idle.enqueue("q").start(List.of("a"), "c1", true).batch();
        Step<String, String> step = claiming.claimFailed("c1", "no allocator");
        assertEquals(
                new Fail<>(List.of("a"), List.of(), "no allocator", "c1", true), step.action());
        assertFalse(step.batch().inFlight());
        assertEquals(List.of("q"), step.batch().queued());
        assertInstanceOf(
                Nothing.class,
                claiming.claimFailed("c0", "stale").action(),
                "another claim's timeout");
    }

    @Test
    void versionsForTheBatchPersistItAndLateOnesAreGivenBack() {
        WriteBatch<String, String> asked = allocating(idle, true);
        Step<String, String> step = asked.allocated(42, 7);
        assertEquals(new Persisting<>(42, List.of("a", "b"), null, 7), step.batch().phase());
        assertEquals(new Persist<>(7, List.of("a", "b")), step.action());

        assertEquals(new GiveBack<>(9), step.batch().allocated(42, 9).action(), "a second answer");
        assertEquals(
                new GiveBack<>(3), asked.allocated(41, 3).action(), "an earlier batch's answer");
        assertEquals(new GiveBack<>(5), idle.allocated(41, 5).action(), "no batch in flight");
    }

    @Test
    void aMovingInstanceOrAStoppedDirectInstanceMakesTheBatchAskThroughSharding() {
        WriteBatch<String, String> direct = allocating(idle, true);
        Step<String, String> moved = direct.moving(42);
        assertEquals(new AskVersions<>(42, 2, false, false, false), moved.action());
        assertFalse(((Allocating<String>) moved.batch().phase()).askedDirectly());
        assertInstanceOf(Nothing.class, direct.moving(41).action());

        assertEquals(
                new AskVersions<>(42, 2, false, false, false), direct.revisionsStopped().action());
        assertInstanceOf(
                Nothing.class,
                moved.batch().revisionsStopped().action(),
                "already asked through sharding");
        assertInstanceOf(Nothing.class, idle.revisionsStopped().action());
    }

    @Test
    void anUnansweredBatchAsksAgainThroughShardingAndLaterAgain() {
        WriteBatch<String, String> direct = allocating(idle, true);
        assertEquals(new AskVersions<>(42, 2, false, false, true), direct.askAgain(42).action());
        assertInstanceOf(Nothing.class, direct.askAgain(41).action());
        assertInstanceOf(
                Nothing.class,
                direct.allocated(42, 1).batch().askAgain(42).action(),
                "already persisting");
    }

    @Test
    void noVersionsInTimeFailsTheBatchAndTheQueue() {
        WriteBatch<String, String> asked = allocating(idle, false).enqueue("q");
        Step<String, String> step = asked.allocationFailed(42, "no answer");
        assertEquals(
                new Fail<>(List.of("a", "b"), List.of("q"), "no answer", null, false),
                step.action());
        assertFalse(step.batch().inFlight());
        assertTrue(step.batch().queued().isEmpty());
        assertInstanceOf(Nothing.class, asked.allocationFailed(41, "stale").action());
    }

    @Test
    void aPersistedBatchSettlesItsClaimAndStartsTheNextWhenWritesWait() {
        WriteBatch<String, String> persisting =
                idle.start(List.of("a"), "c1", true)
                        .batch()
                        .granted(List.of("a"), true)
                        .batch()
                        .allocated(42, 7)
                        .batch();
        assertEquals(new Finish<>(7, List.of("a"), "c1", false), persisting.persisted().action());
        Step<String, String> withQueue = persisting.enqueue("q").persisted();
        assertEquals(new Finish<>(7, List.of("a"), "c1", true), withQueue.action());
        assertEquals(new Idle<>(), withQueue.batch().phase());
        assertEquals(
                42, withQueue.batch().start(List.of("q"), null, false).batch().lastBatchId() - 1);
    }

    @Test
    void failingEverythingAbandonsTheClaimButNotThePersistingVersions() {
        WriteBatch<String, String> persisting =
                idle.start(List.of("a"), "c1", true)
                        .batch()
                        .granted(List.of("a"), true)
                        .batch()
                        .allocated(42, 7)
                        .batch();
        assertEquals(
                new Fail<>(List.of("a"), List.of(), "journal", "c1", false),
                persisting.failAll("journal").action());
        assertEquals(
                new Fail<>(List.of(), List.of(), "stop", null, false),
                idle.failAll("stop").action());
    }

    @Test
    void theCollectionsOwnReportIsAwaitedOnlyForItsBatchInFlight() {
        WriteBatch<String, String> asked = allocating(idle, false);
        assertTrue(asked.awaitsReport(100, 42), "asked, not yet answered");
        assertFalse(asked.awaitsReport(100, 41));
        WriteBatch<String, String> persisting = asked.allocated(42, 7).batch();
        assertTrue(persisting.awaitsReport(7, 0), "being persisted");
        assertFalse(persisting.awaitsReport(8, 42));
        assertFalse(idle.awaitsReport(7, 41));
    }

    @Test
    void theQueueKeepsOrder() {
        WriteBatch<String, String> q = idle.enqueue("a").enqueue("b").enqueue("c");
        assertEquals(List.of("a", "b", "c"), q.queued());
        assertEquals(List.of("c"), q.dequeue(2).queued());
    }
}
