package io.kubepekko.http;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a watch stream stays open: {@code timeoutSeconds} when the client gives it, otherwise a
 * random time in [min, 2×min) as kube-apiserver does with {@code --min-request-timeout}, so that
 * many watchers started together do not all reconnect at once.
 */
record WatchTimeouts(Duration minRequestTimeout) {

    Duration of(Long timeoutSeconds) {
        if (timeoutSeconds != null && timeoutSeconds > 0) {
            return Duration.ofSeconds(timeoutSeconds);
        }
        long min = minRequestTimeout.toMillis();
        return Duration.ofMillis(min + ThreadLocalRandom.current().nextLong(Math.max(1, min)));
    }
}
