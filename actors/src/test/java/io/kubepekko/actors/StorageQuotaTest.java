package io.kubepekko.actors;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link StorageQuota}: what the caches count, what batches in flight reserve, and the readiness alarm. */
class StorageQuotaTest {

    private static final GroupResource PODS = GroupResource.parse("pods");
    private static final GroupResource CONFIG_MAPS = GroupResource.parse("configmaps");
    private static final long MB = 1_000_000;

    @Test
    void usedIsWhatEachCacheLastReportedSummedOverTheCaches() {
        StorageQuota quota = StorageQuota.of(100 * MB);
        quota.record(PODS, 10 * MB);
        quota.record(CONFIG_MAPS, 5 * MB);
        quota.record(PODS, 7 * MB);
        assertEquals(12 * MB, quota.used());
    }

    /** Two collections' batches near the quota: the second is refused, not admitted past it. */
    @Test
    void batchesOfDifferentCollectionsAreAdmittedAgainstEachOthersReservations() {
        StorageQuota quota = StorageQuota.of(20 * MB);
        quota.record(CONFIG_MAPS, 18 * MB);
        StorageQuota.Admission first = quota.admission();
        StorageQuota.Admission second = quota.admission();

        assertTrue(first.admit(() -> MB + MB / 2));
        ApiException refused = assertThrows(ApiException.class, () -> second.admit(() -> MB));
        assertEquals(507, refused.status().code());

        first.release();
        quota.record(CONFIG_MAPS, 19 * MB + MB / 2); // the caches counted the first batch
        assertTrue(quota.admission().admit(() -> MB / 2), "exactly at the quota is within it");
    }

    @Test
    void farBelowTheQuotaWritesReserveTheBoundUnmeasuredAndNearItTheyAreMeasured() {
        StorageQuota quota = StorageQuota.of(2 * StorageQuota.UNMEASURED_GROWTH + MB);
        StorageQuota.Admission batch = quota.admission();
        assertTrue(batch.admit(() -> {
            throw new AssertionError("measured far below the quota");
        }));
        assertTrue(batch.admit(() -> {
            throw new AssertionError("measured far below the quota");
        }));
        // a third bound does not fit: measured, it fits in what the caches count but maybe not after the two
        assertFalse(batch.admit(() -> MB + 1), "waits for the next batch");
        batch.release();
        assertTrue(quota.admission().admit(() -> {
            throw new AssertionError("far below again once the batch ended");
        }));
    }

    @Test
    void aRefusalRaisesTheAlarmUntilAWriteAsLargeWouldFit() {
        StorageQuota quota = StorageQuota.of(10 * MB);
        quota.record(PODS, 9 * MB);
        assertTrue(quota.readiness().isEmpty());

        assertThrows(ApiException.class, () -> quota.admission().admit(() -> 2 * MB));
        assertTrue(quota.readiness().orElseThrow().startsWith("database space exceeded"));
        quota.record(PODS, 8 * MB + 1);
        assertTrue(quota.readiness().isPresent(), "2 MB do not fit yet");
        quota.record(PODS, 8 * MB);
        assertTrue(quota.readiness().isEmpty());

        quota.record(PODS, 11 * MB); // over it, e.g. restarted with a smaller quota
        assertTrue(quota.readiness().isPresent());
        assertTrue(quota.admission().admit(() -> -MB), "a shrinking write is admitted even over the quota");
    }
}
