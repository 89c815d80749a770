package io.kubepekko.api.watch;

import java.time.Instant;
import java.util.Optional;

/**
 * What a started watch receives of the cache's live changes and bookmarks.
 *
 * @param filter what it selects
 * @param bookmarks whether it accepts BOOKMARK events
 * @param schedule when a quiet watch gets a bookmark
 * @param liveAfter live changes up to this version are not for it (it got them as initial or
 *     replayed events, or started after them)
 * @param startVersion the version it started from: like kube-apiserver, bookmarks are only sent
 *     above it
 */
public record LiveWatch(
        WatchFilter filter,
        boolean bookmarks,
        BookmarkSchedule schedule,
        long liveAfter,
        long startVersion) {

    /** The event this watch gets for a live change, if any. */
    public Optional<Delivery> deliver(CachedEvent event) {
        return event.resourceVersion() <= liveAfter ? Optional.empty() : filter.deliver(event);
    }

    /**
     * Whether a bookmark at {@code version} is due now, its last event having been sent at {@code
     * lastSent}.
     */
    public boolean bookmarkDue(long version, Instant lastSent, Instant now) {
        return bookmarks && version > startVersion && schedule.due(lastSent, now);
    }
}
