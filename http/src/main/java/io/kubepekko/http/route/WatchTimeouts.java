package io.kubepekko.http.route;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a watch stream stays open, decided as kube-apiserver's {@code ListResource} does: a
 * positive {@code timeoutSeconds} as the client gives it; without one (or 0) a random time in [min,
 * 2×min) from {@code --min-request-timeout}, so that many watchers started together do not all
 * reconnect at once; a negative one has passed before the watch starts, so the watch ends at once.
 *
 * <p>kube-apiserver keeps any positive value, however large (its watch then lasts as long as the
 * connection). The actor system's scheduler cannot time a delay past about 248 days (2^31 ticks of
 * 10 ms) and fails the whole connection if asked to, so a longer request is clamped to {@link
 * #LONGEST}: the watch outlives any server run either way.
 */
public record WatchTimeouts(Duration minRequestTimeout) {

    /**
     * The longest watch: 2^31-1 ms (about 24.8 days), within the scheduler's range for any tick (1
     * ms at least).
     */
    static final Duration LONGEST = Duration.ofMillis(Integer.MAX_VALUE);

    Duration of(Long timeoutSeconds) {
        if (timeoutSeconds == null || timeoutSeconds == 0) {
            long min = minRequestTimeout.toMillis();
            return Duration.ofMillis(min + ThreadLocalRandom.current().nextLong(Math.max(1, min)));
        }
        if (timeoutSeconds < 0) {
            return Duration.ZERO;
        }
        return timeoutSeconds > LONGEST.toSeconds() ? LONGEST : Duration.ofSeconds(timeoutSeconds);
    }
}
