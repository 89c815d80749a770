package io.kubepekko.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How long a watch lasts for each {@code timeoutSeconds}, as kube-apiserver's ListResource decides
 * it.
 */
class WatchTimeoutsTest {

    private final WatchTimeouts timeouts = new WatchTimeouts(Duration.ofSeconds(1800));

    @Test
    void aPositiveTimeoutIsKeptAsAsked() {
        assertEquals(Duration.ofSeconds(1), timeouts.of(1L));
        assertEquals(
                Duration.ofSeconds(2_147_483),
                timeouts.of(2_147_483L),
                "the longest watch, in whole seconds");
    }

    @ParameterizedTest(name = "timeoutSeconds={0}")
    @ValueSource(longs = {2_147_484L, 21_474_836L, 999_999_999L, Long.MAX_VALUE})
    void aTimeoutBeyondTheSchedulersRangeIsClampedToTheLongestWatch(long seconds) {
        assertEquals(WatchTimeouts.LONGEST, timeouts.of(seconds));
    }

    @ParameterizedTest(name = "timeoutSeconds={0}")
    @ValueSource(longs = {-1L, Long.MIN_VALUE})
    void aNegativeTimeoutHasPassedAlready(long seconds) {
        assertEquals(Duration.ZERO, timeouts.of(seconds));
    }

    @Test
    void withoutATimeoutAWatchLastsBetweenOnceAndTwiceTheMinimumRequestTimeout() {
        for (Long none : new Long[] {null, 0L}) {
            Duration d = timeouts.of(none);
            assertTrue(
                    d.compareTo(Duration.ofSeconds(1800)) >= 0
                            && d.compareTo(Duration.ofSeconds(3600)) < 0,
                    () -> "got " + d);
        }
    }
}
