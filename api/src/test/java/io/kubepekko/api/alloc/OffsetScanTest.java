package io.kubepekko.api.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Picking a free value the way Kubernetes does: random in the upper part of the range first. */
class OffsetScanTest {

    @ParameterizedTest(name = "cidr size {0}")
    @CsvSource({"4, 0", "16, 0", "32, 16", "256, 16", "4096, 256", "1048576, 256"})
    void clusterIpOffsetIsKubernetesStepFunction(long size, long offset) {
        assertEquals(offset, OffsetScan.clusterIpOffset(size));
    }

    @ParameterizedTest(name = "range size {0}")
    @CsvSource({"10, 0", "100, 16", "2768, 86", "65535, 128"})
    void nodePortOffsetIsKubernetesStepFunction(long size, long offset) {
        assertEquals(offset, OffsetScan.nodePortOffset(size));
    }

    @Test
    void picksFromTheUpperPartWhileItHasRoom() {
        SplittableRandom random = new SplittableRandom(7);
        Set<Long> taken = new HashSet<>();
        for (int i = 0; i < 238; i++) {
            long o = OffsetScan.pick(254, 16, taken::contains, random).orElseThrow();
            assertTrue(o >= 16, "pick " + i + " came from the lower part: " + o);
            assertTrue(taken.add(o), "picked a taken ordinal");
        }
        long lower = OffsetScan.pick(254, 16, taken::contains, random).orElseThrow();
        assertTrue(lower < 16, "with the upper part full the lower part is used");
    }

    @Test
    void fillsTheWholeRangeThenAnswersEmpty() {
        Random random = new Random(1);
        Set<Long> taken = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            assertTrue(taken.add(OffsetScan.pick(40, 16, taken::contains, random).orElseThrow()));
        }
        assertEquals(OptionalLong.empty(), OffsetScan.pick(40, 16, taken::contains, random));
        assertEquals(OptionalLong.empty(), OffsetScan.pick(0, 0, o -> false, random));
    }

    @Test
    void startsAtARandomPlace() {
        Set<Long> firsts = new HashSet<>();
        Random random = new Random(3);
        for (int i = 0; i < 50; i++) {
            firsts.add(OffsetScan.pick(254, 16, o -> false, random).orElseThrow());
        }
        assertTrue(firsts.size() > 20, "not sequential: " + firsts);
        assertFalse(firsts.stream().anyMatch(o -> o < 16));
    }
}
