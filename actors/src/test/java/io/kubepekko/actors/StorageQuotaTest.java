package io.kubepekko.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteResult;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link StorageQuota}: what the caches count, what batches in flight reserve, and the readiness
 * alarm.
 */
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

        assertEquals(Optional.empty(), first.admit(() -> MB + MB / 2));
        ApiStatus refused = second.admit(() -> MB).orElseThrow().status();
        assertEquals(507, refused.code());
        assertTrue(refused.message().contains("would take 20500000 bytes"), refused.message());

        first.release();
        quota.record(CONFIG_MAPS, 19 * MB + MB / 2); // the caches counted the first batch
        assertEquals(
                Optional.empty(),
                quota.admission().admit(() -> MB / 2),
                "exactly at the quota is within it");
    }

    @Test
    void farBelowTheQuotaWritesAreNotMeasuredAndWithinTheMarginTheyAre() {
        StorageQuota quota = StorageQuota.of(80 * MB); // a margin of an eighth: 10 MB
        quota.admission()
                .admit(
                        () -> {
                            throw new AssertionError("measured far below the quota");
                        });
        quota.record(PODS, 69 * MB);
        quota.admission()
                .admit(
                        () -> {
                            throw new AssertionError("measured 11 MB below the quota");
                        });
        quota.record(PODS, 71 * MB);
        boolean[] measured = {false};
        quota.admission()
                .admit(
                        () -> {
                            measured[0] = true;
                            return MB;
                        });
        assertTrue(measured[0], "9 MB below the quota");
    }

    @Test
    void aRefusalRaisesTheAlarmUntilAWriteAsLargeWouldFit() {
        StorageQuota quota = StorageQuota.of(10 * MB);
        quota.record(PODS, 9 * MB);
        assertTrue(quota.readiness().isEmpty());

        assertTrue(quota.admission().admit(() -> 2 * MB).isPresent());
        assertTrue(quota.readiness().orElseThrow().startsWith("database space exceeded"));
        quota.record(PODS, 8 * MB + 1);
        assertTrue(quota.readiness().isPresent(), "2 MB do not fit yet");
        quota.record(PODS, 8 * MB);
        assertTrue(quota.readiness().isEmpty());

        quota.record(PODS, 11 * MB); // over it, e.g. restarted with a smaller quota
        assertTrue(quota.readiness().isPresent());
        assertEquals(
                Optional.empty(),
                quota.admission().admit(() -> -MB),
                "a shrinking write is admitted even over the quota");
    }

    /**
     * A write that does not fit is answered its 507 refusal as a value, which the collection passes
     * on as the write's reply; nothing is thrown.
     */
    @Test
    void aWriteThatDoesNotFitIsAnsweredARefusalValue() {
        StorageQuota quota = StorageQuota.of(10 * MB);
        quota.record(PODS, 9 * MB);
        Optional<WriteResult.Refused> answer = quota.admission().admit(() -> 2 * MB);
        assertEquals(507, answer.orElseThrow().status().code());
        assertTrue(
                answer.get()
                        .status()
                        .message()
                        .startsWith(
                                "database space exceeded: the stored"
                                        + " objects would take 11000000 bytes, over the storage quota of 10000000"
                                        + " bytes (--storage-quota-bytes)"),
                answer.get().status().message());
    }
}
