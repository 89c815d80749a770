package io.kubepekko.actors.watch;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.watch.CacheState;
import io.kubepekko.api.watch.Downtime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * Whether one watch cache serves, and what it says about it: the flag {@code /readyz} reads, the
 * time without serving logged once it serves again, and at most one warning per interval about why
 * it does not (a load that fails, a stream that does not reach the version it loaded, a
 * subscription nobody answers). Owned by its {@link CacheInstance}, called in its order.
 */
final class CacheServing {

    /**
     * How long a cache may wait for its stream to reach the version it loaded before it warns and
     * subscribes again: longer than a normal catch-up, shorter than Revisions' 45 s resolve
     * deadline plus a rebuild.
     */
    static final Duration CATCH_UP_PATIENCE = Duration.ofSeconds(30);

    /** At most one warning per cache per interval about why it does not serve. */
    static final Duration WARN_INTERVAL = Duration.ofMinutes(1);

    private final GroupResource resource;
    private final AtomicBoolean ready;
    private final Logger log;
    private final Downtime downtime = new Downtime(CATCH_UP_PATIENCE);
    private final RateLimitedWarning notServing = new RateLimitedWarning(WARN_INTERVAL);

    CacheServing(GroupResource resource, AtomicBoolean ready, Logger log) {
        this.resource = resource;
        this.ready = ready;
        this.log = log;
    }

    /** Publishes whether the cache serves, and says so in the log once it serves again. */
    void update(boolean serving, Instant now) {
        ready.set(serving);
        downtime.update(serving, now)
                .ifPresent(
                        without -> {
                            if (notServing.clear()) {
                                log.info(
                                        "the {} cache serves again, after {} without",
                                        resource,
                                        without);
                            }
                        });
    }

    /** The cache stopped: it serves nothing. */
    void stopped() {
        ready.set(false);
    }

    /** A load failed ({@code failures} in a row); the next is tried in {@code wait}. */
    void loadFailed(Instant now, int failures, Duration wait, String reason) {
        notServing.warn(
                log,
                now,
                "the {} cache cannot load its collections ({} failed attempts in a row),"
                        + " trying again in {}: {}",
                resource,
                failures,
                wait,
                reason);
    }

    /**
     * A cache that has loaded but not caught up for long waits for a version its stream does not
     * reach: its sequencer has not resolved a version below it (it gives one up after 45 s and
     * starts a new epoch, or its storage is down). It says so, and subscribes again now and then
     * even though the stream is not silent: the acknowledgement comes from whoever sequences the
     * group-resource now, so a stream that stopped moving (or a sequencer that was replaced) shows
     * as a new epoch or a gap. One that gets no answer to its subscription says so too. A load that
     * fails says why itself ({@link #loadFailed}).
     *
     * @param state the cache's contents, null while none are loaded
     * @param epoch the epoch its stream follows, null before an acknowledgement
     * @return whether the cache should subscribe again now
     */
    boolean check(
            Instant now,
            CacheState state,
            String epoch,
            Instant lastHeard,
            Instant lastSubscribed,
            Duration resubscribeAfter) {
        Optional<Duration> overdue = downtime.overdue(now);
        if (overdue.isEmpty()) {
            return false;
        }
        Duration waited = overdue.get();
        if (state != null && !state.ready()) {
            notServing.warn(
                    log,
                    now,
                    "the {} cache has not served for {}: it waits for the change"
                            + " stream to reach resourceVersion {} (the newest its collections held when read),"
                            + " but the stream of epoch {} is at {}, last heard from {} ago; an earlier version"
                            + " is unresolved (is the storage down?); subscribing again",
                    resource,
                    waited,
                    state.readyAt(),
                    epoch,
                    state.resourceVersion(),
                    Duration.between(lastHeard, now));
            return !now.isBefore(lastSubscribed.plus(resubscribeAfter));
        }
        if (epoch == null) {
            notServing.warn(
                    log,
                    now,
                    "the {} cache has not served for {}: its sequencer (Revisions) has"
                            + " not answered its subscription (is the storage down?); subscribing again every {}",
                    resource,
                    waited,
                    resubscribeAfter);
        }
        return false;
    }
}
