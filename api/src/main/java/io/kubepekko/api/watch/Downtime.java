package io.kubepekko.api.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Since when a cache has not served, so that it can say so once that lasts longer than a normal
 * load and catch-up, and say when it serves again.
 */
public final class Downtime {

    private final Duration patience;

    /** Since when the cache has not served; null while it serves. */
    private Instant since;

    /**
     * @param patience how long not serving is normal (a load and catch-up)
     */
    public Downtime(Duration patience) {
        this.patience = patience;
    }

    /** Notes whether the cache serves at {@code now}; when it serves again, how long it did not. */
    public Optional<Duration> update(boolean serving, Instant now) {
        if (!serving) {
            if (since == null) {
                since = now;
            }
            return Optional.empty();
        }
        Optional<Duration> was =
                since == null ? Optional.empty() : Optional.of(Duration.between(since, now));
        since = null;
        return was;
    }

    /** How long the cache has not served, once that is longer than the patience. */
    public Optional<Duration> overdue(Instant now) {
        return since == null || now.isBefore(since.plus(patience))
                ? Optional.empty()
                : Optional.of(Duration.between(since, now));
    }
}
