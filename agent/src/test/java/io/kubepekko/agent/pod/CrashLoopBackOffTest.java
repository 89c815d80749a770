package io.kubepekko.agent.pod;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CrashLoopBackOffTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final ContainerSpec APP =
            new ContainerSpec("app", "busybox:1.36", false, "{}", Map.of());
    private static final CrashLoopBackOff.Key KEY =
            CrashLoopBackOff.Key.of("web", "default", "uid-1", APP);

    @Test
    void firstCrashRestartsAtOnce() {
        assertFalse(CrashLoopBackOff.KUBELET.inBackOff(KEY, T0, T0));
        assertEquals(T0, CrashLoopBackOff.KUBELET.restartAt(KEY, T0, T0));
    }

    @Test
    void delaysDoubleFromTenSecondsToAFiveMinuteCap() {
        // A container that crashes one second after each start: the waits are 10, 20, 40, 80, 160,
        // 300, 300 s.
        CrashLoopBackOff b = CrashLoopBackOff.KUBELET;
        Instant finished = T0;
        b = b.next(KEY, finished, finished); // first crash: restarted at once
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            finished = finished.plusSeconds(1); // it ran one second
            Instant restart = b.restartAt(KEY, finished, finished);
            assertTrue(b.inBackOff(KEY, finished, restart.minusMillis(1)));
            assertFalse(b.inBackOff(KEY, finished, restart));
            waits.add(Duration.between(finished, restart).getSeconds());
            b = b.next(KEY, finished, restart);
            finished = restart;
        }
        assertEquals(List.of(10L, 20L, 40L, 80L, 160L, 300L, 300L), waits);
    }

    @Test
    void startsOverWhenTheContainerRanMoreThanTenMinutes() {
        CrashLoopBackOff b =
                CrashLoopBackOff.KUBELET
                        .next(KEY, T0, T0)
                        .next(KEY, T0.plusSeconds(1), T0.plusSeconds(11));
        assertEquals(Duration.ofSeconds(20), b.get(KEY));
        // Restarted at T0+11s, ran exactly 600 s: still backing off.
        assertTrue(b.inBackOff(KEY, T0.plusSeconds(611), T0.plusSeconds(612)));
        // Ran 601 s: restarted at once, and the back-off begins again at 10 s.
        Instant finished = T0.plusSeconds(612);
        assertFalse(b.inBackOff(KEY, finished, finished));
        assertEquals(Duration.ofSeconds(10), b.next(KEY, finished, finished).get(KEY));
    }

    @Test
    void waitingLongAfterAShortRunStillDoubles() {
        // The reset looks at how long the container ran, not at how long ago it crashed.
        CrashLoopBackOff b = CrashLoopBackOff.KUBELET.next(KEY, T0, T0);
        Instant finished = T0.plusSeconds(5);
        assertEquals(
                Duration.ofSeconds(20), b.next(KEY, finished, finished.plusSeconds(3600)).get(KEY));
    }

    @Test
    void aNewImageOrNewResourcesIsANewKey() {
        CrashLoopBackOff b = CrashLoopBackOff.KUBELET.next(KEY, T0, T0);
        var otherImage =
                CrashLoopBackOff.Key.of(
                        "web",
                        "default",
                        "uid-1",
                        new ContainerSpec("app", "busybox:1.37", false, "{}", Map.of()));
        assertEquals(Duration.ZERO, b.get(otherImage));
        assertFalse(b.inBackOff(otherImage, T0.plusSeconds(1), T0.plusSeconds(1)));
    }

    @Test
    void gcDropsEntriesIdleForMoreThanTenMinutesAndForgetDropsAPod() {
        CrashLoopBackOff b = CrashLoopBackOff.KUBELET.next(KEY, T0, T0);
        assertEquals(1, b.gc(T0.plusSeconds(600)).entries().size());
        assertEquals(0, b.gc(T0.plusSeconds(601)).entries().size());
        assertEquals(0, b.forget("uid-1").entries().size());
    }

    @Test
    void messageReadsAsTheKubelets() {
        CrashLoopBackOff b = CrashLoopBackOff.KUBELET;
        for (int i = 0; i < 6; i++) {
            b = b.next(KEY, T0.plusSeconds(i), T0.plusSeconds(i));
        }
        assertEquals(
                "back-off 5m0s restarting failed container=app pod=web_default(uid-1)",
                b.message(KEY));
        assertEquals("CrashLoopBackOff", CrashLoopBackOff.REASON);
    }
}
