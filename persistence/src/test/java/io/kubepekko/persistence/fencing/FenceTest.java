package io.kubepekko.persistence.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import scala.concurrent.Await;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.concurrent.Promise;
import scala.concurrent.duration.Duration;

class FenceTest {
    private static final ExecutionContext SAME_THREAD =
            ExecutionContext.fromExecutor(Runnable::run);

    @Test
    void aWriteAnsweredWhileThePermitHoldsSucceeds() throws Exception {
        WritePermit permit = new WritePermit();
        permit.grantUntil(System.nanoTime() + 60_000_000_000L, "no majority");
        Promise<String> driver = Promise.apply();
        Future<String> answer = Fence.confirmed(permit, driver.future(), SAME_THREAD);
        driver.success("written");
        assertEquals("written", Await.result(answer, Duration.Inf()));
    }

    @Test
    void aWriteWhoseAnswerComesAfterThePermitLapsedIsNeverASuccess() {
        WritePermit permit = new WritePermit();
        permit.grantUntil(System.nanoTime() + 60_000_000_000L, "no majority");
        Promise<String> driver = Promise.apply();
        // Sent while the permit held (the refusal check passed) ...
        assertTrue(Fence.refused(permit).isEmpty());
        Future<String> answer = Fence.confirmed(permit, driver.future(), SAME_THREAD);
        // ... the server paused, a successor took over, and the driver's answer comes after the
        // permit ended.
        permit.grantUntil(System.nanoTime() - 1, "no majority");
        driver.success("written");
        FencedCassandraJournal.FencedException e =
                assertThrows(
                        FencedCassandraJournal.FencedException.class,
                        () -> Await.result(answer, Duration.Inf()));
        assertTrue(
                e.getMessage()
                        .contains("the write's answer came after the permit lapsed (no majority)"),
                e.getMessage());
    }

    @Test
    void aFailedWriteStaysTheFailureItWas() {
        WritePermit permit = new WritePermit();
        permit.revoke("removed");
        Promise<String> driver = Promise.apply();
        Future<String> answer = Fence.confirmed(permit, driver.future(), SAME_THREAD);
        driver.failure(new IllegalStateException("no node was available"));
        IllegalStateException e =
                assertThrows(
                        IllegalStateException.class, () -> Await.result(answer, Duration.Inf()));
        assertEquals("no node was available", e.getMessage());
    }

    @Test
    void aWriteAnsweredAfterTheLeaseButBeforeTheOthersCanReplaceThisServerSucceeds()
            throws Exception {
        WritePermit permit = new WritePermit();
        permit.grantUntil(System.nanoTime() + 60_000_000_000L, "no majority");
        permit.replacedNoSoonerThan(java.time.Duration.ofMinutes(1)); // scala Duration is imported
        Promise<String> driver = Promise.apply();
        Future<String> answer = Fence.confirmed(permit, driver.future(), SAME_THREAD);
        // The lease lapsed (a slow round of pings) but the others need a minute more to replace
        // this server.
        permit.grantUntil(System.nanoTime() - 1, "no majority");
        driver.success("written");
        assertEquals("written", Await.result(answer, Duration.Inf()));
    }
}
