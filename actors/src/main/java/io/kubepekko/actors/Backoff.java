package io.kubepekko.actors;

import com.typesafe.config.Config;
import java.time.Duration;

/** Back-off between failed attempts: doubles from {@code initial} up to {@code max}. */
public record Backoff(Duration initial, Duration max) {
    /** The back-off {@code initial} and {@code max} of {@code config} set. */
    public static Backoff fromConfig(Config config) {
        return new Backoff(config.getDuration("initial"), config.getDuration("max"));
    }

    /** The wait after {@code failures} failures in a row. */
    public Duration after(int failures) {
        long ms = initial.toMillis() << Math.min(failures, 20);
        return Duration.ofMillis(Math.min(ms, max.toMillis()));
    }
}
